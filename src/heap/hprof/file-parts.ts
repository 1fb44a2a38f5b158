/**
 * Where a plain HPROF file can be cut so that its parts are parsed at once, one per core. A heap dump
 * written by HotSpot since JDK 6 is a run of HEAP_DUMP_SEGMENT records (of at most 1 GiB; jmap writes
 * them of a few MiB) closed by HEAP_DUMP_END; no object spans two segments, so a part that starts at a
 * segment's record reads on its own. The cuts are found by hopping from record header to record
 * header, reading 9 bytes a record and none of the bodies.
 *
 * A file is cut only where every record from the first cut on is a segment of the first heap dump or
 * its end: names, class loads and traces (the parts after the first would miss them) come before, as
 * HotSpot writes them. Anything else (the old hprof agent's interleaved records, one HEAP_DUMP record,
 * several dumps, a damaged length) reads in one part, as before.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

import { TAG } from './format.js';
import type { HprofHeader } from './parser.js';

/** One part of the file: from `start` (a record's first byte; 0 for the first part) to `end`. */
export interface FilePart {
  readonly start: number;
  readonly end: number;
}

export interface FileParts {
  readonly header: HprofHeader;
  /** In file order, covering the file; the first holds the header and every record before the first cut. */
  readonly parts: readonly FilePart[];
}

/** Past this many records before the first segment (a file of names without end), it is read in one part. */
const MAX_RECORDS_BEFORE_HEAP = 10_000_000;

/**
 * The file cut into at most `count` parts of about equal size at segment records, or undefined when
 * it cannot be cut (see above) or `count` is 1.
 */
export function hprofFileParts(path: string, count: number): FileParts | undefined {
  if (count < 2) return undefined;
  const fd = openSync(path, 'r');
  try {
    const reader = new HeaderReader(fd, fstatSync(fd).size);
    const header = reader.fileHeader();
    if (header === undefined) return undefined;
    const segments = reader.firstDumpSegments();
    if (segments === undefined || segments.length < 2) return undefined;
    return { header: header.header, parts: cutsNear(segments, reader.size, count) };
  } finally {
    closeSync(fd);
  }
}

/** The segment starts nearest to each k/count of the file (never the dump's first segment), as parts. */
function cutsNear(segments: readonly number[], size: number, count: number): FilePart[] {
  const cuts: number[] = [];
  let s = 1;
  for (let k = 1; k < count; k++) {
    const target = (size * k) / count;
    while (s + 1 < segments.length && Math.abs(segments[s + 1]! - target) <= Math.abs(segments[s]! - target)) s++;
    if (cuts.length === 0 || segments[s]! > cuts[cuts.length - 1]!) cuts.push(segments[s]!);
  }
  const starts = [0, ...cuts];
  return starts.map((start, i) => ({ start, end: starts[i + 1] ?? size }));
}

/** Reads record headers through a window of the file, so that a run of small records costs one read. */
class HeaderReader {
  private readonly window = Buffer.allocUnsafe(8 * 1024);
  /** Where the records start, once the file header is read. */
  private recordsFrom = 0;
  private windowStart = 0;
  private windowEnd = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  /** `length` bytes at `at`, from the window (read again from there when they are not in it), or undefined past the end. */
  private bytesAt(at: number, length: number): Buffer | undefined {
    if (at < this.windowStart || at + length > this.windowEnd) {
      const n = readSync(this.fd, this.window, 0, this.window.length, at);
      this.windowStart = at;
      this.windowEnd = at + n;
      if (n < length) return undefined;
    }
    return this.window.subarray(at - this.windowStart, at - this.windowStart + length);
  }

  fileHeader(): { header: HprofHeader; end: number } | undefined {
    const head = this.bytesAt(0, Math.min(64, this.size));
    if (head === undefined) return undefined;
    const nul = head.indexOf(0);
    if (nul < 0 || nul + 13 > head.length) return undefined;
    const version = head.toString('latin1', 0, nul);
    if (!/^JAVA PROFILE 1\.0\.\d$/.test(version)) return undefined;
    const idSize = head.readUInt32BE(nul + 1);
    if (idSize !== 4 && idSize !== 8) return undefined;
    const timestampMs = head.readUInt32BE(nul + 5) * 4294967296 + head.readUInt32BE(nul + 9);
    this.recordsFrom = nul + 13;
    return { header: { version: version.slice('JAVA PROFILE '.length), idSize, timestampMs }, end: nul + 13 };
  }

  /**
   * The start of every segment record of the file's first heap dump, when the file can be cut (every
   * record after the first segment is a segment of that dump or its end, and each lies inside the
   * file); else undefined.
   */
  firstDumpSegments(): number[] | undefined {
    const segments: number[] = [];
    let ended = false;
    let records = 0;
    for (let at = this.recordsFrom; at < this.size;) {
      const head = this.bytesAt(at, 9);
      if (head === undefined) break;
      const tag = head[0]!;
      const next = at + 9 + head.readUInt32BE(5);
      if (next > this.size) break;
      if (segments.length === 0) {
        if (tag === TAG.HEAP_DUMP || tag === TAG.HEAP_DUMP_END || ++records > MAX_RECORDS_BEFORE_HEAP) return undefined;
      } else if (ended || (tag !== TAG.HEAP_DUMP_SEGMENT && tag !== TAG.HEAP_DUMP_END)) return undefined;
      if (tag === TAG.HEAP_DUMP_SEGMENT) segments.push(at);
      else if (tag === TAG.HEAP_DUMP_END) ended = true;
      at = next;
    }
    return segments;
  }
}
