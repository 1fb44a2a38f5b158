/**
 * Starts the memory analysis of a heap dump file beside other work: in a worker thread when running
 * from the build (the graph pass and the targeted load then use both cores), in this thread under
 * the test runner (which cannot start a worker from TypeScript sources).
 */
import { Worker } from 'node:worker_threads';

import type { ProgressEvent, ProgressListener } from '../../model/progress.js';
import type { MemoryAnalysis } from '../graph/heap-memory.js';
import { analyseMemory, type MemoryAnalysisOptions } from './analyse-memory.js';
import { MemoryDoesNotFit } from './budget.js';

export interface RunningMemoryAnalysis {
  readonly done: Promise<MemoryAnalysis>;
  /** Stops the work when its result is no longer wanted (the heap dump failed to load). */
  cancel(): void;
}

/**
 * `onThisThread`: no worker of its own (batch's workers already keep every core busy). `onProgress`
 * hears how far it got, from the worker too, as `memory` reads the file (and its phases after).
 */
export function startMemoryAnalysis(
  file: string,
  options: Omit<MemoryAnalysisOptions, 'onProgress'>,
  onThisThread = false,
  onProgress?: ProgressListener,
): RunningMemoryAnalysis {
  const running = start(file, options, onThisThread, onProgress);
  // Nobody awaits the result when the heap dump fails to load (its error is the one reported), or
  // when it is cancelled: its failure then must not surface as an unhandled rejection.
  running.done.catch(() => undefined);
  return running;
}

function start(file: string, options: Omit<MemoryAnalysisOptions, 'onProgress'>, onThisThread: boolean, onProgress?: ProgressListener): RunningMemoryAnalysis {
  if (onThisThread || import.meta.url.endsWith('.ts'))
    return { done: analyseMemory(file, { ...options, ...(onProgress !== undefined ? { onProgress } : {}) }), cancel: () => undefined };
  const worker = new Worker(new URL('./memory-worker.js', import.meta.url), { workerData: { file, options, progress: onProgress !== undefined } });
  const done = new Promise<MemoryAnalysis>((resolve, reject) => {
    const onMessage = (m: { analysis?: MemoryAnalysis; error?: string; doesNotFit?: string; progress?: ProgressEvent }) => {
      if (m.progress !== undefined) return onProgress?.(m.progress);
      worker.off('message', onMessage);
      void worker.terminate();
      if (m.analysis !== undefined) resolve(m.analysis);
      else if (m.doesNotFit !== undefined) reject(new MemoryDoesNotFit(m.doesNotFit));
      else reject(new Error(m.error ?? 'the memory analysis stopped'));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the memory analysis stopped (exit ${code})`));
    });
  });
  return { done, cancel: () => void worker.terminate() };
}
