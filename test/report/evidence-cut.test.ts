/** What every format says a finding's evidence leaves out. */
import { describe, expect, it } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import { evidenceCutNote } from '../../src/report/evidence-cut.js';

const thread = (i: number) => ({ kind: 'thread' as const, thread: `t-${i}`, index: i, dump: 0, source: 'd.txt', line: i });
const finding = (evidence: number, facts: Record<string, unknown>): Finding =>
  ({
    id: 'x',
    rule: 'thread-leak',
    severity: 'warning',
    subject: 's',
    message: 'm',
    facts,
    evidence: Array.from({ length: evidence }, (_, i) => thread(i)),
    causedBy: [],
    remedy: 'r',
    impact: 1,
  }) as unknown as Finding;

describe('evidenceCutNote', () => {
  it('says how many lines a format cuts, of how many', () => {
    expect(evidenceCutNote(finding(20, {}), 8, '(all in JSON)')).toBe('… 12 more of 20 evidence lines (all in JSON)');
  });
  it('says when the finding counts more threads than its evidence names', () => {
    expect(evidenceCutNote(finding(20, { threads: 156 }), 20, '')).toBe('… the finding counts 156 threads; its evidence names 20 of them');
    expect(evidenceCutNote(finding(20, { threadCount: 1500 }), 8, '(all in JSON)')).toBe(
      '… 12 more of 20 evidence lines (all in JSON); the finding counts 1,500 threads; its evidence names 20 of them',
    );
  });
  it('says nothing when nothing is left out', () => {
    expect(evidenceCutNote(finding(5, { threadCount: 5 }), 5, '')).toBeUndefined();
  });
});
