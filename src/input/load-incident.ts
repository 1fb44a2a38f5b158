/**
 * Loads the files of one analysis by what each holds: heap dumps (HPROF, extracts) into heap views,
 * thread dumps into ThreadDumpFiles, and logs into the known events they carry. A file that is none
 * of these is an error (or, inside a directory, a note).
 */
import { InputError } from '../errors.js';
import { HeapView } from '../heap/heap-view.js';
import { threadDumpFromHeap } from '../heap/heap-threads.js';
import type { LoadPlan } from '../heap/hprof/hprof-loader.js';
import { detectHeapKind, openHeap } from '../heap/open-heap.js';
import { KnownLineCollector } from '../logs/known-lines.js';
import type { InputSummary, LogEventModel } from '../model/model.js';
import type { HeapInput } from '../model/reconstruct/concurrency.js';
import { forEachLine, openInput, TruncatedInputError, type ProgressListener } from './open.js';
import { loadThreadInput, type LoadedThreadInput } from './load.js';

export type LoadedInput =
  | { readonly kind: 'threads'; readonly input: LoadedThreadInput }
  | { readonly kind: 'heap'; readonly heap: HeapInput & { readonly summary: InputSummary } }
  | { readonly kind: 'log'; readonly log: { readonly summary: InputSummary; readonly events: LogEventModel[] } };

export async function loadAnyInput(path: string, plan: LoadPlan, onProgress?: ProgressListener): Promise<LoadedInput> {
  const heapKind = path === '-' ? undefined : await detectHeapKind(path);
  if (heapKind === 'v8-heapsnapshot') {
    throw new InputError(`${path} is a V8 .heapsnapshot (Node.js/Chrome): it has no Java objects to analyse`, 'use `dumpsleuth histogram` for it');
  }
  if (heapKind !== undefined) {
    const store = await openHeap(path, plan, onProgress);
    const view = new HeapView(store);
    const stacks = threadDumpFromHeap(view, store, path);
    const summary: InputSummary = {
      path,
      kind: 'heap',
      format: store.source.format,
      gzip: store.source.gzip,
      encoding: 'binary',
      dumps: 1,
      // The live threads the dump recorded; without their traces, every Thread object in it.
      threads: stacks?.dumps[0]!.threads.length ?? view.instancesOf('java.lang.Thread').length,
      unparsedLines: 0,
      outsideLines: 0,
      warnings: [...store.warnings],
      ...(store.histogram !== undefined
        ? { heap: { objects: store.histogram.totalInstances, shallowBytes: store.histogram.totalBytes, classes: store.histogram.rows.length } }
        : {}),
    };
    return { kind: 'heap', heap: { path, view, summary, ...(stacks !== undefined ? { stacks } : {}) } };
  }
  try {
    return { kind: 'threads', input: await loadThreadInput(path, onProgress, plan.maxGunzipBytes) };
  } catch (e) {
    if (!(e instanceof InputError) || path === '-') throw e;
    const log = await readKnownLogLines(path, plan.maxGunzipBytes);
    if (log === undefined) throw e;
    return { kind: 'log', log };
  }
}

/** A log file's known lines; undefined when it has none (then it is not a log dumpsleuth can use). */
async function readKnownLogLines(path: string, maxGunzipBytes: number | undefined): Promise<{ summary: InputSummary; events: LogEventModel[] } | undefined> {
  const opened = await openInput(path, undefined, maxGunzipBytes);
  const collector = new KnownLineCollector(path);
  let lineNo = 0;
  const warnings: string[] = [];
  try {
    await forEachLine(opened.text(), (line) => collector.push(line, ++lineNo));
  } catch (e) {
    if (!(e instanceof TruncatedInputError)) throw e;
    warnings.push(e.message);
  }
  if (collector.matched === 0) return undefined;
  return {
    summary: { path, kind: 'log', format: 'log', gzip: opened.gzip, encoding: opened.encoding, dumps: 0, threads: 0, unparsedLines: 0, outsideLines: lineNo - collector.matched, warnings },
    events: collector.events(),
  };
}
