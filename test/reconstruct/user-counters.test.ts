/** Counters declared in the config: read from a real heap (the fixture's HeapObjects$Derived), validated, judged. */
import { describe, expect, it } from 'vitest';

import { openHeapFile } from '../../src/analysis/heap-file.js';
import { analysisPlan } from '../../src/analysis/load-incident.js';
import { defaultConfig, resolveCounterSpecs } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { HeapView } from '../../src/heap/heap-view.js';
import { buildModel } from '../../src/reconstruct/build-model.js';
import { RULES } from '../../src/rules/index.js';

const HEAP = 'fixtures/heap/jdk17/heap.hprof.gz';

describe('user-declared counters', () => {
  it('are read through field paths (shadowed fields by the nearest class) and judged like Dubbo counters', async () => {
    const specs = resolveCounterSpecs(
      { counters: [{ name: 'derived-limiter', className: 'HeapObjects$Derived', active: 'value', limit: 'value', insideFrame: 'HeapObjects$Derived.work' }] },
      'test',
    );
    const model = await modelOfHeap(specs);
    expect(model.counters).toHaveLength(1);
    // Derived.value is 2 (the field Derived declares), not Base.value (1).
    expect(model.counters[0]).toMatchObject({ kind: 'user', name: 'derived-limiter', active: 2, limit: 2, limitSource: 'HeapObjects$Derived.value' });
    const findings = runRules(model, RULES, defaultConfig(RULES));
    // At its limit, with no thread dump to tell a leak from saturation.
    expect(findings.map((f) => [f.rule, f.subject])).toEqual([['limit-saturated', 'derived-limiter']]);
  });

  it('a fixed limit and a long path', async () => {
    const specs = resolveCounterSpecs(
      { counters: [{ name: 'pool-queue', className: 'java.util.concurrent.ThreadPoolExecutor', active: 'workQueue.count', limit: 10, insideFrame: 'x.y' }] },
      'test',
    );
    const model = await modelOfHeap(specs);
    // The fixture's pool holds 3 queued tasks (truth.json: POOL.queueSize).
    expect(model.counters.find((c) => c.name === 'pool-queue')).toMatchObject({ active: 3, limit: 10, limitSource: 'config' });
  });

  it('are validated with a message naming the entry', () => {
    expect(() => resolveCounterSpecs({ counters: [{ name: 'x', className: 'C', active: 'a', limit: 'b' }] }, 'cfg.json')).toThrow(
      /counters\[0\]\.insideFrame: expected a non-empty string/,
    );
    expect(() => resolveCounterSpecs({ counters: [{ name: 'x', className: 'C', active: 'a', limit: 'b', insideFrame: 'f', extra: 1 }] }, 'cfg.json')).toThrow(
      /counters\[0\]\.extra: unknown key/,
    );
    expect(() => resolveCounterSpecs({ counters: {} }, 'cfg.json')).toThrow(/counters: expected an array/);
    expect(resolveCounterSpecs({ rules: {} }, 'cfg.json')).toEqual([]);
  });
});

/** The fixture heap alone, loaded with the plan the counters ask for, built into a model. */
async function modelOfHeap(specs: ReturnType<typeof resolveCounterSpecs>) {
  const view = new HeapView(await openHeapFile(HEAP, analysisPlan(specs)));
  const summary = { path: HEAP, kind: 'heap' as const, format: 'hprof', gzip: true, encoding: 'binary', dumps: 1 };
  return buildModel([], {
    heaps: [{ path: HEAP, view, summary: { ...summary, threads: 0, unparsedLines: 0, outsideLines: 0, warnings: [] } }],
    userCounters: specs,
  });
}
