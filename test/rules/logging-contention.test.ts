/**
 * logging-contention on a real JVM running Debian's logback 1.2 (fixtures/generate-runtime-incidents.sh):
 * request threads waiting for an appender's lock whose holder is stuck writing to a log collector
 * that stopped reading, and reporters parked on an AsyncAppender's full queue behind a worker stuck
 * the same way; two threads that log to a fast appender are the control. Producers parked on a
 * full queue count as working (held by back-pressure), not as a queue's idle consumers. The heap
 * dump taken after the thread dumps gives the queue's fill.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyseIncident, INCIDENTS } from '../helpers.js';

const DIR = join(INCIDENTS, 'logging-contention');
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as { facts: { syncAppender: string; syncThreads: number; syncPrefix: string; asyncAppender: string; asyncThreads: number; asyncQueueCapacity: number; asyncAppenderName: string; asyncPrefix: string; control: string } };
type Found = { rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown>; causedBy: string[] };
const logFindings = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'logging-contention') as Found[];

describe('logging-contention', { timeout: 60_000 }, () => {
  test('the appender lock\'s waiters and its holder\'s socket write; the full async queue\'s producers and its worker', async () => {
    const { findings, model } = await analyseIncident(DIR);
    const found = logFindings(findings);
    const sync = found.find((f) => f.facts['appenderFrame'] === truth.facts.syncAppender)!;
    // One of the request threads holds the lock; the others wait for it.
    expect(sync.facts['waiterCount']).toBe(truth.facts.syncThreads - 1);
    expect((sync.facts['waiters'] as string[]).every((w) => w.startsWith(truth.facts.syncPrefix))).toBe(true);
    expect(sync.facts['holders']).toEqual([expect.stringMatching(new RegExp(`^${truth.facts.syncPrefix}`))]);
    expect(sync.facts['holderDoing']).toEqual([expect.stringMatching(/^writing to a socket/)]);
    expect(sync.causedBy).toEqual([expect.stringMatching(/^lock-contention:/)]);
    const queue = found.find((f) => f.facts['appenderFrame'] === `${truth.facts.asyncAppender}.put`)!;
    expect(queue.facts['asyncQueueFull']).toBe(true);
    expect(queue.facts['waiterCount']).toBe(truth.facts.asyncThreads);
    expect(queue.facts['holderDoing']).toEqual([expect.stringMatching(/^writing to a socket/)]);
    // The heap dump taken with the thread dumps says how full the queue is: full.
    expect(queue.facts['queues']).toEqual([`${truth.facts.asyncAppenderName}: ${truth.facts.asyncQueueCapacity}/${truth.facts.asyncQueueCapacity}`]);
    expect(found).toHaveLength(2);
    expect(JSON.stringify(found)).not.toContain(`"${truth.facts.control}`);
    // The producers on the full queue are held (working), not consumers waiting for work.
    const last = model.dumps.length - 1;
    const producer = model.dumps[last]!.threads.findIndex((t) => t.name.startsWith(truth.facts.asyncPrefix));
    expect(model.activity[last]![producer]).toMatchObject({ activity: 'working', reason: expect.stringMatching(/room in a full ArrayBlockingQueue/) });
  });

  test('from the thread dumps alone: the same two findings, without the queue\'s fill', async () => {
    const found = logFindings((await analyseIncident(DIR, { threadsOnly: true })).findings);
    expect(found).toHaveLength(2);
    expect(found.find((f) => f.facts['asyncQueueFull'] === true)!.facts['queues']).toEqual([]);
  });
});
