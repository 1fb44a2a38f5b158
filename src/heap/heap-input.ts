/** One heap dump as an analysis holds it: its objects, the threads it recorded, and what holds its memory. */
import type { HeapMemoryModel } from '../model/memory.js';
import type { ThreadDumpFile } from '../model/thread-dump.js';
import type { MemoryAnalysis } from './graph/heap-memory.js';
import type { HeapView } from './heap-view.js';

export interface HeapInput {
  readonly path: string;
  readonly view: HeapView;
  /** The threads the heap dump recorded, as a thread dump (used when no thread dump is given). */
  readonly stacks?: ThreadDumpFile;
  /** What holds its memory: the summary, and the graph it came from when it was computed in this run. */
  readonly memory?: HeapMemory;
}

export interface HeapMemory {
  readonly model: HeapMemoryModel;
  readonly analysis?: MemoryAnalysis;
}
