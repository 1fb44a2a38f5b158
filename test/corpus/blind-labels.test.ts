/**
 * The blind corpus of this repository (fixtures/blind): real third-party dumps labelled by helpers
 * who never ran dumpsleuth on them, the labels committed before the first scoring (README.md there).
 * Scored with the rubric of the shared corpus; prints precision and recall. The floors are the
 * scores measured when the ideas of issue 47 landed on all five sets (the first contact of the two
 * newest is in docs/blind-corpus.md): a change that lowers them fails here, on dumps it was not tuned
 * to. What each case still gets wrong is printed, with the reason in the labels.
 */
import { describe, expect, test } from 'vitest';

import { BLIND, blindCases, type CaseScore, findingsOfCase, scoreCase, totals } from './labels-scoring.js';

/** Precision of warning+ findings and recall of `must` entries, as last measured (docs/blind-corpus.md). */
const FLOOR = { precision: 0.93, recall: 0.89 };

describe('the blind corpus (fixtures/blind)', () => {
  test('every case is analysed without a crash, and the scores stay at or above their floors', { timeout: 600_000 }, async () => {
    const cases = blindCases();
    expect(cases.length).toBeGreaterThanOrEqual(55);
    const scores: CaseScore[] = [];
    for (const c of cases) scores.push(scoreCase(c, await findingsOfCase(c, BLIND)));
    const t = totals(scores);
    const wrong = scores.flatMap((s) => [
      ...s.falseAlarms.map((f) => `${s.case}: FALSE ${f.rule} | ${f.subject}`),
      ...s.misses.map((m) => `${s.case}: MISS ${m.rule} /${m.match}/`),
    ]);
    console.log(
      `blind corpus: ${t.cases} cases, ${t.counted} warning+ findings, ${t.trueFindings} true, ${t.allowedFindings} allowed, ` +
        `${t.falseAlarms} false alarms; precision ${(t.precision * 100).toFixed(1)} %, ` +
        `recall ${t.mustFound}/${t.mustTotal} (${(t.recall * 100).toFixed(1)} %)` +
        (wrong.length > 0 ? `\n  ${wrong.join('\n  ')}` : ''),
    );
    expect(t.precision, wrong.join('\n')).toBeGreaterThanOrEqual(FLOOR.precision);
    expect(t.recall, wrong.join('\n')).toBeGreaterThanOrEqual(FLOOR.recall);
  });
});
