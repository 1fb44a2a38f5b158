/** The /proc readings as a `top -H` frame: read back by the same reader as top's own output, with the right shares. */
import { describe, expect, it } from 'vitest';

import { asTopFrame, procAvailable, readThreadCpu } from '../../src/capture/proc-cpu.js';
import { TopThreadsCollector } from '../../src/logs/top-threads.js';

describe('per-thread CPU from /proc', () => {
  it('writes a top -H frame the top reader takes, %CPU over the time between readings', () => {
    const at = new Date('2026-12-01T10:00:00Z');
    const before = {
      at,
      threads: new Map<number, readonly [string, number]>([
        [101, ['hot thread', 1000]],
        [102, ['idle', 50]],
      ]),
    };
    // Two seconds later at 100 ticks a second: the hot thread used 1.9 s, the idle one nothing.
    const now = {
      at: new Date(at.getTime() + 2000),
      threads: new Map<number, readonly [string, number]>([
        [101, ['hot thread', 1190]],
        [102, ['idle', 50]],
        [103, ['new one', 10]],
      ]),
    };
    const text = asTopFrame(42, before, now, 100);
    const c = new TopThreadsCollector('cpu-1.txt');
    text.split('\n').forEach((l, i) => c.push(l, i + 1));
    const [sample] = c.finish();
    const byPid = new Map(sample!.threads.map((t) => [t.pid, t]));
    expect(byPid.get(101)).toMatchObject({ nativeId: '0x65', cpuPercent: 95, command: 'hot thread', cpuSeconds: 11.9 });
    expect(byPid.get(102)?.cpuPercent).toBe(0);
    // A thread born between the readings used all its CPU between them.
    expect(byPid.get(103)?.cpuPercent).toBe(5);
  });

  it.skipIf(!procAvailable(process.pid))('reads this process’s own threads', () => {
    const r = readThreadCpu(process.pid);
    expect(r.threads.get(process.pid)?.[0]).toBeTruthy();
  });
});
