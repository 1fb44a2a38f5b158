/** `dumpsleuth histogram <heap>`: instances and shallow bytes per class, like `jmap -histo`. */
import { heapHistogramOfFile, nothingReadError } from '../analysis/heap-file.js';
import { UsageError } from '../errors.js';
import type { Histogram } from '../heap/histogram.js';
import { readInputFile, renamed } from '../input/stdin.js';
import { stripControl } from '../report/sanitize.js';
import { commandOutput, type OutputRequest, sayWarnings } from './command-output.js';
import type { CommandIo } from './io.js';

export interface HistogramOptions extends OutputRequest {
  /** Rows to print in text (all in JSON); 0 for all. */
  readonly top: number;
  /** `--dump N`: which heap dump of an HPROF holding several to read (from 1). */
  readonly heapDump?: number;
  /** `--max-gunzip-size`, already parsed. */
  readonly maxGunzipBytes?: number;
}

const HISTOGRAM_SCHEMA = 'dumpsleuth.histogram/1';

export async function histogramCommand(path: string, opts: HistogramOptions, io: CommandIo): Promise<number> {
  if (!Number.isInteger(opts.top) || opts.top < 0)
    throw new UsageError(`--top must be a whole number, got ${opts.top}`, 'for example --top 50, or --top 0 for every class');
  const { format, progress, write } = await commandOutput(opts, ['text', 'json'], io);
  const { value, file } = await readInputFile(path, (f) =>
    heapHistogramOfFile(f, (e) => progress.update(`reading ${path}`, e), opts.heapDump, opts.maxGunzipBytes),
  );
  const h: Histogram = {
    ...value,
    source: path,
    warnings: value.warnings.map((w) => renamed(w, file, path)),
    ...(value.cut !== undefined ? { cut: renamed(value.cut, file, path) } : {}),
  };
  progress.clear();
  if (h.cut !== undefined && h.totalInstances === 0) throw nothingReadError(path, h.cut);
  const text =
    format === 'json' ? JSON.stringify({ schema: HISTOGRAM_SCHEMA, complete: h.cut === undefined, ...h }, null, 2) + '\n' : renderHistogramText(h, opts.top);
  await write(text);
  sayWarnings(h.warnings, io);
  return 0;
}

/** jmap's layout: rank, instances, bytes, class name; then a total line and how sizes were estimated. */
function renderHistogramText(h: Histogram, top: number): string {
  const rows = top > 0 ? h.rows.slice(0, top) : h.rows;
  // A cut dump's counts are of what was read: said before the table, where a reader starts.
  const lines = [
    ...(h.cut !== undefined ? [`Incomplete: ${stripControl(h.source)} was read only in part: ${stripControl(h.cut)}`, ''] : []),
    ' num     #instances         #bytes  class name',
    '----------------------------------------------',
  ];
  rows.forEach((r, i) =>
    lines.push(`${String(i + 1).padStart(4)}: ${String(r.instances).padStart(14)} ${String(r.shallowBytes).padStart(14)}  ${stripControl(r.className)}`),
  );
  if (rows.length < h.rows.length) lines.push(`  ... ${h.rows.length - rows.length} more classes (--top 0 shows all)`);
  lines.push(`Total ${String(h.totalInstances).padStart(14)} ${String(h.totalBytes).padStart(14)}`);
  lines.push('', `Sizes: ${h.sizeModel.replace(/\.$/, '')}.`);
  return lines.join('\n') + '\n';
}
