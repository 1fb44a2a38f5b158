/**
 * Feeds an HPROF file to the push parser. Plain files are read with positioned reads into one
 * reused buffer, and bodies the parser skips are never read; gzip files (also jmap's multi-member
 * `gz=N` output) are inflated as a stream and skipped bytes discarded.
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

import { DEFAULT_MAX_GUNZIP_BYTES } from '../../model/bytes.js';
import { type ProgressListener, progressStep } from '../../model/progress.js';
import type { FilePart } from './file-parts.js';
import { jmapGzipBlockSize, parallelGunzip } from './parallel-gunzip.js';
import { HprofFormatError, type HprofHeader, type HprofParser } from './parser.js';

export const READ_BUFFER = 8 * 1024 * 1024;
/** No single record is buffered beyond this; the parser skips anything it would not deliver anyway. */
const MAX_BUFFER = 80 * 1024 * 1024;

export interface FeedSummary {
  readonly gzip: boolean;
  /** Size of the file on disk. */
  readonly fileBytes: number;
  /** Bytes of HPROF stream reached (after decompression). */
  readonly streamBytes: number;
  /** Set when the data ends in the middle of a record: the stream offset where it ends. */
  readonly truncatedAt?: number;
  /** Set when reading stopped at the decompressed-size limit (then truncatedAt is set too). */
  readonly stoppedAtLimit?: number;
  /** Set when the file's size changed while it was read (it was being written, copied or cut): its size when opened, and after. */
  readonly resized?: { readonly from: number; readonly to: number };
}

export interface FeedOptions {
  readonly onProgress?: ProgressListener;
  /** Sees every decompressed chunk of a gzip input (the loader keeps a plain copy to seek in). */
  readonly tee?: ChunkTee;
  /** See LoadPlan.inflateThreads. */
  readonly inflateThreads?: number;
  /**
   * A gzip input stops here, as if cut; when not given, at DEFAULT_MAX_GUNZIP_BYTES. Never where it
   * inflates like a bomb: an HPROF read as a stream is bounded by its records (bodies the parser does
   * not need are skipped, not kept; a run of zeros is no record and ends the read) and by the memory
   * budget, and a real JVM's dump of zeroed arrays inflates hundreds of times with its GC roots last.
   */
  readonly maxGunzipBytes?: number;
  /** Whether the file is gzip, when the caller identified it already (else its magic bytes are read). */
  readonly gzip?: boolean;
  /** Which of the file's heap dumps to read, from 1 (`--dump N`; the first when not given). */
  readonly heapDump?: number;
}

export function isGzipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    return readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/**
 * The HPROF bytes a file holds, a gzip one estimated at 2.5 times its size (what dumps inflate by
 * at least). A gzip trailer's own size (ISIZE) is not used: a cut file ends in compressed bytes that
 * read as any size, and past 4 GiB the field wraps. A hint for sizing and choosing, never a limit.
 */
export function hprofBytesEstimate(path: string): number {
  return hprofBytesOf(statSync(path).size, isGzipFile(path));
}

/** hprofBytesEstimate of a file whose size and compression are known already (it was identified). */
export function hprofBytesOf(fileBytes: number, gzip: boolean): number {
  return fileBytes * (gzip ? GZIP_INFLATION_AT_LEAST : 1);
}

const GZIP_INFLATION_AT_LEAST = 2.5;

/** A trailer's size is believed for sizing up to this many times the file, and this many bytes. */
const TRAILER_MAX_RATIO = 32;
const TRAILER_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The HPROF bytes to size a pass's arrays for, which only sizes them (they grow past it): a gzip
 * file's trailer (ISIZE, what its data inflates to) when it is a plausible inflation, 1 to 32 times
 * the file, and small enough that a wrong figure costs little, up to 256 MiB (a cut file ends in
 * compressed bytes, which read as any size); else hprofBytesEstimate. jmap's gz=N output is many
 * members, the last one's trailer only its own block: less than the file, so the estimate.
 */
export function hprofBytesToSizeFor(path: string): number {
  if (!isGzipFile(path)) return statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const trailer = Buffer.alloc(4);
    const inflated = size >= 18 && readSync(fd, trailer, 0, 4, size - 4) === 4 ? trailer.readUInt32LE(0) : 0;
    return inflated >= size && inflated <= size * TRAILER_MAX_RATIO && inflated <= TRAILER_MAX_BYTES ? inflated : hprofBytesOf(size, true);
  } finally {
    closeSync(fd);
  }
}

/** How a pass over a dump ended, for what read its records: the header, the parser's warnings, where the data ended. */
export interface PassEnd {
  readonly header: HprofHeader | undefined;
  /** The parser's warnings (damaged or skipped records). */
  readonly warnings: readonly string[];
  readonly fed: FeedSummary;
}

