/**
 * The JSON report against its published schema (docs/report.schema.json): every fixture incident,
 * every thread fixture and every corpus dump. The schema is closed, so a field added to the output
 * without being documented fails here.
 */
import { copyFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

import { InputError } from '../../src/errors.js';
import { ACTIVITY_BASES } from '../../src/model/activity.js';
import { renderJson } from '../../src/report/json.js';
import { redactReport } from '../../src/report/redact.js';
import { RULES } from '../../src/rules/index.js';
import { analyse, analyseIncident, CORPUS, corpusAvailable, FIXTURES, INCIDENTS, scratchDir, TEST_TOOL } from '../helpers.js';

const schema = JSON.parse(readFileSync('docs/report.schema.json', 'utf8'));
const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
// model.memory takes its fields from the memory schema, by reference.
ajv.addSchema(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
const validate = ajv.compile(schema);

function expectValid(doc: unknown, label: string): void {
  const ok = validate(doc);
  if (!ok) throw new Error(`${label}: ${ajv.errorsText(validate.errors, { separator: '\n' })}`);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (!/\.(md|json)$/i.test(e.name) || /threads?|dump|jstack/i.test(e.name)) out.push(p);
  }
  return out.sort();
}

describe('dumpsleuth.report/1 JSON schema', { timeout: 180_000 }, () => {
  it('rejects documents that break it (the check can fail)', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'active-count-leak'));
    const doc = JSON.parse(renderJson({ tool: TEST_TOOL, model, findings }));
    expectValid(doc, 'active-count-leak');
    expectValid(JSON.parse(renderJson(redactReport({ tool: TEST_TOOL, model, findings }))), 'active-count-leak --redact');
    expect(validate({ ...doc, extra: 1 })).toBe(false);
    expect(validate({ ...doc, findings: [{ ...doc.findings[0], severity: 'fatal' }] })).toBe(false);
    expect(validate({ ...doc, findings: [{ ...doc.findings[0], evidence: [{ kind: 'thread', thread: 'x' }] }] })).toBe(false);
    expect(validate({ ...doc, summary: { ...doc.summary, error: -1 } })).toBe(false);
    // The memory fields are checked through the memory schema they refer to.
    const memory = doc.model.memory[0];
    expect(memory.suspects).toBeDefined();
    expect(validate({ ...doc, model: { ...doc.model, memory: [{ ...memory, dominators: [{ id: 'zz', class: 'x', shallow: 1, retained: 1 }] }] } })).toBe(false);
    expect(validate({ ...doc, model: { ...doc.model, memory: [{ ...memory, heap: { ...memory.heap, objects: 'many' } }] } })).toBe(false);
  });

  for (const incident of readdirSync(INCIDENTS).filter((d) => statSync(join(INCIDENTS, d)).isDirectory())) {
    it(`fixture incident ${incident}`, async () => {
      const { model, findings } = await analyseIncident(join(INCIDENTS, incident));
      expectValid(JSON.parse(renderJson({ tool: TEST_TOOL, model, findings })), incident);
    });
  }

  it('a heap dump alone (threads read from the heap dump, dump format hprof)', async () => {
    const dir = scratchDir('schema-heap');
    copyFileSync(join(INCIDENTS, 'heap-deadlock', 'heap.hprof.gz'), join(dir, 'heap.hprof.gz'));
    const { model, findings } = await analyseIncident(dir);
    const doc = JSON.parse(renderJson({ tool: TEST_TOOL, model, findings }));
    expect(doc.dumps.map((d: { format: string }) => d.format)).toEqual(['hprof']);
    expect(doc.inputs[0].heap.objects).toBeGreaterThan(0);
    expectValid(doc, 'heap-deadlock heap only');
  });

  it('every thread fixture', async () => {
    for (const scenario of readdirSync(FIXTURES).filter((d) => statSync(join(FIXTURES, d)).isDirectory())) {
      const files = readdirSync(join(FIXTURES, scenario))
        .filter((f) => !f.endsWith('.json') && !f.endsWith('.java') && !f.endsWith('.md'))
        .map((f) => join(FIXTURES, scenario, f));
      // A scenario's folder may hold dumps of several JVMs (one per JDK), which analyze refuses together.
      for (const file of files) {
        const { model, findings } = await analyse([file]);
        expectValid(JSON.parse(renderJson({ tool: TEST_TOOL, model, findings })), file);
      }
    }
  });

  it.skipIf(!corpusAvailable)('every corpus thread dump', async () => {
    let validated = 0;
    for (const file of filesUnder(CORPUS)) {
      let result;
      try {
        result = await analyse([file]);
      } catch (e) {
        if (e instanceof InputError) continue; // not a thread dump (sources, notes, heap files)
        throw e;
      }
      expectValid(JSON.parse(renderJson({ tool: TEST_TOOL, ...result })), file);
      validated++;
    }
    expect(validated).toBeGreaterThan(50);
  });
});

describe('the schema lists what the code has (a list kept by hand drifts: gc-overhead was missing from it)', () => {
  it("the finding's rule enum is every rule of RULES, and nothing else", () => {
    expect([...(schema.$defs.finding.properties.rule.enum as string[])].sort()).toEqual(RULES.map((r) => r.meta.id).sort());
  });
  it("the verdicts' basis enum is every ActivityBasis", () => {
    const text = readFileSync('docs/report.schema.json', 'utf8');
    const basis = /"basis": \{[^}]*"enum": (\[[^\]]*\])/.exec(text);
    expect(basis, 'the basis enum in docs/report.schema.json').not.toBeNull();
    expect([...(JSON.parse(basis![1]!) as string[])].sort()).toEqual([...ACTIVITY_BASES].sort());
  });
});
