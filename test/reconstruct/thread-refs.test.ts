/**
 * Model.threadRefs: rules read names and cite threads through it, so it must be the model's own
 * refs, one per thread of each dump, in thread order (the same objects its pools and groups cite).
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyseIncident, INCIDENTS } from '../helpers.js';

describe('Model.threadRefs', () => {
  test('one ref per thread, in order, shared with the stack groups and pools', async () => {
    // A series of three dumps whose thread counts differ: a ref of the wrong dump would show.
    const { model } = await analyseIncident(join(INCIDENTS, 'thread-leak'));
    expect(model.threadRefs.length).toBe(model.dumps.length);
    model.dumps.forEach((d, dump) => {
      expect(model.threadRefs[dump]!.length).toBe(d.threads.length);
      d.threads.forEach((th, thread) => expect(model.threadRefs[dump]![thread]).toEqual({ dump, thread, name: th.name }));
    });
    for (const g of model.threadGroups) for (const r of g.threads) expect(r).toBe(model.threadRefs[r.dump]![r.thread]);
    for (const e of model.executors) for (const r of [...(e.busyThreads ?? []), ...(e.idleThreads ?? [])]) expect(r).toBe(model.threadRefs[r.dump]![r.thread]);
  });
});