export function passEnd(parser: HprofParser, fed: FeedSummary): PassEnd {
  return { header: parser.header, warnings: parser.warningReport(), fed };
}

/** Called with every decompressed chunk of a gzip input, in order (the loader keeps a plain copy to seek in). */
type ChunkTee = (chunk: Buffer) => void;

export async function feedHprof(path: string, parser: HprofParser, options: FeedOptions = {}): Promise<FeedSummary> {
  if (options.heapDump !== undefined) parser.selectHeapDump(options.heapDump);
  const fed = (options.gzip ?? isGzipFile(path)) ? await feedGzip(path, parser, options) : feedPlain(path, parser, options.onProgress);
  if (options.heapDump !== undefined && options.heapDump > Math.max(parser.heapDumps, 1)) {
    throw new HprofFormatError(`there is no heap dump ${options.heapDump} in this file: it holds ${parser.heapDumps}`);
  }
  return fed;
}

function feedPlain(path: string, parser: HprofParser, onProgress?: ProgressListener): FeedSummary {
  return feedPlainPart(path, parser, undefined, onProgress);
}

/**
 * Feeds `part` of a plain file (all of it when undefined) to a parser put at its start (see
 * file-parts.ts). A part before the last ends at a record boundary, where the summary says the dump
 * was cut (no HEAP_DUMP_END): its caller knows better. `readBuffer`: one to read into, kept from part
 * to part (a new one of 8 MiB costs its page faults each time).
 */
export function feedPlainPart(path: string, parser: HprofParser, part: FilePart | undefined, onProgress?: ProgressListener, readBuffer?: Buffer): FeedSummary {
  const fd = openSync(path, 'r');
  try {
    return feedOpenFile(fd, parser, part?.start ?? 0, part?.end ?? fstatSync(fd).size, onProgress, readBuffer);
  } finally {
    closeSync(fd);
  }
}

/**
 * Feeds the bytes of an open file from `start` to `size` to a parser put at `start`, in reads of at
 * most READ_BUFFER bytes (more only for a record the parser needs whole), skipping bodies it skips.
 */
export function feedOpenFile(fd: number, parser: HprofParser, start: number, size: number, onProgress?: ProgressListener, readBuffer?: Buffer): FeedSummary {
  const opened = fstatSync(fd).size;
  const summary = feedOpenFileTo(fd, parser, start, size, onProgress, readBuffer);
  // A dump read only in part may be one still being written, or cut while it was read: said, so the
  // reader knows to wait for the dump to finish rather than to take it again.
  const now = fstatSync(fd).size;
  if (now === opened) return summary;
  const resized = { from: opened, to: now };
  if (summary.truncatedAt !== undefined) return { ...summary, resized };
  // Read to its end as it was opened, but now shorter than what was read: bodies the parser skipped
  // past its new end were never there to read.
  return now < size ? { ...summary, fileBytes: now, streamBytes: now, truncatedAt: Math.min(parser.offset, now), resized } : summary;
}

function feedOpenFileTo(fd: number, parser: HprofParser, start: number, size: number, onProgress?: ProgressListener, readBuffer?: Buffer): FeedSummary {
  const partEnd = size;
  let buf = readBuffer ?? Buffer.allocUnsafe(Math.min(READ_BUFFER, Math.max(size - start, 64)));
  let have = 0;
  /** File position of buf[have]: where the next read starts. */
  let readPos = start;
  let lastReport = readPos;
  const step = progressStep(size - start);
  for (;;) {
    if (have < buf.length && readPos < size) {
      const n = readSync(fd, buf, have, Math.min(buf.length - have, size - readPos), readPos);
      // The file ends before the size it had when opened: it was cut while being read. It ends here.
      if (n === 0) size = readPos;
      readPos += n;
      have += n;
    }
    const consumed = parser.push(buf, 0, have);
    if (parser.ended) break;
    if (consumed >= have) {
      // A skip past what was read: move the read position instead of reading.
      readPos += consumed - have;
      have = 0;
    } else if (consumed > 0) {
      buf.copyWithin(0, consumed, have);
      have -= consumed;
    }
    if (onProgress && readPos - lastReport > step) {
      lastReport = readPos;
      onProgress({ phase: 'heap', bytesRead: Math.min(readPos, size), totalBytes: size });
    }
    if (readPos >= size) {
      // At the end of the file: done when nothing is left half-read.
      if (readPos > size || (have > 0 && consumed === 0) || size < partEnd)
        return { gzip: false, fileBytes: size, streamBytes: size, truncatedAt: parser.offset };
      if (have === 0) break;
      continue;
    }
    if (parser.need > buf.length) {
      if (parser.need > MAX_BUFFER) throw new Error(`internal: parser asked for ${parser.need} contiguous bytes`);
      const bigger = Buffer.allocUnsafe(parser.need);
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    } else if (consumed === 0 && have === buf.length) {
      throw new Error('internal: the HPROF parser made no progress with a full buffer');
    }
  }
  return endSummary(parser, false, size, parser.offset);
}

