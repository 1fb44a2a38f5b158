/**
 * Loads the files of one analysis by what each holds: heap dumps (HPROF, extracts) into heap views,
 * thread dumps into ThreadDumpFiles, and logs into the known events they carry. A file that is none
 * of these is an error (or, inside a directory, a note).
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';

import { InputError, UserError } from '../errors.js';
import { ANALYSIS_PLAN } from '../heap/analysis-plan.js';
import type { HeapInput } from '../heap/heap-input.js';
import { threadDumpFromHeap } from '../heap/heap-threads.js';
import { HeapView } from '../heap/heap-view.js';
import { finishHeapMemory, withThreadNames } from '../heap/memory/finish.js';
import { withLoaderNames } from '../heap/memory/name-loaders.js';
import { cancelHeapMemory, type HeapMemoryWork, loadCarrying, type MemoryPlan, startHeapMemory } from '../heap/memory/plan.js';
import { heapStoreNamed, type LoadPlan } from '../heap/open-heap.js';
import type { InputPath } from '../input/collect-inputs.js';
import { type IdentifiedInput, identifyInput } from '../input/identify.js';
import { readInputFile } from '../input/stdin.js';
import type { LoadedLog } from '../logs/log-reader.js';
import type { InputSummary } from '../model/model.js';
import type { ProgressEvent, ProgressListener } from '../model/progress.js';
import { withoutFileName } from '../model/read-failure.js';
import { userCounterRoots, type UserCounterSpec } from '../reconstruct/user-counters.js';
import { CAPTURE_MANIFEST, captureManifestNotes } from './capture-manifest.js';
import { openHeapFile, v8NotJavaError } from './heap-file.js';
import { loadThreadsOrLog } from './load-log.js';
import { type LoadedThreadInput, refusedError } from './load-threads.js';
import { filesOfSeveralJvms } from './one-jvm.js';

/** File names an error line shows per group (and groups per line); the rest are counted. */
const NAMES_SHOWN = 5;

/** The heap-loading plan of an analysis, and whether to compute the dominator tree of its heap dumps. */
export interface IncidentPlan extends LoadPlan, MemoryPlan {}

export type LoadedInput =
  | { readonly kind: 'threads'; readonly input: LoadedThreadInput }
  | { readonly kind: 'heap'; readonly heap: HeapInput & { readonly summary: InputSummary } }
  | { readonly kind: 'log'; readonly log: LoadedLog };

/** What the caller found out about a file before loading it: what it is, and its memory analysis when started. */
export interface LoadAhead {
  readonly identified: IdentifiedInput;
  readonly memory?: HeapMemoryWork;
}

export async function loadAnyInput(
  path: string,
  plan: IncidentPlan,
  onProgress?: ProgressListener,
  ahead?: LoadAhead,
  inIncidentDirectory = false,
): Promise<LoadedInput> {
  // Stdin may hold a heap dump, which needs random access: it is read from a copy, named `-`.
  return (await readInputFile(path, (file) => loadFile(path, file, plan, onProgress, ahead, inIncidentDirectory))).value;
}

/** Loads `file`, naming it `name` in what it reports (they differ only for stdin's copy). */
async function loadFile(
  name: string,
  file: string,
  plan: IncidentPlan,
  onProgress: ProgressListener | undefined,
  ahead: LoadAhead | undefined,
  inIncidentDirectory: boolean,
): Promise<LoadedInput> {
  const identified = ahead?.identified ?? (await identifyInput(name, file, plan.maxGunzipBytes !== undefined ? { maxGunzipBytes: plan.maxGunzipBytes } : {}));
  const format = identified.format;
  if (format === undefined) throw refusedError(identified);
  if (format.role === 'heap') {
    if (!format.java) throw v8NotJavaError(name);
    const memoryWork = ahead?.memory ?? startHeapMemory(identified, name, plan, onProgress);
    // A memory analysis on this thread (a small heap's, or any in batch) rides on the load.
    const store = await loadCarrying(
      memoryWork,
      async (hooks) => heapStoreNamed(await openHeapFile(file, plan, onProgress, hooks, identified), file, name),
      () => onProgress?.({ phase: 'memory', bytesRead: 0 }),
    );
    onProgress?.({ phase: 'memory', bytesRead: 0 });
    const finished =
      memoryWork !== undefined
        ? await finishHeapMemory(memoryWork, name)
        : store.memory !== undefined
          ? { model: { input: name, summary: store.memory } }
          : undefined;
    const view = new HeapView(store);
    const memory = finished !== undefined ? { ...finished, model: withLoaderNames(withThreadNames(finished.model, view), view) } : undefined;
    const stacks = threadDumpFromHeap(view, store, name);
    const summary: InputSummary = {
      path: name,
      kind: 'heap',
      format: store.source.format,
      gzip: store.source.gzip,
      encoding: 'binary',
      dumps: 1,
      // The live threads the dump recorded; without their traces, every Thread object in it.
      threads: stacks?.dumps[0]!.threads.length ?? view.instancesOf('java.lang.Thread').length,
      unparsedLines: 0,
      outsideLines: 0,
      // What only the histogram's count or the memory analysis's pass sees (instances of classes the
      // dump never describes, objects that repeat an id) is said beside what the load saw, each once.
      warnings: [...new Set([...store.warnings, ...(store.histogram?.warnings ?? []), ...(finished?.analysis?.graph.warnings ?? [])])],
      ...(store.cut !== undefined ? { cut: store.cut } : {}),
      ...(store.histogram !== undefined
        ? { heap: { objects: store.histogram.totalInstances, shallowBytes: store.histogram.totalBytes, classes: store.histogram.rows.length } }
        : {}),
    };
    return { kind: 'heap', heap: { path: name, view, summary, ...(stacks !== undefined ? { stacks } : {}), ...(memory !== undefined ? { memory } : {}) } };
  }
  return loadThreadsOrLog({ ...identified, format }, onProgress, plan.maxGunzipBytes, inIncidentDirectory);
}

