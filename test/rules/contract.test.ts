/**
 * The rule contract: every rule's meta is complete and its options' defaults are values their own
 * types accept; the config refuses an option of the wrong type or out of range, naming the rule, the
 * option and what it takes; cause links to a rule id the registry lacks stop the run (a rule's bug),
 * while links to a known rule that found nothing are dropped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { rulesCommand } from '../../src/commands/rules.js';
import { defaultConfig, resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { UsageError } from '../../src/errors.js';
import { SEVERITIES } from '../../src/model/findings.js';
import { RULES } from '../../src/rules/index.js';
import { type FindingDraft, optionAccepts, optionDomain, type Rule, type RuleOption } from '../../src/rules/rule.js';
import { modelOf } from './build.js';

const RULES_DIR = 'src/rules';

describe('every rule', () => {
  test('has an id that is its file name, a severity, words for users, and options whose defaults fit their types', () => {
    const files = readdirSync(RULES_DIR)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'rule.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(RULES.map((r) => r.meta.id).sort()).toEqual(files);
    for (const { meta } of RULES) {
      expect(SEVERITIES, meta.id).toContain(meta.defaultSeverity);
      for (const text of [meta.title, meta.description, meta.remedy]) expect(text.length, meta.id).toBeGreaterThan(5);
      for (const [name, o] of Object.entries(meta.options)) {
        expect(optionAccepts(o, o.default), `${meta.id}.${name}`).toBe(true);
        expect(o.description.length, `${meta.id}.${name}`).toBeGreaterThan(5);
      }
    }
  });

  test('has a test file of its own', () => {
    const tests = new Set(readdirSync('test/rules'));
    expect(RULES.map((r) => r.meta.id).filter((id) => !tests.has(`${id}.test.ts`))).toEqual([]);
  });

  test('opens with its meta, right after the imports, and imports no other rule', () => {
    const ruleFiles = new Set(RULES.map((r) => `./${r.meta.id}.js`));
    for (const { meta } of RULES) {
      const text = readFileSync(join(RULES_DIR, `${meta.id}.ts`), 'utf8');
      const code = text.replace(/^\/\*\*[\s\S]*?\*\/\n/, '').split('\n');
      const firstCode = code.findIndex((l) => !l.startsWith('import ') && l.trim() !== '');
      const rest = code.slice(firstCode).join('\n');
      // Its own doc comment may come first; then the rule object, whose first key is meta.
      expect(rest, meta.id).toMatch(/^(?:\/\*\*[\s\S]*?\*\/\n)?export const \w+: Rule = \{\n {2}meta: \{\n {4}id: '/);
      for (const m of text.matchAll(/from '(\.[^']+)'/g)) expect(ruleFiles.has(m[1]!), `${meta.id} imports ${m[1]}`).toBe(false);
    }
  });
});

describe('options in the config', () => {
  const fails = (entry: unknown) => () => resolveConfig(RULES, { rules: { 'lock-contention': entry } }, 'cfg.json');

  test('a value in range is taken, in every form of entry', () => {
    for (const entry of [['warning', { minWaiters: 2 }], { options: { minWaiters: 2 } }, { severity: 'error', options: { minWaiters: 2 } }]) {
      expect(resolveConfig(RULES, { rules: { 'lock-contention': entry } }, 'cfg.json')['lock-contention']!.options['minWaiters']).toBe(2);
    }
  });

  test('the wrong type, a fraction for an integer, or a value out of range: a usage error naming what it takes', () => {
    expect(fails(['warning', { minWaiters: 0 }])).toThrow(UsageError);
    expect(fails(['warning', { minWaiters: 0 }])).toThrow('config cfg.json: rules.lock-contention.minWaiters: expected an integer of at least 1, got 0');
    expect(fails(['warning', { minWaiters: 2.5 }])).toThrow('rules.lock-contention.minWaiters: expected an integer of at least 1, got 2.5');
    expect(fails(['warning', { minWaiters: '5' }])).toThrow('rules.lock-contention.minWaiters: expected an integer of at least 1, got "5"');
    expect(fails(['warning', { minWaiters: null }])).toThrow('got null');
    const ratio = () => resolveConfig(RULES, { rules: { 'cpu-hot-threads': { options: { minCoreShare: 5 } } } }, 'cfg.json');
    expect(ratio).toThrow('config cfg.json: rules.cpu-hot-threads.minCoreShare: expected a number from 0 to 1, got 5');
  });

  test('an unknown option, and options that are not an object, are refused as before', () => {
    expect(fails(['warning', { minWaiter: 2 }])).toThrow('rules.lock-contention.minWaiter: unknown option (known: minWaiters)');
    expect(fails(['warning', 3])).toThrow('rules.lock-contention[1]: expected an options object');
    expect(fails({ options: [2] })).toThrow('rules.lock-contention.options: expected an options object');
  });

  test('each option type says what it takes and accepts only that', () => {
    const cases: Array<[RuleOption, string, unknown[], unknown[]]> = [
      [{ type: 'integer', default: 5, min: 1, max: 1000, description: 'd' }, 'an integer from 1 to 1000', [1, 1000], [0, 1001, 2.5, '5', Number.NaN]],
      [{ type: 'number', default: 0.5, max: 1, description: 'd' }, 'a number of at most 1', [-3, 0.25, 1], [1.5, Number.POSITIVE_INFINITY, true]],
      [{ type: 'string', default: 'a', description: 'd' }, 'a string', ['', 'x'], [1, null]],
      [{ type: 'boolean', default: false, description: 'd' }, 'true or false', [true, false], ['true', 0]],
      [{ type: 'enum', default: 'fast', values: ['fast', 'thorough'], description: 'd' }, 'one of "fast", "thorough"', ['thorough'], ['slow', 1]],
    ];
    for (const [o, domain, good, bad] of cases) {
      expect(optionDomain(o)).toBe(domain);
      for (const v of good) expect(optionAccepts(o, v), `${domain}: ${String(v)}`).toBe(true);
      for (const v of bad) expect(optionAccepts(o, v), `${domain}: ${String(v)}`).toBe(false);
    }
  });

  test('`dumpsleuth rules` shows what each option takes', () => {
    expect(rulesCommand('text')).toContain('option minWaiters = 5 (an integer of at least 1): ');
    const json = JSON.parse(rulesCommand('json')) as Array<{ id: string; options: Record<string, unknown> }>;
    expect(json.find((r) => r.id === 'lock-contention')!.options['minWaiters']).toMatchObject({ type: 'integer', min: 1, default: 5 });
  });
});

describe('cause links', () => {
  /** A rule that makes one finding per subject given, each linking to the causes given. */
  const linking = (id: string, drafts: Array<Pick<FindingDraft, 'subject' | 'causedBy'>>): Rule => ({
    meta: { id, defaultSeverity: 'warning', title: id, description: `test rule ${id}`, remedy: 'none', options: {} },
    check: () => drafts.map((d) => ({ ...d, message: d.subject, facts: {}, evidence: [] })),
  });
  const model = modelOf([]);

  test('a link to a rule id the registry lacks makes runRules throw', () => {
    const rules = [linking('victim', [{ subject: 'v', causedBy: [{ rule: 'no-such-rule', subject: 'x' }] }])];
    expect(() => runRules(model, rules, defaultConfig(rules))).toThrow(/rule victim: finding "v" links to unknown rule id "no-such-rule"/);
  });

  test('links become finding ids; one to a known rule that found nothing (or is off), or to itself, is dropped', () => {
    const rules = [
      linking('cause', [{ subject: 'c' }, { subject: 'c' }]),
      linking('quiet', []),
      linking('victim', [
        {
          subject: 'v',
          causedBy: [
            { rule: 'cause', subject: 'c' },
            { rule: 'quiet', subject: 'q' },
            { rule: 'cause', subject: 'absent' },
            { rule: 'victim', subject: 'v' },
          ],
        },
      ]),
    ];
    const findings = runRules(model, rules, defaultConfig(rules));
    // The same subject twice is numbered; a link names the first.
    expect(findings.map((f) => f.id).sort()).toEqual(['cause:c', 'cause:c #2', 'victim:v']);
    expect(findings.find((f) => f.id === 'victim:v')!.causedBy).toEqual(['cause:c']);
    const off = resolveConfig(rules, { rules: { cause: 'off' } }, 'test');
    expect(runRules(model, rules, off).map((f) => [f.id, f.causedBy])).toEqual([['victim:v', []]]);
  });
});