/**
 * Hands decompressed chunks to the parser: gathers them until the parser's `need` is met, and
 * discards the bytes of bodies the parser skips.
 */
class ChunkFeeder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skip = 0;

  constructor(private readonly parser: HprofParser) {}

  feed(chunk: Buffer): void {
    if (this.parser.ended) return;
    let data = chunk;
    if (this.skip > 0) {
      if (this.skip >= data.length) {
        this.skip -= data.length;
        return;
      }
      data = data.subarray(this.skip);
      this.skip = 0;
    }
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes < this.parser.need) return;
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    const consumed = this.parser.push(all, 0, all.length);
    if (consumed >= all.length) {
      this.skip = consumed - all.length;
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      this.pending = [all.subarray(consumed)];
      this.pendingBytes = all.length - consumed;
    }
  }

  /** True when the data ended in the middle of a record (or of a skipped body). */
  get midRecord(): boolean {
    return !this.parser.ended && (this.skip > 0 || this.pendingBytes > 0);
  }
}

async function feedGzip(path: string, parser: HprofParser, options: FeedOptions): Promise<FeedSummary> {
  const { onProgress, tee, inflateThreads } = options;
  const maxBytes = options.maxGunzipBytes ?? DEFAULT_MAX_GUNZIP_BYTES;
  const size = statSync(path).size;
  const feeder = new ChunkFeeder(parser);
  let inflated = 0;
  let capped = false;
  const feed = (chunk: Buffer) => {
    if (capped) return;
    if (inflated + chunk.length > maxBytes) {
      chunk = chunk.subarray(0, maxBytes - inflated);
      capped = true;
    }
    inflated += chunk.length;
    tee?.(chunk);
    feeder.feed(chunk);
  };
  const stop = () => parser.ended || capped;
  const truncated = (): FeedSummary => ({
    gzip: true,
    fileBytes: size,
    // What was inflated: the parser's offset can run past it over a record it skipped.
    streamBytes: inflated,
    truncatedAt: parser.offset,
    ...(capped ? { stoppedAtLimit: maxBytes } : {}),
  });
  const blockSize = jmapGzipBlockSize(path);
  let resumeAt = 0;
  if (blockSize !== undefined && inflateThreads !== 0) {
    // jmap's gz=N output: independent members of blockSize bytes each, inflated on worker threads.
    const r = await parallelGunzip(path, blockSize, feed, stop, onProgress, inflateThreads);
    if (capped) return truncated();
    if (r.done) return feeder.midRecord ? truncated() : endSummary(parser, true, size, inflated);
    resumeAt = r.resumeAt;
  }
  try {
    await sequentialGunzip(path, resumeAt, feed, stop, onProgress);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'Z_BUF_ERROR' && code !== 'Z_DATA_ERROR') throw e;
    // A cut or damaged gzip stream: what was inflated so far has been parsed.
    return truncated();
  }
  if (capped || feeder.midRecord) return truncated();
  return endSummary(parser, true, size, inflated);
}

/** Inflates the gzip stream from a member boundary, in order, on this thread. */
async function sequentialGunzip(path: string, start: number, onChunk: (b: Buffer) => void, stop: () => boolean, onProgress?: ProgressListener): Promise<void> {
  const size = statSync(path).size;
  const file = createReadStream(path, { highWaterMark: 1024 * 1024, start });
  const gunzip = createGunzip({ chunkSize: 1024 * 1024 });
  file.on('error', (e) => gunzip.destroy(e));
  let compressedRead = start;
  let lastReport = 0;
  file.on('data', (c) => {
    compressedRead += c.length;
  });
  try {
    for await (const chunk of file.pipe(gunzip) as AsyncIterable<Buffer>) {
      onChunk(chunk);
      if (stop()) break;
      if (onProgress && compressedRead - lastReport > progressStep(size)) {
        lastReport = compressedRead;
        onProgress({ phase: 'heap', bytesRead: compressedRead, totalBytes: size });
      }
    }
  } finally {
    file.destroy();
  }
}

function endSummary(parser: HprofParser, gzip: boolean, fileBytes: number, streamBytes: number): FeedSummary {
  // Segmented dumps (JDK 15+ and backports) always close with HEAP_DUMP_END; a file that stops at a
  // record boundary without it, or before any heap data, was cut there.
  const cut = !parser.atRecordBoundary || (parser.sawSegments && !parser.sawHeapDumpEnd) || (parser.header !== undefined && !parser.sawHeapDump);
  if (cut) return { gzip, fileBytes, streamBytes, truncatedAt: parser.offset };
  return { gzip, fileBytes, streamBytes };
}