/** The files of one analysis, loaded and sorted by kind. */
export interface IncidentInputs {
  readonly threads: LoadedThreadInput[];
  readonly heaps: Array<Extract<LoadedInput, { kind: 'heap' }>['heap']>;
  readonly logs: Array<Extract<LoadedInput, { kind: 'log' }>['log']>;
  /** What the directory's capture manifest says failed (capture.json), for the report's notes. */
  readonly notes: string[];
}

/** No dump, and no log with anything known in it: nothing an analysis could say anything about. */
export function nothingToAnalyse(inputs: IncidentInputs): boolean {
  return inputs.threads.length === 0 && inputs.heaps.length === 0 && inputs.logs.every((l) => (l.summary.found ?? []).length === 0);
}

/** `skipped dir/README.md: it is text with no thread dump in it (...)`: the note for a file a directory held that is not an input. */
export function skippedNote(path: string, e: UserError): string {
  return `skipped ${path}: ${skippedWhy(path, e)}`;
}

/** Why a file was not read, without its name in front (`it is a PNG image`). */
export function skippedWhy(path: string, e: UserError): string {
  return withoutFileName(path, e.message);
}

export interface IncidentLoadHooks {
  readonly onProgress?: (path: string, event: ProgressEvent) => void;
  /** A file found inside a directory that is none of the known kinds: skipped. */
  readonly onSkipped?: (path: string, error: InputError) => void;
  /** A file given by name that could not be read; without this hook the error is thrown. */
  readonly onFailed?: (path: string, error: UserError) => void;
  /** Checked before each file: an aborted load stops there (and cancels the memory work it started). */
  readonly signal?: AbortSignal;
}

/**
 * Loads every file of an analysis (what collectInputs found) the same way for analyze, batch and the
 * UI: dumps, heap dumps and logs, with files in a directory that are none of these skipped.
 */
export async function loadIncidentInputs(
  inputs: readonly InputPath[],
  plan: IncidentPlan,
  hooks: IncidentLoadHooks = {},
  heapsCompared = false,
): Promise<IncidentInputs> {
  const out: IncidentInputs = { threads: [], heaps: [], logs: [], notes: [] };
  // The memory analysis of each HPROF starts first, so its graph pass runs on the other core while
  // this thread reads the thread dumps, the heap's targeted load, and builds the model.
  // Each file is identified once, here (stdin, once copied, by its load); a file that cannot be read
  // is left to the load, which says why.
  const early = new Map<string, LoadAhead>();
  for (const input of inputs) {
    // Stdin and named pipes are read once, by their load (which copies them first); devices are refused there.
    if (input.path === '-' || !(await isRegularFile(input.path))) continue;
    let identified: IdentifiedInput;
    try {
      identified = await identifyInput(input.path, input.path, plan.maxGunzipBytes !== undefined ? { maxGunzipBytes: plan.maxGunzipBytes } : {});
    } catch {
      continue;
    }
    const onProgress = hooks.onProgress === undefined ? undefined : (event: ProgressEvent) => hooks.onProgress!(input.path, event);
    const memory = startHeapMemory(identified, input.path, plan, onProgress);
    early.set(input.path, { identified, ...(memory !== undefined ? { memory } : {}) });
  }
  try {
    return await loadEach(inputs, plan, hooks, out, early, heapsCompared);
  } finally {
    for (const a of early.values()) cancelHeapMemory(a.memory);
  }
}

