/**
 * `dumpsleuth extract <heap> -o incident.json[.gz]`: the objects the analyses need (and what they
 * reach) from a heap dump, as a dumpsleuth JSON heap snapshot small enough to attach to a ticket.
 */
import { identifyHeapFile, openHeapFile } from '../analysis/heap-file.js';
import { UsageError } from '../errors.js';
import { ANALYSIS_PLAN } from '../heap/analysis-plan.js';
import { finishHeapMemory } from '../heap/memory/finish.js';
import { loadCarrying, startHeapMemory } from '../heap/memory/plan.js';
import { heapStoreNamed, writeHeapSnapshotFile } from '../heap/open-heap.js';
import { readInputFile } from '../input/stdin.js';
import { countText } from '../model/count-text.js';
import { heapSizeText } from '../report/heap-size-text.js';
import { stripControl } from '../report/sanitize.js';
import { commandProgress, sayWarnings } from './command-output.js';
import type { CommandIo } from './io.js';
import { checkOutputPath, writeFileWhole } from './output.js';

export interface ExtractOptions {
  readonly output: string;
  readonly gzip?: boolean;
  readonly progress: boolean;
  /** `--dump N`: which heap dump of an HPROF holding several to read (from 1). */
  readonly heapDump?: number;
  /** `--max-gunzip-size`, already parsed. */
  readonly maxGunzipBytes?: number;
}

export async function extractCommand(path: string, opts: ExtractOptions, io: CommandIo): Promise<number> {
  if (opts.output === '-' || opts.output.length === 0) throw new UsageError('extract needs an output file', 'for example -o incident.json.gz');
  await checkOutputPath(opts.output);
  const progress = commandProgress(opts.progress, io);
  const { value, file } = await readInputFile(path, async (f) => {
    // What holds the memory travels with the snapshot, computed as analyze does by default.
    const identified = await identifyHeapFile(f, opts.maxGunzipBytes);
    const plan = {
      ...ANALYSIS_PLAN,
      ...(opts.heapDump !== undefined ? { heapDump: opts.heapDump } : {}),
      ...(opts.maxGunzipBytes !== undefined ? { maxGunzipBytes: opts.maxGunzipBytes } : {}),
    };
    const memory = startHeapMemory(identified, path, plan);
    const loaded = await loadCarrying(memory, (hooks) => openHeapFile(f, plan, (e) => progress.update(`reading ${path}`, e), hooks, identified));
    const summary = memory !== undefined ? (await finishHeapMemory(memory, path)).model.summary : undefined;
    return summary !== undefined ? { ...loaded, memory: summary } : loaded;
  });
  const store = heapStoreNamed(value, file, path);
  progress.clear();
  const gzip = opts.gzip ?? opts.output.endsWith('.gz');
  await writeFileWhole(opts.output, (temporary) =>
    writeHeapSnapshotFile(store, temporary, { createdBy: `dumpsleuth ${io.version}`, plan: ANALYSIS_PLAN }, gzip),
  );
  // The dump's size in analyze's words (objects of the classes that have some), then what the snapshot keeps.
  const size =
    store.histogram !== undefined
      ? `${heapSizeText({ objects: store.histogram.totalInstances, shallowBytes: store.histogram.totalBytes, classes: store.histogram.rows.length })}; `
      : '';
  io.stderr.write(
    `wrote ${stripControl(opts.output)}: ${size}the snapshot keeps ${countText(store.classes.size)} class definitions ` +
      `(every class loaded) and the ${countText(store.objects.size)} objects the analysis reads${gzip ? ' (gzip)' : ''}\n`,
  );
  sayWarnings(store.warnings, io);
  return 0;
}
