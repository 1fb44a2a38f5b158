/**
 * The summary's tree and its first step, on hand-built findings: roots in the findings' order, each
 * finding placed once under its first cause (its other causes named beside it), a cycle broken where
 * first met, and the first step taken from the first finding of the top chain that says what to
 * change, the root's when none does.
 */
import { describe, expect, test } from 'vitest';

import type { Finding, RemedyKind } from '../../src/model/findings.js';
import { causalSummary, type CauseNode, walkCauses } from '../../src/report/causal-summary.js';

function finding(id: string, causedBy: string[] = [], remedyKind: RemedyKind = 'fix', remedy = `Change ${id}. Then check.`): Finding {
  return {
    id,
    rule: id.split(':')[0]!,
    severity: 'warning',
    subject: id,
    title: id,
    headline: id,
    message: id,
    facts: {},
    evidence: [],
    causedBy,
    remedy,
    remedyKind,
    impact: 1,
  };
}

/** The tree as lines of ids, two spaces a level, `(+x)` for a finding's other causes. */
const shape = (nodes: readonly CauseNode[]) =>
  [...walkCauses(nodes)].map(({ node, depth }) => `${'  '.repeat(depth)}${node.finding.id}${node.alsoCausedBy.map((c) => ` (+${c.id})`).join('')}`);

describe('the causal summary', () => {
  test('roots in order, effects nested under their first cause, each finding once', () => {
    const s = causalSummary([
      finding('pool:a'),
      finding('queue:b', ['pool:a']),
      finding('stuck:c', ['queue:b', 'lock:d']),
      finding('lock:d'),
      finding('lone:e'),
    ]);
    expect(shape(s.causes)).toEqual(['pool:a', '  queue:b', '    stuck:c (+lock:d)', 'lock:d', 'lone:e']);
    expect(s.first).toEqual({ finding: expect.objectContaining({ id: 'pool:a' }), step: 'Change pool:a.' });
  });

  test('a cycle of causes is broken where it is first met', () => {
    const s = causalSummary([finding('x:1', ['x:2']), finding('x:2', ['x:1'])]);
    expect(shape(s.causes)).toEqual(['x:1', '  x:2']);
  });

  test('a root that only says how to find the cause gives the first step to the first finding beneath it that says what to change', () => {
    const s = causalSummary([
      finding('stuck-threads:writer', [], 'search'),
      finding('lock-contention:appender', ['stuck-threads:writer'], 'search'),
      finding('logging-contention:appender', ['lock-contention:appender']),
      finding('connection-pool-starvation:other'),
    ]);
    expect(s.first?.finding.id).toBe('logging-contention:appender');
    expect(s.first?.step).toBe('Change logging-contention:appender.');
  });

  test('negative control: with no fix in the top chain, the root remedy stands; a fix under another root is not taken', () => {
    const s = causalSummary([
      finding('stuck-threads:writer', [], 'search'),
      finding('lock-contention:appender', ['stuck-threads:writer'], 'search'),
      finding('connection-pool-starvation:other'),
    ]);
    expect(s.first?.finding.id).toBe('stuck-threads:writer');
  });

  test('no findings, no first step; a root with no remedy gives none', () => {
    expect(causalSummary([])).toEqual({ causes: [], first: undefined });
    expect(causalSummary([finding('x:1', [], 'fix', '')]).first).toBeUndefined();
  });
});
