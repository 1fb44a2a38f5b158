/**
 * V8 `.heapsnapshot` (Node.js, Chrome, Electron) → class histogram, grouped the way the DevTools
 * Summary view groups nodes: objects and native objects by constructor name, everything else by
 * node type (`(string)`, `(closure)`, `(code)`, ...).
 *
 * The file is streamed, never held whole and never JSON.parse'd whole: snapshots pass the 512 MiB
 * JS string limit, and a full parse needs ~5× the file in memory (docs/heap-formats.md §3.3).
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

import { InputError } from '../../errors.js';
import { readFailure } from '../../model/read-failure.js';
import { type Histogram, type HistogramRow, sortHistogramRows } from '../histogram.js';
import { type V8NodeGroup, V8SnapshotScanner, type V8SnapshotSummary } from './v8-snapshot-scanner.js';

export interface V8HeapSnapshotReadOptions {
  /** Called after each chunk with bytes of the file read so far (compressed bytes for gzip input) and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number | undefined) => void;
}

/** `readSync` from the page cache runs at ~5 GB/s with 1–8 MiB buffers (docs/heap-formats.md §2.2); 8 MiB keeps calls few. */
const READ_BUFFER_BYTES = 8 * 1024 * 1024;
const GZIP_CHUNK_BYTES = 1024 * 1024;

const SIZE_MODEL = "V8's own self_size of each node, summed per group (recorded by V8, not estimated)";

/**
 * Reads a V8 heap snapshot, plain or gzip-compressed (recognised by its magic bytes), into a histogram.
 *
 * A truncated file gives the counts read so far with a warning naming the byte offset, unless nothing
 * countable was reached (the header is cut), which throws an `InputError`; so does malformed content.
 *
 * @example
 *   const h = await readV8HeapSnapshotHistogram('app.heapsnapshot.gz');
 *   // h.rows[0] → { className: '(string)', instances: 61234, shallowBytes: 3912448 }
 */
export async function readV8HeapSnapshotHistogram(path: string, options: V8HeapSnapshotReadOptions = {}): Promise<Histogram> {
  return toHistogram(path, await scanV8HeapSnapshot(path, options));
}

/**
 * Streams a V8 heap snapshot, plain or gzip, through the scanner: the per-group counts and, with
 * `collectGraph`, every node, edge and string (the memory analysis's object graph).
 */
export async function scanV8HeapSnapshot(
  path: string,
  options: V8HeapSnapshotReadOptions & { readonly collectGraph?: boolean } = {},
): Promise<V8SnapshotSummary> {
  const fd = openForReading(path);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new InputError(`${path} is a directory`, 'pass a .heapsnapshot file');
    const totalBytes = stats.isFile() ? stats.size : undefined;
    const magic = Buffer.alloc(2);
    const gzip = readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    const scanner = new V8SnapshotScanner({ source: path, offsetLabel: gzip ? 'decompressed byte' : 'byte', collectGraph: options.collectGraph === true });
    return gzip ? await scanGzip(path, scanner, totalBytes, options.onProgress) : await scanPlain(fd, scanner, totalBytes, options.onProgress);
  } finally {
    closeSync(fd);
  }
}

function openForReading(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${readFailure(e)}`, 'check the path');
  }
}

async function scanPlain(
  fd: number,
  scanner: V8SnapshotScanner,
  totalBytes: number | undefined,
  onProgress: V8HeapSnapshotReadOptions['onProgress'],
): Promise<V8SnapshotSummary> {
  // One buffer for the whole file; the scanner copies the little it keeps.
  const buffer = Buffer.allocUnsafe(totalBytes === undefined ? READ_BUFFER_BYTES : Math.max(1, Math.min(READ_BUFFER_BYTES, totalBytes)));
  let position = 0;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, position);
    if (n === 0) break;
    position += n;
    const wantsMore = scanner.feed(n === buffer.length ? buffer : buffer.subarray(0, n));
    onProgress?.(position, totalBytes);
    if (!wantsMore) break;
    // Lets timers and a progress display run between chunks.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return scanner.finish();
}

async function scanGzip(
  path: string,
  scanner: V8SnapshotScanner,
  totalBytes: number | undefined,
  onProgress: V8HeapSnapshotReadOptions['onProgress'],
): Promise<V8SnapshotSummary> {
  const compressed = createReadStream(path, { highWaterMark: GZIP_CHUNK_BYTES });
  const gunzip = createGunzip({ chunkSize: GZIP_CHUNK_BYTES });
  let compressedRead = 0;
  compressed.on('data', (chunk) => {
    compressedRead += chunk.length;
    onProgress?.(compressedRead, totalBytes);
  });
  compressed.on('error', (e) => gunzip.destroy(e));
  compressed.pipe(gunzip);
  let endReason: string | undefined;
  try {
    // Read on after the snapshot's closing brace: the gzip trailer (CRC and length) is what tells a
    // complete file from a cut one.
    let wantsMore = true;
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      if (wantsMore) wantsMore = scanner.feed(chunk);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR') endReason = 'the gzip data ends early';
    else if (code === 'Z_DATA_ERROR') endReason = `the gzip data is damaged (${(e as Error).message})`;
    else throw new InputError(`cannot read ${path}: ${(e as Error).message}`, 'check the file');
  } finally {
    compressed.destroy();
    gunzip.destroy();
  }
  return scanner.finish(endReason);
}

/** The histogram row name of a group. Distinct groups can share a name (e.g. an `object` and a `native` `Foo`); their rows are merged. */
export function groupClassName(group: Pick<V8NodeGroup, 'typeName' | 'nameIndex' | 'name'>): string {
  if (group.typeName === undefined) return '(unknown node type)';
  const type = group.typeName;
  if (group.nameIndex < 0) return `(${type})`;
  if (group.name === undefined) return `(${type}, name #${group.nameIndex} not read)`;
  return group.name === '' ? `(anonymous ${type})` : group.name;
}

function toHistogram(source: string, summary: V8SnapshotSummary): Histogram {
  const byClass = new Map<string, { instances: number; shallowBytes: number }>();
  for (const group of summary.groups) {
    const className = groupClassName(group);
    const row = byClass.get(className);
    if (row === undefined) {
      byClass.set(className, { instances: group.instances, shallowBytes: group.selfBytes });
    } else {
      row.instances += group.instances;
      row.shallowBytes += group.selfBytes;
    }
  }
  const rows: HistogramRow[] = [];
  let totalInstances = 0;
  let totalBytes = 0;
  for (const [className, row] of byClass) {
    rows.push({ className, instances: row.instances, shallowBytes: row.shallowBytes });
    totalInstances += row.instances;
    totalBytes += row.shallowBytes;
  }
  return {
    source,
    format: 'v8-heapsnapshot',
    rows: sortHistogramRows(rows),
    totalInstances,
    totalBytes,
    sizeModel: SIZE_MODEL,
    warnings: summary.warnings,
  };
}
