/** The executor reconstructor on the heap fixture's real ThreadPoolExecutor (2 of max 4 workers stuck, 3 tasks queued of 10). */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { openHeapFile } from '../../src/analysis/heap-file.js';
import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { HeapView } from '../../src/heap/heap-view.js';
import { heapExecutors } from '../../src/reconstruct/heap-executors.js';

for (const jdk of ['jdk17', 'jdk25']) {
  describe(`heap executors (${jdk})`, () => {
    it('reads state, workers, busy count and queue of the fixture pool as the JVM saw them', async () => {
      const truth = JSON.parse(readFileSync(`fixtures/heap/${jdk}/truth.json`, 'utf8')).statics.POOL;
      const view = new HeapView(await openHeapFile(`fixtures/heap/${jdk}/heap.hprof.gz`, ANALYSIS_PLAN));
      const pools = heapExecutors(view, 'heap');
      const pool = pools.find((p) => p.state.workerThreadNames.some((n) => n.startsWith('fixture-pool-')));
      expect(pool).toBeDefined();
      const s = pool!.state;
      expect(s.runState).toBe(truth.internals.runState);
      expect(s.corePoolSize).toBe(truth.corePoolSize);
      expect(s.maximumPoolSize).toBe(truth.maximumPoolSize);
      expect(s.poolSize).toBe(truth.poolSize);
      expect(s.activeWorkers).toBe(truth.activeCount);
      expect(s.workerThreadNames).toEqual([...truth.workerThreads].sort());
      expect(s.queue).toMatchObject({ className: truth.queueClass, size: truth.queueSize, capacity: truth.queueCapacity, complete: true });
    });
  });
}
