/**
 * The heap dumps of `memory`, each identified and checked against its budget before its analysis, and
 * the older ones of `memory --baseline` analysed for the comparison: their class tables and dominator
 * trees are kept until the newest is analysed (see heap/memory/growth.ts: 16 bytes an object), so each
 * dump's analysis must fit what the limit leaves beside what the older ones keep.
 */
import { identifyHeapFile } from '../analysis/heap-file.js';
import { InputError } from '../errors.js';
import { doesNotFitFile, memoryLimit } from '../heap/memory/budget.js';
import { analyseBaselineMemory, type HeapIdentity, type KeptForGrowth, notOneProgramFormat } from '../heap/memory/growth.js';
import { HprofFormatError } from '../heap/open-heap.js';
import { requireHeapFormat } from '../input/identify.js';
import { openInput } from '../input/open.js';
import { readInputFile, renamed } from '../input/stdin.js';
import { approximateBytes } from '../model/bytes.js';
import type { ProgressLine } from './progress.js';

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
  progress: ProgressLine,
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
export async function analyseBaseline(
  path: string,
  opts: HeapReading,
  progress: ProgressLine,
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
