/** The test support itself: the memo of the fixture incidents' analyses gives what a fresh analysis gives, read-only. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analyseIncident, analyseIncidentAfresh, INCIDENTS, scratchDir } from './helpers.js';

describe('the memo of fixture incident analyses', { timeout: 120_000 }, () => {
  // One with a heap dump (its memory analysis included) and logs beside the thread dumps.
  const dir = join(INCIDENTS, 'session-cache-leak');

  it('hands out what a fresh analysis gives, whole and threads-only, and they differ', async () => {
    const whole = await analyseIncident(dir);
    const threads = await analyseIncident(dir, { threadsOnly: true });
    expect(whole).toEqual(await analyseIncidentAfresh(dir));
    expect(threads).toEqual(await analyseIncidentAfresh(dir, { threadsOnly: true }));
    // Negative control: the two kinds are kept apart (the heap is only in the whole analysis).
    expect(whole.model.memory.length).toBeGreaterThan(0);
    expect(threads.model.memory).toEqual([]);
  });

  it('analyses once per process: the same objects each time, frozen all the way down', async () => {
    const a = await analyseIncident(dir);
    expect(await analyseIncident(`${dir}/`)).toBe(a);
    expect(Object.isFrozen(a.model.dumps[0]!.threads[0]!.frames)).toBe(true);
    expect(() => {
      (a.findings as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (a.model.notes as string[])[0] = 'changed';
    }).toThrow(TypeError);
  });

  it('leaves a folder outside fixtures/incidents to a fresh analysis each time (a temporary copy can change)', async () => {
    const copy = scratchDir('memo');
    cpSync(join(INCIDENTS, 'tomcat-stuck-requests'), copy, { recursive: true });
    const first = await analyseIncident(copy, { threadsOnly: true });
    const second = await analyseIncident(copy, { threadsOnly: true });
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(Object.isFrozen(first.findings)).toBe(false);
  });
});
