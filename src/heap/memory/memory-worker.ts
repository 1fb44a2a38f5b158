/** Runs the memory analysis of one heap dump file in a worker thread, while the main thread loads the rest of the incident. */
import { parentPort, workerData } from 'node:worker_threads';

import { analysisBuffers } from '../graph/heap-memory.js';
import { analyseMemory, type MemoryAnalysisOptions } from './analyse-memory.js';
import { MemoryDoesNotFit } from './budget.js';

const { file, options, progress } = workerData as { file: string; options: Omit<MemoryAnalysisOptions, 'onProgress'>; progress?: boolean };
try {
  // How far it got goes to the main thread as it comes (a pass reports a hundredth of the file at a time).
  const analysis = await analyseMemory(file, progress === true ? { ...options, onProgress: (e) => parentPort!.postMessage({ progress: e }) } : options);
  // The id table is a function, which cannot cross: the graph arrives without it (a scan finds ids then).
  const { indexOfId: _table, ...graph } = analysis.graph;
  parentPort!.postMessage({ analysis: { ...analysis, graph } }, analysisBuffers(analysis));
} catch (e) {
  // One that would not fit is no failure: the main thread reports it as not computed, and why.
  if (e instanceof MemoryDoesNotFit) parentPort!.postMessage({ doesNotFit: e.message });
  else parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
