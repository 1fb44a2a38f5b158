/**
 * Issue 46: `memory` named a thread `java.lang.Thread 0x…` where `analyze` names it `"main"`. On a real
 * heap whose biggest retainer and leak suspect is the main thread, memory's text and JSON name it as
 * analyze's report does, by the same object; objects that are no thread get no name (the control).
 */
import { describe, expect, test } from 'vitest';

import { analyseIncident, INCIDENTS, runCli } from '../helpers.js';

const INCIDENT = `${INCIDENTS}/draining-pool`;
const HEAP = `${INCIDENT}/heap.hprof.gz`;

describe('memory names a thread as analyze does', { timeout: 60_000 }, () => {
  test('text and JSON: the thread object by its name', async () => {
    // What analyze calls it: the thread among its memory's dominators, by id.
    const { model } = await analyseIncident(INCIDENT);
    const threads = model.memory.flatMap((m) => m.summary?.dominators ?? []).filter((o) => o.threadName !== undefined);
    expect(threads.length).toBeGreaterThan(0);
    const { id, threadName } = threads[0]!;

    const text = await runCli(['memory', HEAP]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`java.lang.Thread "${threadName}" ${id}`);
    expect(text.stdout).not.toMatch(new RegExp(`java\\.lang\\.Thread ${id}`));

    const doc = JSON.parse((await runCli(['memory', '-f', 'json', HEAP])).stdout);
    const dominator = doc.dominators.find((o: { id: string }) => o.id === id);
    expect(dominator.thread).toBe(threadName);
    // Control: what is no thread has no thread name.
    const others = doc.dominators.filter((o: { class: string }) => !/Thread$/.test(o.class));
    expect(others.length).toBeGreaterThan(0);
    for (const o of others) expect(o.thread, o.class).toBeUndefined();
  });
});
