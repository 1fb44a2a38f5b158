/** Executors found only in the heap are named as their threads would be: by their thread factory, not by address. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analyseIncident, INCIDENTS } from '../helpers.js';

const heapOnly = async (incident: string) =>
  (await analyseIncident(join(INCIDENTS, incident))).model.executors.filter((e) => e.source === 'heap').map((e) => e.name);

describe('heap executor names', { timeout: 120_000 }, () => {
  it("HikariCP's executors by the name its thread factory keeps (threadName)", async () => {
    // HikariPool.java names them `poolName + " connection adder"` and `" connection closer"`.
    expect(await heapOnly('hikari-starvation')).toEqual(expect.arrayContaining(['HikariPool-1 connection adder', 'HikariPool-1 connection closer']));
  });

  it("OkHttp's connection pool by the name its lambda factory captured (Util.threadFactory(name, daemon))", async () => {
    expect(await heapOnly('okhttp-dispatcher-queue')).toContain('OkHttp ConnectionPool');
  });

  it('no executor of any fixture incident is named by its address', async () => {
    const withHeaps = readdirSync(INCIDENTS).filter((d) => existsSync(join(INCIDENTS, d, 'heap.hprof.gz')));
    expect(withHeaps.length).toBeGreaterThan(5);
    for (const d of withHeaps) for (const name of await heapOnly(d)) expect(name, d).not.toMatch(/@0x[0-9a-f]+$/);
  });
});
