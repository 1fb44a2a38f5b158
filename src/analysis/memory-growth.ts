/**
 * What grew between heap dumps of one program, the pipeline `memory --baseline` and the UI's Growth
 * screen both run: each heap dump identified and checked against its budget before its analysis, the
 * older ones analysed first for the comparison (their class tables and dominator trees are kept until
 * the newest is analysed, see heap/memory/growth.ts: 16 bytes an object, so each dump's analysis must
 * fit what the limit leaves beside what the older ones keep), each checked to be a dump of the program
 * the one before it is, then the newest with the hook that names its holders' paths, and the growth.
 * The memory command also runs heapKind and the newest heap's analysis for a heap given alone.
 */
import { stat } from 'node:fs/promises';

import { InputError } from '../errors.js';
import { analyseMemory, type MemoryAnalysisOptions } from '../heap/memory/analyse-memory.js';
import { doesNotFitFile, memoryLimit } from '../heap/memory/budget.js';
import {
  ALL_CLASSES,
  analyseBaselineMemory,
  type GrowthChoice,
  growthOf,
  growthPaths,
  type HeapIdentity,
  keptBytes,
  type KeptForGrowth,
  notOneProgram,
  notOneProgramFormat,
} from '../heap/memory/growth.js';
import { HprofFormatError } from '../heap/open-heap.js';
import { requireHeapFormat } from '../input/identify.js';
import { openInput } from '../input/open.js';
import { readInputFile, renamed } from '../input/stdin.js';
import { approximateBytes } from '../model/bytes.js';
import type { MemoryGrowth } from '../model/memory-growth.js';
import type { ProgressEvent } from '../model/progress.js';
import { identifyHeapFile, nothingReadError } from './heap-file.js';

/** Where the pipeline says how far it is (the memory command's progress line, the UI's loading screen). */
export interface GrowthProgress {
  update(label: string, e: ProgressEvent): void;
}

/** What memory and memory --baseline read of each heap file: the part of MemoryOptions a heap's reading takes. */
export interface HeapReading {
  readonly heapDump?: number;
  readonly maxMemoryBytes?: number;
  readonly maxGunzipBytes?: number;
}

export type BaselineAnalysis = KeptForGrowth & HeapIdentity & { readonly warnings: readonly string[]; readonly cut?: string };

export function feedOf(opts: HeapReading) {
  return {
    ...(opts.heapDump !== undefined ? { heapDump: opts.heapDump } : {}),
    ...(opts.maxGunzipBytes !== undefined ? { maxGunzipBytes: opts.maxGunzipBytes } : {}),
  };
}

/**
 * A heap file's format and identity (an HPROF's id size and time, from its header), refused when it is
 * no heap the memory analysis reads or when its analysis does not fit (its share of the limit, when
 * `kept`: what the older dumps' analyses of a comparison keep meanwhile).
 */
export async function heapKind(
  path: string,
  f: string,
  opts: HeapReading,
  progress: GrowthProgress,
  kept?: { readonly dumps: number; readonly bytes: number },
): Promise<{ kind: 'hprof' | 'v8-heapsnapshot'; identity: Omit<HeapIdentity, 'source' | 'kind'> }> {
  const { kind } = requireHeapFormat(await identifyHeapFile(f, opts.maxGunzipBytes));
  if (kind === 'dumpsleuth-heap') {
    throw new InputError(
      `${f} is a dumpsleuth heap snapshot: it holds only the objects the analyses need (and, from an HPROF, its memory summary), not the whole graph`,
      'run it on the HPROF the snapshot came from (jmap -dump, jcmd GC.heap_dump), or analyze the snapshot for the summary it carries',
    );
  }
  if (kind !== 'hprof') return { kind, identity: {} };
  const whole = memoryLimit(opts.maxMemoryBytes);
  // The free memory is measured now, with what the older dumps keep already taken; --max-memory is not.
  const limit =
    kept === undefined || kept.dumps === 0 || opts.maxMemoryBytes === undefined
      ? whole
      : { bytes: whole.bytes - kept.bytes, what: `${whole.what} less the ${approximateBytes(kept.bytes)} the older dumps' analyses keep` };
  const tooBig = await doesNotFitFile(f, limit, opts.heapDump, (e) => progress.update(`counting the objects of ${path}`, e));
  if (tooBig !== undefined)
    throw new InputError(
      `cannot analyse the memory of ${path}: ${tooBig}`,
      kept === undefined
        ? 'give --max-memory with more to run it anyway, run it on a machine with more memory, or use analyze --no-memory for its threads and pools'
        : 'compare fewer heap dumps at once, give --max-memory with more to run it anyway, or run it on a machine with more memory',
    );
  return { kind, identity: await hprofHeader(f, opts.maxGunzipBytes) };
}

