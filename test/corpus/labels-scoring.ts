/**
 * The rubric of ../shared/corpus/threaddumps/LABELS.md applied to findings: every warning+ finding
 * must match a `must` or an `allowed` entry of its rule, every `must` needs `min_findings` matches.
 * Shared by the labels test and scripts/score-labels.ts (which prints the figures for a closing note).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { UserError } from '../../src/errors.js';
import type { Finding } from '../../src/model/findings.js';
import { analyseFiles, CORPUS } from '../helpers.js';

interface LabelEntry {
  readonly rule: string;
  readonly match: string;
  readonly min_findings?: number;
  readonly why?: string;
}

export interface LabelCase {
  readonly case: string;
  readonly files: string[];
  readonly must: LabelEntry[];
  readonly allowed: LabelEntry[];
  readonly notes?: string;
}

export interface CaseScore {
  readonly case: string;
  readonly counted: number;
  readonly trueFindings: number;
  readonly allowedFindings: number;
  readonly falseAlarms: Array<{ rule: string; subject: string; message: string }>;
  readonly mustFound: number;
  readonly mustTotal: number;
  readonly misses: LabelEntry[];
  /** `new-rule:` entries are for later rules: listed, never scored. */
  readonly newRuleMusts: number;
}

const COUNTED = new Set(['warning', 'error', 'critical']);

function matches(entry: LabelEntry, f: Finding): boolean {
  if (entry.rule !== f.rule) return false;
  const re = new RegExp(entry.match);
  return re.test(f.subject.toLowerCase()) || re.test(f.message.toLowerCase()) || re.test(`${f.subject}\n${f.message}`.toLowerCase());
}

export function scoreCase(c: LabelCase, findings: readonly Finding[]): CaseScore {
  const counted = findings.filter((f) => COUNTED.has(f.severity));
  const musts = c.must.filter((m) => !m.rule.startsWith('new-rule:'));
  let trueFindings = 0;
  let allowedFindings = 0;
  const falseAlarms: CaseScore['falseAlarms'] = [];
  for (const f of counted) {
    if (musts.some((m) => matches(m, f))) trueFindings++;
    else if (c.allowed.some((a) => matches(a, f))) allowedFindings++;
    else falseAlarms.push({ rule: f.rule, subject: f.subject, message: f.message });
  }
  const misses = musts.filter((m) => counted.filter((f) => matches(m, f)).length < (m.min_findings ?? 1));
  return {
    case: c.case,
    counted: counted.length,
    trueFindings,
    allowedFindings,
    falseAlarms,
    mustFound: musts.length - misses.length,
    mustTotal: musts.length,
    misses,
    newRuleMusts: c.must.length - musts.length,
  };
}

export interface Totals {
  readonly cases: number;
  readonly counted: number;
  readonly trueFindings: number;
  readonly allowedFindings: number;
  readonly falseAlarms: number;
  readonly mustFound: number;
  readonly mustTotal: number;
  readonly precision: number;
  readonly recall: number;
}

export function totals(scores: readonly CaseScore[]): Totals {
  const sum = (k: (s: CaseScore) => number) => scores.reduce((n, s) => n + k(s), 0);
  const counted = sum((s) => s.counted);
  const good = sum((s) => s.trueFindings + s.allowedFindings);
  const mustTotal = sum((s) => s.mustTotal);
  const mustFound = sum((s) => s.mustFound);
  return {
    cases: scores.length,
    counted,
    trueFindings: sum((s) => s.trueFindings),
    allowedFindings: sum((s) => s.allowedFindings),
    falseAlarms: sum((s) => s.falseAlarms.length),
    mustFound,
    mustTotal,
    precision: counted === 0 ? 1 : good / counted,
    recall: mustTotal === 0 ? 1 : mustFound / mustTotal,
  };
}

/** A case's files analysed together, as `analyze` would (logs too); a refused input gives no findings (the labels score that too). */
export async function findingsOfCase(c: LabelCase, root: string = CORPUS): Promise<Finding[]> {
  try {
    return (await analyseFiles(c.files.map((f) => join(root, f)))).findings;
  } catch (e) {
    // Only a refusal with a reason for the user counts as "no findings"; a crash must fail the labels.
    if (e instanceof UserError) return [];
    throw e;
  }
}

/** The blind corpus of this repository: its labels, in every LABELS*.json of fixtures/blind (one per collector). */
export const BLIND = join(import.meta.dirname, '..', '..', 'fixtures', 'blind');

/** Every blind case, or those of some collectors' sets (`['D', 'E']`: LABELS-D.json, LABELS-E.json). */
export function blindCases(sets?: readonly string[]): LabelCase[] {
  return readdirSync(BLIND)
    .filter((f) => /^LABELS.*\.json$/.test(f))
    .filter((f) => sets === undefined || sets.some((x) => f === `LABELS-${x}.json`))
    .sort()
    .flatMap((f) => JSON.parse(readFileSync(join(BLIND, f), 'utf8')) as LabelCase[]);
}