async function loadEach(
  inputs: readonly InputPath[],
  plan: IncidentPlan,
  hooks: IncidentLoadHooks,
  out: IncidentInputs,
  early: ReadonlyMap<string, LoadAhead>,
  heapsCompared: boolean,
): Promise<IncidentInputs> {
  for (const input of inputs) {
    hooks.signal?.throwIfAborted();
    let loaded: LoadedInput;
    try {
      loaded = await loadAnyInput(
        input.path,
        plan,
        hooks.onProgress === undefined ? undefined : (event) => hooks.onProgress!(input.path, event),
        early.get(input.path),
        // A log handed over beside other inputs is part of the incident, as in a directory (read, even
        // when nothing in it is known); given alone, a log with no dump in it is an error.
        input.fromDirectory === true || inputs.length > 1,
      );
    } catch (e) {
      if (e instanceof InputError && input.fromDirectory) {
        // A capture's own manifest (dumpsleuth capture) is part of the incident, not a stray file: what
        // it says failed (a heap dump asked for and not written) goes into the report's notes.
        const manifestNotes = basename(input.path) === CAPTURE_MANIFEST ? await captureManifestNotes(input.path) : undefined;
        if (manifestNotes === undefined) hooks.onSkipped?.(input.path, e);
        else out.notes.push(...manifestNotes);
        continue;
      }
      if (e instanceof UserError && hooks.onFailed !== undefined) {
        hooks.onFailed(input.path, e);
        continue;
      }
      throw e;
    }
    if (loaded.kind === 'threads') out.threads.push(loaded.input);
    else if (loaded.kind === 'heap') out.heaps.push(loaded.heap);
    else out.logs.push(loaded.log);
  }
  const several = filesOfSeveralJvms(out.threads);
  if (several !== undefined) {
    // A few names per JVM and a few JVMs: the line stays a line when thousands of files are given.
    const names = (g: readonly string[]) =>
      g.length <= NAMES_SHOWN ? g.join(', ') : `${g.slice(0, NAMES_SHOWN).join(', ')} and ${g.length - NAMES_SHOWN} more`;
    const shown = several.groups.slice(0, NAMES_SHOWN).map((g) => (g.length === 1 ? g[0]! : `{${names(g)}}`));
    const list = shown.join(' and ') + (several.groups.length > NAMES_SHOWN ? ` and ${several.groups.length - NAMES_SHOWN} more JVMs` : '');
    throw new InputError(
      `the thread dumps come from ${several.groups.length} JVMs, not one: ${list} (${several.reason})`,
      'analyse the files of one JVM at a time, or several incidents with `dumpsleuth batch`',
    );
  }
  // The UI compares the heap dumps itself (its Growth screen): the note would send the reader elsewhere.
  const comparing = heapsCompared ? undefined : heapComparisonNote(out.heaps.map((h) => h.path));
  if (comparing !== undefined) out.notes.push(comparing);
  return out;
}

/**
 * Several heap dumps are each analysed on their own here; what grew from one to the next (the usual
 * proof of a leak) is `memory --baseline`'s, and the report says so rather than leave them side by side.
 */
function heapComparisonNote(paths: readonly string[]): string | undefined {
  if (paths.length < 2) return undefined;
  const shown = paths.length <= NAMES_SHOWN ? paths.join(', ') : `${paths.slice(0, NAMES_SHOWN).join(', ')} and ${paths.length - NAMES_SHOWN} more`;
  return (
    `${paths.length} heap dumps (${shown}) are each analysed on their own: dumpsleuth memory --baseline, ` +
    'given the older first, says what grew between them and what holds the new objects'
  );
}

/** `--memory`'s choice, as the plan takes it (for the commands' options). */
export type { MemoryChoice } from '../heap/memory/plan.js';

/** The limits a command gives an analysis (from its flags), declared once from the CLI to the plan. */
export type PlanLimits = Pick<
  IncidentPlan,
  'maxGunzipBytes' | 'inflateThreads' | 'memory' | 'memoryOnThisThread' | 'retainerTree' | 'heapDump' | 'maxMemoryBytes'
>;

/** The heap-loading plan of an analysis: the built-in roots, the config's counters, and limits. */
export function analysisPlan(counters: readonly UserCounterSpec[], limits: PlanLimits = {}): IncidentPlan {
  return { ...ANALYSIS_PLAN, roots: [...ANALYSIS_PLAN.roots, ...userCounterRoots(counters)], ...limits };
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}
