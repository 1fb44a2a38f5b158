/**
 * Starts the memory analysis of an HPROF file beside other work: in a worker thread when running
 * from the build (the graph pass and the targeted load then use both cores), in this thread under
 * the test runner (which cannot start a worker from TypeScript sources).
 */
import { Worker } from 'node:worker_threads';

import { analyseMemory, type MemoryAnalysis, type MemoryAnalysisOptions } from './heap-memory.js';
import { MemoryDoesNotFit } from './memory-need.js';

export interface RunningMemoryAnalysis {
  readonly done: Promise<MemoryAnalysis>;
  /** Stops the work when its result is no longer wanted (the heap dump failed to load). */
  cancel(): void;
}

/** `onThisThread`: no worker of its own (batch's workers already keep every core busy). */
export function startMemoryAnalysis(file: string, options: Omit<MemoryAnalysisOptions, 'onProgress'>, onThisThread = false): RunningMemoryAnalysis {
  const running = start(file, options, onThisThread);
  // Nobody awaits the result when the heap dump fails to load (its error is the one reported), or
  // when it is cancelled: its failure then must not surface as an unhandled rejection.
  running.done.catch(() => undefined);
  return running;
}

function start(file: string, options: Omit<MemoryAnalysisOptions, 'onProgress'>, onThisThread: boolean): RunningMemoryAnalysis {
  if (onThisThread || import.meta.url.endsWith('.ts')) return { done: analyseMemory(file, options), cancel: () => undefined };
  const worker = new Worker(new URL('./memory-worker.js', import.meta.url), { workerData: { file, options } });
  const done = new Promise<MemoryAnalysis>((resolve, reject) => {
    worker.once('message', (m: { analysis?: MemoryAnalysis; error?: string; doesNotFit?: string }) => {
      void worker.terminate();
      if (m.analysis !== undefined) resolve(m.analysis);
      else if (m.doesNotFit !== undefined) reject(new MemoryDoesNotFit(m.doesNotFit));
      else reject(new Error(m.error ?? 'the memory analysis stopped'));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the memory analysis stopped (exit ${code})`));
    });
  });
  return { done, cancel: () => void worker.terminate() };
}
