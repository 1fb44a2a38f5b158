/**
 * The senior engineer's labels of the corpus (../shared/corpus/threaddumps/LABELS.json, rubric in
 * LABELS.md): every `must` found, no false alarm. Prints precision and recall. Skipped, with a
 * message, when the corpus is not next to the checkout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, test } from 'vitest';

import { CORPUS } from '../helpers.js';
import { type CaseScore, findingsOfCase, type LabelCase, scoreCase, totals } from './labels-scoring.js';

const LABELS = join(CORPUS, 'LABELS.json');
const available = existsSync(LABELS);

if (!available) {
  test.skip(`labels tests SKIPPED: ${LABELS} does not exist next to this checkout`, () => {});
}

describe.runIf(available)('corpus labels (LABELS.md rubric)', () => {
  const cases = available ? (JSON.parse(readFileSync(LABELS, 'utf8')) as LabelCase[]) : [];
  const scores: CaseScore[] = [];
  afterAll(() => {
    const t = totals(scores);
    console.log(
      `labels: ${t.cases} cases, ${t.counted} warning+ findings, ${t.trueFindings} true, ${t.allowedFindings} allowed, ${t.falseAlarms} false alarms; ` +
        `precision ${(t.precision * 100).toFixed(1)} %, recall ${t.mustFound}/${t.mustTotal} (${(t.recall * 100).toFixed(1)} %)`,
    );
  });
  test.each(cases.map((c) => [c.case, c] as const))('%s', async (_name, c) => {
    const s = scoreCase(c, await findingsOfCase(c));
    scores.push(s);
    expect(s.falseAlarms, 'false alarms').toEqual([]);
    expect(
      s.misses.map((m) => `${m.rule} /${m.match}/`),
      'musts not found',
    ).toEqual([]);
  });
});
