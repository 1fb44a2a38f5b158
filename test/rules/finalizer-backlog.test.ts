/**
 * finalizer-backlog on a real JVM (fixtures/generate-runtime-incidents.sh): the Finalizer thread
 * BLOCKED in a finalize() on a lock another thread holds, 60,000 objects queued behind it, counted
 * in the heap dump; from the thread dumps alone the blocked thread is still found (the other
 * incidents, whose queues are short: test/incidents/expected-rules.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyseIncident, INCIDENTS } from '../helpers.js';

const DIR = join(INCIDENTS, 'finalizer-backlog');
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as { facts: { queuedAtLeast: number; finalizeMethod: string; lockHolder: string } };
type Found = { rule: string; severity: string; facts: Record<string, unknown> };
const backlog = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'finalizer-backlog') as Found[];

describe('finalizer-backlog', { timeout: 60_000 }, () => {
  test('with the heap: the blocked Finalizer, its lock\'s holder, and the queue\'s length (error)', async () => {
    const [f, ...rest] = backlog((await analyseIncident(DIR)).findings);
    expect(rest).toEqual([]);
    expect(f!.severity).toBe('error');
    expect(f!.facts['finalizeMethod']).toBe(truth.facts.finalizeMethod);
    expect(f!.facts['lockHolder']).toBe(truth.facts.lockHolder);
    expect(f!.facts['queueLength'] as number).toBeGreaterThanOrEqual(truth.facts.queuedAtLeast);
  });

  test('from the thread dumps alone: the blocked Finalizer (warning), the queue unknown', async () => {
    const [f] = backlog((await analyseIncident(DIR, { threadsOnly: true })).findings);
    expect(f!.severity).toBe('warning');
    expect(f!.facts['sameInEveryDump']).toBe(true);
    expect(f!.facts['queueLength']).toBeNull();
  });
});
