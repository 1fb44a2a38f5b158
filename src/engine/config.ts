/**
 * The JSON config: per-rule severity overrides and options, validated against the rules' meta.
 *   { "rules": { "deadlock": "error", "lock-contention": ["warning", { "minWaiters": 10 }], "stuck-threads": "off" },
 *     "counters": [{ "name": "order-limiter", "className": "com.acme.Limiter", "active": "inFlight", "limit": "max",
 *                    "insideFrame": "com.acme.OrderService.place" }] }
 * The resolved config is a frozen value passed down explicitly; nothing reads it globally.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { UsageError } from '../errors.js';
import type { ConfigSource } from '../model/config-source.js';
import { SEVERITIES, type Severity } from '../model/findings.js';
import { readFailure } from '../model/read-failure.js';
import type { UserCounterSpec } from '../reconstruct/user-counters.js';
import { optionAccepts, optionDomain, type OptionValue, type Rule } from '../rules/rule.js';

interface ResolvedRuleConfig {
  readonly enabled: boolean;
  readonly severity: Severity | null;
  readonly options: Readonly<Record<string, OptionValue>>;
}

export type ResolvedConfig = Readonly<Record<string, ResolvedRuleConfig>>;

const DEFAULT_CONFIG_FILE = 'dumpsleuth.config.json';

export function defaultConfig(rules: readonly Rule[]): ResolvedConfig {
  return resolveConfig(rules, {}, '(defaults)');
}

export interface LoadedConfig {
  readonly rules: ResolvedConfig;
  readonly counters: UserCounterSpec[];
  /** Absent when no file was used (the defaults). */
  readonly source?: ConfigSource;
}

/**
 * The config of an analysis: the file given with --config, else ./dumpsleuth.config.json when there
 * is one, else the defaults. Read once, for the rules and the counters.
 */
export async function loadConfigFile(rules: readonly Rule[], path: string | undefined): Promise<LoadedConfig> {
  const source: ConfigSource | undefined =
    path !== undefined ? { path, chosen: 'flag' } : existsSync(DEFAULT_CONFIG_FILE) ? { path: DEFAULT_CONFIG_FILE, chosen: 'working-directory' } : undefined;
  if (source === undefined) return { rules: defaultConfig(rules), counters: [] };
  const file = source.path;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read config ${file}: ${readFailure(e)}`, 'check the path given with --config');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`config ${file} is not valid JSON: ${(e as Error).message}`, 'fix the JSON or pass another file with --config');
  }
  return { rules: resolveConfig(rules, raw, file), counters: resolveCounterSpecs(raw, file), source };
}

export function resolveConfig(rules: readonly Rule[], raw: unknown, file: string): ResolvedConfig {
  const fail = (path: string, msg: string): never => {
    throw new UsageError(`config ${file}: ${path}: ${msg}`, `see \`dumpsleuth rules\` for rule ids, severities and options`);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail('(top)', 'expected an object like {"rules": {...}}');
  const top = raw as Record<string, unknown>;
  for (const k of Object.keys(top)) if (k !== 'rules' && k !== 'counters' && k !== '$schema') fail(k, 'unknown key (expected "rules" or "counters")');
  const rulesRaw = (top['rules'] ?? {}) as unknown;
  if (rulesRaw === null || typeof rulesRaw !== 'object' || Array.isArray(rulesRaw)) fail('rules', 'expected an object');
  const entries = rulesRaw as Record<string, unknown>;
  const byId = new Map(rules.map((r) => [r.meta.id, r]));
  for (const id of Object.keys(entries)) if (!byId.has(id)) fail(`rules.${id}`, 'unknown rule id');
  const out: Record<string, ResolvedRuleConfig> = {};
  for (const rule of rules) {
    const id = rule.meta.id;
    const defaults: Record<string, OptionValue> = {};
    for (const [name, opt] of Object.entries(rule.meta.options)) defaults[name] = opt.default;
    let enabled = true;
    let severity: Severity | null = null;
    let options: Record<string, unknown> = {};
    const entry = entries[id];
    const readSeverity = (v: unknown, path: string): void => {
      if (v === 'off') enabled = false;
      else if (typeof v === 'string' && (SEVERITIES as readonly string[]).includes(v)) severity = v as Severity;
      else fail(path, `expected one of off, ${SEVERITIES.join(', ')}`);
    };
    if (entry === undefined) {
      // defaults
    } else if (typeof entry === 'string') {
      readSeverity(entry, `rules.${id}`);
    } else if (Array.isArray(entry)) {
      readSeverity(entry[0], `rules.${id}[0]`);
      if (entry.length > 1) {
        if (entry[1] === null || typeof entry[1] !== 'object' || Array.isArray(entry[1])) fail(`rules.${id}[1]`, 'expected an options object');
        options = entry[1] as Record<string, unknown>;
      }
    } else if (typeof entry === 'object' && entry !== null) {
      const o = entry as Record<string, unknown>;
      if (o['severity'] !== undefined) readSeverity(o['severity'], `rules.${id}.severity`);
      if (o['options'] !== undefined) {
        if (o['options'] === null || typeof o['options'] !== 'object' || Array.isArray(o['options'])) fail(`rules.${id}.options`, 'expected an options object');
        options = o['options'] as Record<string, unknown>;
      }
    } else {
      fail(`rules.${id}`, 'expected a severity, [severity, options] or {severity, options}');
    }
    const resolved: Record<string, OptionValue> = { ...defaults };
    for (const [name, value] of Object.entries(options)) {
      const spec = rule.meta.options[name];
      if (!spec) fail(`rules.${id}.${name}`, `unknown option (known: ${Object.keys(rule.meta.options).join(', ') || 'none'})`);
      if (!optionAccepts(spec!, value)) fail(`rules.${id}.${name}`, `expected ${optionDomain(spec!)}, got ${shown(value)}`);
      resolved[name] = value as OptionValue;
    }
    out[id] = Object.freeze({ enabled, severity, options: Object.freeze(resolved) });
  }
  return Object.freeze(out);
}

/** A configured value as the user wrote it, cut short: the error quotes it back. */
function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

export function resolveCounterSpecs(raw: unknown, file: string): UserCounterSpec[] {
  const fail = (path: string, msg: string): never => {
    throw new UsageError(
      `config ${file}: ${path}: ${msg}`,
      'a counter is {"name", "className", "active": "field.path", "limit": "field.path" or a number, "insideFrame": "pkg.Class.method"}',
    );
  };
  const list = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>)['counters'] : undefined;
  if (list === undefined) return [];
  if (!Array.isArray(list)) return fail('counters', 'expected an array');
  return list.map((c: unknown, i): UserCounterSpec => {
    const at = `counters[${i}]`;
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return fail(at, 'expected an object');
    const o = c as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!['name', 'className', 'active', 'limit', 'insideFrame'].includes(k)) fail(`${at}.${k}`, 'unknown key');
    const text = (k: string) =>
      typeof o[k] === 'string' && (o[k] as string).length > 0 ? (o[k] as string) : fail(`${at}.${k}`, 'expected a non-empty string');
    const limit = o['limit'];
    if (typeof limit !== 'number' && (typeof limit !== 'string' || limit.length === 0)) fail(`${at}.limit`, 'expected a field path or a number');
    return { name: text('name'), className: text('className'), active: text('active'), limit: limit as string | number, insideFrame: text('insideFrame') };
  });
}