/** An HPROF's id size and the time it was written, from its header (`JAVA PROFILE 1.0.2`, NUL, id size, ms since the epoch). */
async function hprofHeader(f: string, maxGunzipBytes: number | undefined): Promise<{ idSize?: number; timestampMs?: number }> {
  const opened = await openInput(f, undefined, maxGunzipBytes);
  opened.close();
  const head = opened.headBytes;
  const nul = head.indexOf(0);
  if (nul < 0 || nul + 13 > head.length) return {};
  return { idSize: head.readUInt32BE(nul + 1), timestampMs: head.readUInt32BE(nul + 5) * 4294967296 + head.readUInt32BE(nul + 9) };
}

/** An older heap of `memory --baseline`, analysed whole but for the paths of its suspects (the newest heap's report shows those). */
async function analyseBaseline(
  path: string,
  opts: HeapReading,
  progress: GrowthProgress,
  olderKeep: { readonly dumps: number; readonly bytes: number },
): Promise<BaselineAnalysis> {
  const { value, file } = await readInputFile(path, async (f) => {
    const { kind, identity } = await heapKind(path, f, opts, progress, olderKeep);
    try {
      const kept = await analyseBaselineMemory(f, {
        format: kind,
        onProgress: (e) => progress.update(`${e.phase === 'dominators' || e.phase === 'summary' ? 'dominator tree' : 'reading'} of ${path}`, e),
        topDominators: 1,
        feed: feedOf(opts),
      });
      return { ...kept, source: path, kind, ...identity };
    } catch (e) {
      if (e instanceof HprofFormatError) throw new InputError(`${f}: ${e.message}`, 'pass an HPROF heap dump or a V8 .heapsnapshot (plain or gzip)');
      throw e;
    }
  });
  const { cut, warnings, ...kept } = value;
  if (cut !== undefined && kept.summary.objects === 0)
    throw new InputError(`nothing of ${path} could be read: ${renamed(cut, file, path)}`, 'take or copy the heap dump again, whole');
  return {
    ...kept,
    ...(cut !== undefined ? { cut: renamed(cut, file, path) } : {}),
    warnings: warnings.map((w) => `${path}: ${renamed(w, file, path)}`),
  };
}

/** Refuses a newer heap that is not a dump of the same program as an older one, by what the files say before any analysis. */
export function requireOneProgramFormat(older: HeapIdentity, newer: HeapIdentity): void {
  const why = notOneProgramFormat(older, newer);
  if (why !== undefined) throw new InputError(why, ONE_PROGRAM_REMEDY);
}

export const ONE_PROGRAM_REMEDY = 'compare heap dumps of one program, older first: dumpsleuth memory --baseline <older> <newer>';

/** Refuses two analysed heaps that are not dumps of one program, by their classes (see notOneProgram). */
function requireOneProgram(older: Parameters<typeof notOneProgram>[0], newer: Parameters<typeof notOneProgram>[1]): void {
  const why = notOneProgram(older, newer);
  if (why !== undefined) throw new InputError(why, ONE_PROGRAM_REMEDY);
}

/** What the older dumps' analyses keep, for the budget of the next (see heapKind); undefined for a heap given alone. */
export function keptByOlder(older: readonly BaselineAnalysis[], heaps: number): { readonly dumps: number; readonly bytes: number } | undefined {
  return heaps > 1 ? { dumps: older.length, bytes: older.reduce((sum, b) => sum + keptBytes(b), 0) } : undefined;
}

/**
 * The older dumps of a comparison (every path but the last, oldest first), analysed one after the
 * other, each refused when it is not a dump of the program the one before it is.
 */
export async function analyseOlderHeaps(paths: readonly string[], opts: HeapReading, progress: GrowthProgress): Promise<BaselineAnalysis[]> {
  const older: BaselineAnalysis[] = [];
  for (const path of paths.slice(0, -1)) {
    const next = await analyseBaseline(path, opts, progress, keptByOlder(older, paths.length)!);
    if (older.length > 0) {
      requireOneProgramFormat(older[older.length - 1]!, next);
      requireOneProgram(older[older.length - 1]!, next);
    }
    older.push(next);
  }
  return older;
}

/** A fresh record of what the newest heap's analysis chooses (filled by the hook of newestGrowthOptions). */
export function growthChoice(): GrowthChoice {
  return { trends: [], holders: [], held: new Map() };
}

