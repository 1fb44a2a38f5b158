/** The scorer itself, on made-up findings: it can fail (a false alarm and a miss are counted). */
import { describe, expect, it } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import { scoreCase, totals } from './labels-scoring.js';

const finding = (rule: string, severity: Finding['severity'], subject: string, message = ''): Finding => ({
  id: `${rule}:${subject}`,
  rule,
  severity,
  subject,
  title: '',
  headline: message,
  message,
  facts: {},
  evidence: [],
  causedBy: [],
  remedy: '',
  remedyKind: 'fix',
  impact: 1,
});

describe('labels scoring', () => {
  const c = {
    case: 'x',
    files: [],
    must: [
      { rule: 'deadlock', match: 'a <-> b' },
      { rule: 'new-rule:cpu', match: 'x' },
    ],
    allowed: [{ rule: 'lock-contention', match: 'lockx' }],
  };
  it('counts true, allowed, false alarms and misses; info findings and new-rule musts do not count', () => {
    const s = scoreCase(c, [
      finding('deadlock', 'critical', 'A <-> B'),
      finding('lock-contention', 'warning', 'LockX'),
      finding('stuck-threads', 'warning', 'main'),
      finding('stuck-threads', 'info', 'other'),
    ]);
    expect(s).toMatchObject({ counted: 3, trueFindings: 1, allowedFindings: 1, mustFound: 1, mustTotal: 1, newRuleMusts: 1 });
    expect(s.falseAlarms.map((f) => f.subject)).toEqual(['main']);
    const miss = scoreCase(c, []);
    expect(miss.misses.map((m) => m.match)).toEqual(['a <-> b']);
    expect(totals([s, miss])).toMatchObject({ counted: 3, falseAlarms: 1, mustFound: 1, mustTotal: 2, precision: 2 / 3, recall: 0.5 });
  });
  it('min_findings asks for that many matching findings', () => {
    const two = { ...c, must: [{ rule: 'deadlock', match: 'a <-> b', min_findings: 2 }] };
    expect(scoreCase(two, [finding('deadlock', 'critical', 'A <-> B')]).misses).toHaveLength(1);
    expect(scoreCase(two, [finding('deadlock', 'critical', 'A <-> B'), finding('deadlock', 'critical', 'A <-> B #2')]).misses).toHaveLength(0);
  });
});