/** What the newest heap's analysis takes for a comparison: every class in its table, and the hook that picks the holders whose paths it names. */
export function newestGrowthOptions(older: readonly BaselineAnalysis[], choice: GrowthChoice): Pick<MemoryAnalysisOptions, 'topClasses' | 'pathsAlso'> {
  return {
    topClasses: ALL_CLASSES,
    pathsAlso: growthPaths(
      older.map((b) => b.summary.classes),
      choice,
    ),
  };
}

type NewestAnalysis = Parameters<typeof growthOf>[1] & { readonly alsoPaths?: Parameters<typeof growthOf>[3] };

/**
 * What grew, once the newest heap is analysed with newestGrowthOptions (`newest`: that analysis, named
 * by its path, its header's identity and its cut); refused when it is not a dump of the program the
 * last older one is.
 */
export function growthSince(older: readonly BaselineAnalysis[], newest: NewestAnalysis, choice: GrowthChoice): MemoryGrowth {
  const growth = growthOf(older, newest, choice, newest.alsoPaths ?? []);
  requireOneProgram(older[older.length - 1]!, newest);
  return growth;
}

/** The comparison of heap dumps of one program, and what was said on the way (each prefixed with its file). */
export interface HeapComparison {
  readonly growth: MemoryGrowth;
  readonly warnings: readonly string[];
}

/** What the progress says in each step of the newest heap's analysis after its reading. */
const NEWEST_PHASES: Readonly<Record<string, string>> = { dominators: 'dominator tree', summary: 'classes', paths: 'paths from GC roots' };

/**
 * What grew between heap dumps of one program, given oldest first: the comparison `memory --baseline`
 * reports, without the newest heap's own report (its tree, its classes by retained size). Refuses, as an
 * InputError, heaps that are not dumps of one program or not of one format, or a dump read in nothing.
 */
export async function compareHeaps(paths: readonly string[], opts: HeapReading, progress: GrowthProgress): Promise<HeapComparison> {
  if (paths.length < 2) throw new InputError(`a comparison needs two heap dumps or more, and was given ${paths.length}`, ONE_PROGRAM_REMEDY);
  const older = await analyseOlderHeaps(paths, opts, progress);
  const path = paths[paths.length - 1]!;
  const choice = growthChoice();
  const { value, file } = await readInputFile(path, async (f) => {
    const { kind, identity } = await heapKind(path, f, opts, progress, keptByOlder(older, paths.length));
    for (const b of older) requireOneProgramFormat(b, { source: path, kind, ...identity });
    try {
      const found = await analyseMemory(f, {
        format: kind,
        onProgress: (e) => progress.update(`${NEWEST_PHASES[e.phase] ?? 'reading'} of ${path}`, e),
        topDominators: 1,
        // As `memory --baseline` asks it, so the holders' paths are the ones its report shows.
        suspectPaths: true,
        ...newestGrowthOptions(older, choice),
        feed: feedOf(opts),
      });
      const cut = found.graph.cut !== undefined ? renamed(found.graph.cut, f, path) : undefined;
      if (cut !== undefined && found.summary.objects === 0) throw nothingReadError(path, cut);
      const growth = growthSince(older, { ...found, source: path, ...identity, ...(cut !== undefined ? { cut } : {}) }, choice);
      return { growth, warnings: found.graph.warnings };
    } catch (e) {
      if (e instanceof HprofFormatError) throw new InputError(`${f}: ${e.message}`, 'pass an HPROF heap dump or a V8 .heapsnapshot (plain or gzip)');
      throw e;
    }
  });
  return { growth: value.growth, warnings: [...older.flatMap((b) => b.warnings), ...value.warnings.map((w) => `${path}: ${renamed(w, file, path)}`)] };
}

/**
 * The heap dumps among paths given by name, in the order given: regular files that are HPROF dumps or
 * V8 snapshots (a dumpsleuth extract holds no whole graph to compare). What cannot be identified is
 * left to the caller's own load, which says why.
 */
export async function heapDumpsAmong(
  paths: readonly string[],
  maxGunzipBytes?: number,
): Promise<Array<{ readonly path: string; readonly kind: 'hprof' | 'v8-heapsnapshot' }>> {
  const out: Array<{ path: string; kind: 'hprof' | 'v8-heapsnapshot' }> = [];
  for (const path of paths) {
    if (path === '-' || (await stat(path).catch(() => undefined))?.isFile() !== true) continue;
    const kind = (await identifyHeapFile(path, maxGunzipBytes).catch(() => undefined))?.format?.kind;
    if (kind === 'hprof' || kind === 'v8-heapsnapshot') out.push({ path, kind });
  }
  return out;
}
