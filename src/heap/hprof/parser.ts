/**
 * A push parser for HPROF: feed it bytes, it calls the visitor for each record it understands and
 * says how many bytes it consumed. It never buffers on its own, so the caller (the byte source)
 * decides how data arrives: a plain file is read with positioned reads and skipped bodies are never
 * read at all; a gzip stream is inflated and skipped bodies are discarded.
 *
 * Consumed may exceed the bytes given: that is a skip over a body the visitor does not want.
 * When it cannot go on, `need` says how many contiguous bytes from the current position it needs.
 */
import { basicTypeSize, HprofType, isReferenceType, rootRecordSize, SUB, TAG } from './format.js';

export interface HprofHeader {
  readonly version: string;
  readonly idSize: 4 | 8;
  readonly timestampMs: number;
}

export type StaticValue = number | boolean | bigint | null;

export interface ClassDumpRecord {
  readonly id: number;
  readonly superId: number;
  readonly loaderId: number;
  /** Sum of the HPROF sizes of the declared instance fields (references count idSize). */
  readonly instanceSize: number;
  readonly statics: ReadonlyArray<{ readonly nameId: number; readonly type: number; readonly value: StaticValue }>;
  readonly fields: ReadonlyArray<{ readonly nameId: number; readonly type: number }>;
}

/**
 * Callbacks; all optional. The `...Header` callbacks run for every object and decide, by returning
 * true, whether the body is wanted; wanted bodies arrive in the matching data callback. Buffers passed
 * to callbacks are views valid only during the call.
 */
export interface HprofVisitor {
  header?(h: HprofHeader): void;
  utf8?(id: number, bytes: Buffer): void;
  loadClass?(classSerial: number, classId: number, nameId: number): void;
  classDump?(c: ClassDumpRecord): void;
  root?(subTag: number, id: number, threadSerial: number, frame: number): void;
  trace?(serial: number, threadSerial: number, frameIds: number[]): void;
  frame?(id: number, methodNameId: number, signatureId: number, sourceFileId: number, classSerial: number, line: number): void;
  instanceHeader?(id: number, classId: number, byteLength: number): boolean;
  instanceData?(id: number, classId: number, data: Buffer): void;
  /**
   * The instance's field bytes where they lie, `length` bytes from `at` in `view` (which spans the
   * whole buffer): given instead of instanceData when the visitor has it. A pass over every object
   * (the object graph's) spent a sixth of its time making the Buffer views instanceData is given.
   */
  instanceFields?(id: number, classId: number, view: DataView, at: number, length: number): void;
  objectArrayHeader?(id: number, arrayClassId: number, length: number): boolean;
  objectArrayData?(id: number, arrayClassId: number, elements: Float64Array): void;
  /** The array's element ids where they lie (`length` ids of idSize bytes from `at`): instead of objectArrayData, with no array made. */
  objectArrayElements?(id: number, arrayClassId: number, view: DataView, at: number, length: number): void;
  /**
   * An object array too big to hand over whole (over MAX_DELIVERED_BODY: a map's table of millions of
   * entries), in pieces as its bytes arrive: `count` ids from `at`, the first of them element `first`
   * of `length`. Asked for by objectArrayHeader, as a whole body is; a visitor without it that takes
   * objectArrayData is given the whole array, gathered from the pieces.
   */
  objectArrayPiece?(id: number, arrayClassId: number, view: DataView, at: number, count: number, first: number, length: number): void;
  primitiveArrayHeader?(id: number, elementType: number, length: number): boolean;
  primitiveArrayData?(id: number, elementType: number, data: Buffer): void;
  /** The array's bytes where they lie (`length` bytes from `at` in `view`): instead of primitiveArrayData when the visitor has it (no Buffer made). */
  primitiveArrayBytes?(id: number, elementType: number, view: DataView, at: number, length: number): void;
}

export class HprofFormatError extends Error {}

/** Warnings listed one by one; past this, they are counted. */
const MAX_WARNINGS = 100;

/**
 * Gathers the pieces of an object array into one array of ids, for a reader that takes whole arrays:
 * gives the array once its last piece is in, else undefined.
 */
export class ArrayAssembly {
  private elements: Float64Array | undefined;

  piece(view: DataView, at: number, count: number, first: number, length: number, idSize: number): Float64Array | undefined {
    if (first === 0) this.elements = new Float64Array(length);
    const elements = this.elements;
    if (elements === undefined) return undefined;
    for (let i = 0, o = at; i < count; i++, o += idSize) elements[first + i] = readId(view, o, idSize);
    if (first + count < length) return undefined;
    this.elements = undefined;
    return elements;
  }
}

/** Arrays of more elements are not gathered whole for a reader (8 bytes each): their pieces go only to readers of pieces. */
export const MAX_GATHERED_ELEMENTS = 1 << 26;

/** Bodies bigger than this are never handed to the visitor whole (object arrays go in pieces to those that take them). */
export const MAX_DELIVERED_BODY = 64 * 1024 * 1024;

const enum State {
  FileHeader,
  Records,
  Ended,
}

export class HprofParser {
  header: HprofHeader | undefined;
  /** Contiguous bytes needed at the current position to make progress (0 when it just needs more). */
  need = 0;
  /** Bytes of the current heap-dump segment not yet parsed. */
  private segmentLeft = 0;
  private state: State = State.FileHeader;
  private idSize = 8;
  /** Offset (in the uncompressed stream) of the next byte to parse. */
  offset = 0;
  readonly warnings: string[] = [];
  private suppressedWarnings = 0;
  sawHeapDumpEnd = false;
  sawSegments = false;
  sawHeapDump = false;
  recordsSkipped = 0;
  /**
   * Heap dumps the file holds: the old hprof agent (`-agentlib:hprof`) appends one each time it is
   * asked. Only the first is read, as MAT and VisualVM open the first: read together, every object
   * would be there twice.
   */
  heapDumps = 0;
  /** Between a heap dump's first segment and its HEAP_DUMP_END: a segment here continues that dump. */
  private inSegmentedDump = false;
  /** Which of the file's heap dumps is read (1 = the first; `--dump N`). */
  private wantedDump = 1;

  /** Reads the `n`th heap dump of the file (counting from 1) instead of the first. */
  selectHeapDump(n: number): void {
    this.wantedDump = n;
  }
  /** Classes whose instance fields include a type code HPROF does not have: their instances cannot be read. */
  classesWithInvalidFields = 0;
  /** The object array whose elements are being handed over in pieces, and the next element. */
  private streamed: { id: number; classId: number; length: number; next: number; gather: ArrayAssembly | undefined } | undefined;
  private view: DataView | undefined;
  private viewBuffer: ArrayBufferLike | undefined;

  /**
   * Runs of object records are read by headerRun: for every visitor but the object graph's, which
   * takes every object's body (its instanceFields) and gains nothing from it.
   */
  private readonly inRuns: boolean;
  private readonly wantsInstances: boolean;
  private readonly wantsObjectArrays: boolean;
  private readonly wantsPrimitiveArrays: boolean;

  constructor(private readonly visitor: HprofVisitor) {
    const v = visitor;
    this.inRuns = v.instanceFields === undefined && v.objectArrayElements === undefined;
    this.wantsInstances = v.instanceData !== undefined;
    this.wantsObjectArrays = v.objectArrayData !== undefined || v.objectArrayPiece !== undefined;
    this.wantsPrimitiveArrays = v.primitiveArrayData !== undefined || v.primitiveArrayBytes !== undefined;
  }

  get ended(): boolean {
    return this.state === State.Ended;
  }

  /** True when the parser stands between records (nothing half-read). */
  get atRecordBoundary(): boolean {
    return this.segmentLeft === 0;
  }

  private dataView(buf: Buffer): DataView {
    if (this.viewBuffer !== buf.buffer || this.view === undefined) {
      this.view = new DataView(buf.buffer, 0, buf.buffer.byteLength);
      this.viewBuffer = buf.buffer;
    }
    return this.view;
  }

  push(buf: Buffer, start: number, end: number): number {
    this.need = 0;
    if (this.state === State.Ended) return end - start;
    const dv = this.dataView(buf);
    const base = buf.byteOffset;
    this.pushBase = this.offset - start;
    let p = start;
    if (this.state === State.FileHeader) {
      const headerEnd = this.parseFileHeader(buf, dv, base, p, end);
      if (headerEnd < 0) return 0;
      p = headerEnd;
    }
    const idSize = this.idSize;
    const v = this.visitor;
    while (p < end) {
      if (this.segmentLeft > 0) {
        if (this.inRuns && this.streamed === undefined) {
          const run = this.headerRun(buf, dv, base, p, end, idSize, v);
          if (run > 0) {
            p += run;
            continue;
          }
        }
        const used = this.streamed !== undefined ? this.arrayPiece(dv, base, p, end, idSize, v) : this.subRecord(buf, dv, base, p, end, idSize, v);
        if (used === 0) break;
        p += used;
        continue;
      }
      if (end - p < 9) {
        this.need = 9;
        break;
      }
      const tag = buf[p]!;
      const length = dv.getUint32(base + p + 5);
      const body = p + 9;
      if (tag === TAG.HEAP_DUMP_SEGMENT || tag === TAG.HEAP_DUMP) {
        if (tag === TAG.HEAP_DUMP || !this.inSegmentedDump) this.heapDumps++;
        this.inSegmentedDump = tag === TAG.HEAP_DUMP_SEGMENT;
        if (this.heapDumps !== this.wantedDump) {
          // Another heap dump than the one read: skipped whole (see heapDumps).
          p = body + length;
          continue;
        }
        this.sawSegments ||= tag === TAG.HEAP_DUMP_SEGMENT;
        this.sawHeapDump = true;
        this.segmentLeft = length;
        p = body;
        continue;
      }
      if (tag === TAG.HEAP_DUMP_END) {
        this.inSegmentedDump = false;
        this.sawHeapDumpEnd = true;
        p = body + length;
        continue;
      }
      if (tag === TAG.UTF8 && length > idSize + MAX_NAME_BYTES) {
        // Names (of classes, fields, methods, files) are symbols, at most 65,535 bytes in any JVM: a
        // longer one is a damaged length, which has hidden whatever records it now covers.
        this.warn(
          `a name record (STRING IN UTF8) at offset ${this.offsetOf(p)} claims ${length} bytes, more than a JVM name can hold ` +
            `(${MAX_NAME_BYTES}): its length is damaged, and the records it covers were skipped`,
        );
        this.recordsSkipped++;
        p = body + length;
        continue;
      }
      const wanted =
        (tag === TAG.UTF8 && v.utf8 !== undefined) ||
        tag === TAG.LOAD_CLASS ||
        (tag === TAG.TRACE && v.trace !== undefined) ||
        (tag === TAG.FRAME && v.frame !== undefined);
      if (!wanted) {
        if (!isKnownTag(tag)) {
          this.warn(`unknown record tag 0x${tag.toString(16)} at offset ${this.offsetOf(p)} (${length} bytes skipped)`);
          this.recordsSkipped++;
        }
        p = body + length;
        continue;
      }
      if (length > MAX_DELIVERED_BODY) {
        this.warn(`a ${length}-byte record (tag 0x${tag.toString(16)}) at offset ${this.offsetOf(p)} was skipped as implausibly large`);
        this.recordsSkipped++;
        p = body + length;
        continue;
      }
      if (body + length > end) {
        this.need = 9 + length;
        break;
      }
      this.topRecord(tag, buf, dv, base, body, length, idSize, v);
      p = body + length;
    }
    const consumed = p - start;
    this.offset += consumed;
    return consumed;
  }

  private parseFileHeader(buf: Buffer, dv: DataView, base: number, p: number, end: number): number {
    const nul = buf.indexOf(0, p);
    if (nul < 0 || nul + 13 > end) {
      if (end - p >= 64 && nul < 0) throw new HprofFormatError('no HPROF header: the file does not start with "JAVA PROFILE 1.0.x"');
      this.need = Math.max(64, nul < 0 ? 0 : nul + 13 - p);
      return -1;
    }
    const version = buf.toString('latin1', p, nul);
    if (!/^JAVA PROFILE 1\.0\.\d$/.test(version)) throw new HprofFormatError(`not an HPROF file (header "${version.slice(0, 40)}")`);
    const idSize = dv.getUint32(base + nul + 1);
    if (idSize !== 4 && idSize !== 8) throw new HprofFormatError(`HPROF id size ${idSize} is not supported (only 4 and 8 exist)`);
    const timestampMs = dv.getUint32(base + nul + 5) * 4294967296 + dv.getUint32(base + nul + 9);
    this.idSize = idSize;
    this.header = { version: version.slice('JAVA PROFILE '.length), idSize, timestampMs };
    this.visitor.header?.(this.header);
    this.state = State.Records;
    return nul + 13;
  }

  private topRecord(tag: number, buf: Buffer, dv: DataView, base: number, body: number, length: number, idSize: number, v: HprofVisitor): void {
    const id = (o: number) => readId(dv, base + o, idSize);
    switch (tag) {
      case TAG.UTF8:
        if (length >= idSize) v.utf8!(id(body), buf.subarray(body + idSize, body + length));
        return;
      case TAG.LOAD_CLASS:
        if (length >= 8 + 2 * idSize) v.loadClass?.(dv.getUint32(base + body), id(body + 4), id(body + 8 + idSize));
        return;
      case TAG.FRAME:
        if (length >= 4 * idSize + 8) {
          v.frame!(
            id(body),
            id(body + idSize),
            id(body + 2 * idSize),
            id(body + 3 * idSize),
            dv.getUint32(base + body + 4 * idSize),
            dv.getInt32(base + body + 4 * idSize + 4),
          );
        }
        return;
      case TAG.TRACE: {
        if (length < 12) return;
        const n = dv.getUint32(base + body + 8);
        if (12 + n * idSize > length) return;
        const frames: number[] = [];
        for (let i = 0; i < n; i++) frames.push(id(body + 12 + i * idSize));
        v.trace!(dv.getUint32(base + body), dv.getUint32(base + body + 4), frames);
        return;
      }
      default:
        return;
    }
  }

  /** Parses one sub-record at p; returns the bytes used (possibly past `end`: a skip), or 0 when it needs more. */
  private subRecord(buf: Buffer, dv: DataView, base: number, p: number, end: number, idSize: number, v: HprofVisitor): number {
    const sub = buf[p]!;
    this.recordStart = p;
    this.recordSegmentLeft = this.segmentLeft;
    const avail = end - p;
    let used: number;
    switch (sub) {
      case SUB.INSTANCE_DUMP: {
        const head = 1 + 2 * idSize + 8;
        if (avail < head) return this.needBytes(head);
        const id = readId(dv, base + p + 1, idSize);
        const classId = readId(dv, base + p + 5 + idSize, idSize);
        const n = dv.getUint32(base + p + 5 + 2 * idSize);
        used = head + n;
        if (used > this.segmentLeft) return this.corruptSegment(p, 'an instance runs past the end of its segment');
        if (
          (this.asks(p) ? (this.answer = v.instanceHeader !== undefined && v.instanceHeader(id, classId, n)) : this.answer) &&
          (v.instanceFields !== undefined || v.instanceData !== undefined)
        ) {
          if (avail < used) return this.needBytes(used);
          if (v.instanceFields !== undefined) v.instanceFields(id, classId, dv, base + p + head, n);
          else v.instanceData!(id, classId, buf.subarray(p + head, p + used));
        }
        break;
      }
      case SUB.OBJ_ARRAY_DUMP: {
        const head = 1 + 2 * idSize + 8;
        if (avail < head) return this.needBytes(head);
        const id = readId(dv, base + p + 1, idSize);
        const n = dv.getUint32(base + p + 5 + idSize);
        const classId = readId(dv, base + p + 9 + idSize, idSize);
        used = head + n * idSize;
        if (used > this.segmentLeft) return this.corruptSegment(p, 'an object array runs past the end of its segment');
        if (
          (this.asks(p) ? (this.answer = v.objectArrayHeader !== undefined && v.objectArrayHeader(id, classId, n)) : this.answer) &&
          (v.objectArrayElements !== undefined || v.objectArrayData !== undefined || v.objectArrayPiece !== undefined)
        ) {
          if (used > MAX_DELIVERED_BODY) {
            const gathers = v.objectArrayPiece === undefined && v.objectArrayData !== undefined && n <= MAX_GATHERED_ELEMENTS;
            if (v.objectArrayPiece !== undefined || gathers) {
              // Its elements follow in pieces, as they arrive (see arrayPiece).
              this.streamed = { id, classId, length: n, next: 0, gather: gathers ? new ArrayAssembly() : undefined };
              used = head;
            } else this.warn(`object array 0x${id.toString(16)} (${n} elements) is too large to load; skipped`);
          } else if (v.objectArrayElements !== undefined) {
            if (avail < used) return this.needBytes(used);
            v.objectArrayElements(id, classId, dv, base + p + head, n);
          } else {
            if (avail < used) return this.needBytes(used);
            const elements = new Float64Array(n);
            for (let i = 0, o = base + p + head; i < n; i++, o += idSize) elements[i] = readId(dv, o, idSize);
            v.objectArrayData!(id, classId, elements);
          }
        }
        break;
      }
      case SUB.PRIM_ARRAY_DUMP: {
        const head = 1 + idSize + 9;
        if (avail < head) return this.needBytes(head);
        const id = readId(dv, base + p + 1, idSize);
        const n = dv.getUint32(base + p + 5 + idSize);
        const type = buf[p + 9 + idSize]!;
        const size = basicTypeSize(type, idSize);
        if (size === 0 || isReferenceType(type)) return this.corruptSegment(p, `a primitive array has element type ${type}`);
        used = head + n * size;
        if (used > this.segmentLeft) return this.corruptSegment(p, 'a primitive array runs past the end of its segment');
        if (
          (this.asks(p) ? (this.answer = v.primitiveArrayHeader !== undefined && v.primitiveArrayHeader(id, type, n)) : this.answer) &&
          this.wantsPrimitiveArrays
        ) {
          if (used > MAX_DELIVERED_BODY) {
            this.warn(`primitive array 0x${id.toString(16)} (${n} elements) is too large to load; skipped`);
          } else {
            if (avail < used) return this.needBytes(used);
            if (v.primitiveArrayBytes !== undefined) v.primitiveArrayBytes(id, type, dv, base + p + head, used - head);
            else v.primitiveArrayData!(id, type, buf.subarray(p + head, p + used));
          }
        }
        break;
      }
      case SUB.PRIM_ARRAY_NODATA: {
        // Android's primitive array written without its elements: an object all the same, of its length
        // (MAT counts it); it has no data to deliver.
        used = 1 + idSize + 9;
        if (avail < used) return this.needBytes(used);
        const type = buf[p + 9 + idSize]!;
        if (basicTypeSize(type, idSize) !== 0 && !isReferenceType(type) && this.asks(p))
          v.primitiveArrayHeader?.(readId(dv, base + p + 1, idSize), type, dv.getUint32(base + p + 5 + idSize));
        break;
      }
      case SUB.CLASS_DUMP: {
        const size = classDumpSize(buf, dv, base, p, end, idSize);
        if (size === INVALID_TYPE) return this.corruptSegment(p, 'a class dump with a constant or static field of no HPROF type');
        if (size < 0) return this.needBytes(Math.max(avail * 2, 4096));
        if (size > this.segmentLeft) return this.corruptSegment(p, 'a class dump runs past the end of its segment');
        const classDump = decodeClassDump(buf, dv, base, p, idSize);
        const invalid = classDump.fields.find((f) => basicTypeSize(f.type, idSize) === 0);
        if (invalid !== undefined) {
          this.classesWithInvalidFields++;
          this.warn(
            `class 0x${classDump.id.toString(16)} declares an instance field of type code ${invalid.type}, which HPROF does not have: ` +
              'the fields of its instances cannot be read (they count, with no references)',
          );
        }
        v.classDump?.(classDump);
        used = size;
        break;
      }
      default: {
        const size = rootRecordSize(sub, idSize);
        if (size < 0) return this.corruptSegment(p, `unknown heap sub-record 0x${sub.toString(16)}`);
        used = 1 + size;
        if (avail < used) return this.needBytes(used);
        // Android's heap-info record names the heap that follows (app, image, zygote): not a GC root.
        if (v.root !== undefined && sub !== SUB.HEAP_DUMP_INFO) {
          const threadSerial =
            sub === SUB.ROOT_JNI_LOCAL ||
            sub === SUB.ROOT_JAVA_FRAME ||
            sub === SUB.ROOT_THREAD_OBJ ||
            sub === SUB.ROOT_NATIVE_STACK ||
            sub === SUB.ROOT_THREAD_BLOCK
              ? dv.getUint32(base + p + 1 + idSize)
              : 0;
          const frame = sub === SUB.ROOT_JNI_LOCAL || sub === SUB.ROOT_JAVA_FRAME || sub === SUB.ROOT_THREAD_OBJ ? dv.getInt32(base + p + 5 + idSize) : 0;
          v.root(sub, readId(dv, base + p + 1, idSize), threadSerial, frame);
        }
        break;
      }
    }
    this.segmentLeft -= used;
    return used;
  }

  /**
   * The object records from p whose headers are all in the buffer, one after the other in one loop,
   * their header callbacks asked; returns the bytes used (past `end` when the last body lies beyond
   * the buffer: a skip). Stops before anything else (another kind of record, a header cut by the
   * buffer's end, a size past the segment's end) and at an object whose body was asked for, which
   * subRecord then reads (the answer kept: it is not asked again), or reports. A pass that wants few
   * bodies (the histogram, the loader's, the step names') spent two thirds of its time in the calls
   * and stores around each record; objects are nearly every record of a heap.
   */
  private headerRun(buf: Buffer, dv: DataView, base: number, p: number, end: number, idSize: number, v: HprofVisitor): number {
    // Asked already, its body not yet all in the buffer: subRecord's.
    if (this.pushBase + p === this.askedAt) return 0;
    const start = p;
    let left = this.segmentLeft;
    const { instanceHeader, objectArrayHeader, primitiveArrayHeader } = v;
    // The longest header of the three (an instance's or an object array's).
    const head = 1 + 2 * idSize + 8;
    const primitiveHead = 1 + idSize + 9;
    while (end - p >= head && left > 0) {
      const sub = buf[p]!;
      let used: number;
      let wanted: boolean;
      this.recordStart = p;
      this.recordSegmentLeft = left;
      if (sub === SUB.INSTANCE_DUMP) {
        const n = dv.getUint32(base + p + 5 + 2 * idSize);
        used = head + n;
        if (used > left) break;
        wanted =
          instanceHeader !== undefined && instanceHeader(readId(dv, base + p + 1, idSize), readId(dv, base + p + 5 + idSize, idSize), n) && this.wantsInstances;
      } else if (sub === SUB.OBJ_ARRAY_DUMP) {
        const n = dv.getUint32(base + p + 5 + idSize);
        used = head + n * idSize;
        if (used > left) break;
        wanted =
          objectArrayHeader !== undefined &&
          objectArrayHeader(readId(dv, base + p + 1, idSize), readId(dv, base + p + 9 + idSize, idSize), n) &&
          this.wantsObjectArrays;
      } else if (sub === SUB.PRIM_ARRAY_DUMP) {
        const type = buf[p + 9 + idSize]!;
        const size = basicTypeSize(type, idSize);
        if (size === 0 || isReferenceType(type)) break;
        const n = dv.getUint32(base + p + 5 + idSize);
        used = primitiveHead + n * size;
        if (used > left) break;
        wanted = primitiveArrayHeader !== undefined && primitiveArrayHeader(readId(dv, base + p + 1, idSize), type, n) && this.wantsPrimitiveArrays;
      } else break;
      if (wanted) {
        // Asked: subRecord delivers its body with this answer (see asks).
        this.askedAt = this.pushBase + p;
        this.answer = true;
        break;
      }
      left -= used;
      p += used;
    }
    this.segmentLeft = left;
    return p - start;
  }

  /** The next piece of the object array being streamed: as many of its ids as the buffer holds. */
  private arrayPiece(dv: DataView, base: number, p: number, end: number, idSize: number, v: HprofVisitor): number {
    const s = this.streamed!;
    const count = Math.min(s.length - s.next, Math.floor((end - p) / idSize));
    if (count === 0) return this.needBytes(idSize);
    if (s.gather === undefined) v.objectArrayPiece!(s.id, s.classId, dv, base + p, count, s.next, s.length);
    else {
      const whole = s.gather.piece(dv, base + p, count, s.next, s.length, idSize);
      if (whole !== undefined) v.objectArrayData!(s.id, s.classId, whole);
    }
    s.next += count;
    if (s.next === s.length) this.streamed = undefined;
    const used = count * idSize;
    this.segmentLeft -= used;
    return used;
  }

  private needBytes(n: number): number {
    this.need = n;
    return 0;
  }

  /** A sub-record the parser cannot size: the rest of its segment is skipped, the next segment parsed. */
  private corruptSegment(p: number, what: string): number {
    this.warn(`${what} at offset ${this.offsetOf(p)}; the rest of that heap-dump segment (${this.segmentLeft} bytes) was skipped`);
    this.recordsSkipped++;
    const left = this.segmentLeft;
    this.segmentLeft = 0;
    return left;
  }

  private recordStart = 0;
  private recordSegmentLeft = 0;

  /** Where the sub-record being reported starts, and how much of its segment is left from there (for an index). */
  get recordOffset(): number {
    return this.pushBase + this.recordStart;
  }

  get recordSegmentRemaining(): number {
    return this.recordSegmentLeft;
  }

  /**
   * Puts the parser at a sub-record boundary inside a heap-dump segment found by an earlier pass,
   * so a block of the file can be parsed on its own.
   */
  resumeAt(header: HprofHeader, offset: number, segmentLeft: number): void {
    this.header = header;
    this.idSize = header.idSize;
    this.state = State.Records;
    this.offset = offset;
    this.segmentLeft = segmentLeft;
    this.streamed = undefined;
    // Another place in the file: no record there has been asked about.
    this.askedAt = -1;
  }

  /**
   * Puts the parser at a segment record of the heap dump it reads, found by an earlier look at the
   * file (see file-parts.ts), so that the file's rest from there is parsed on its own.
   */
  resumeInHeapDump(header: HprofHeader, offset: number): void {
    this.resumeAt(header, offset, 0);
    this.heapDumps = this.wantedDump;
    this.inSegmentedDump = true;
    this.sawSegments = true;
    this.sawHeapDump = true;
  }

  /** Stream offset of buf[0] during the current push, for messages that name where things are. */
  private pushBase = 0;

  /**
   * A header callback is asked once per record: when the body it asked for is not all in the
   * buffer yet, the record is read again on the next push, and the answer given is kept for it
   * (a visitor that counts or indexes in its header callback would otherwise count the record twice).
   */
  private askedAt = -1;
  private answer = false;

  /** Whether the header of the record at `p` is still to be asked (and marks it asked). */
  private asks(p: number): boolean {
    const at = this.pushBase + p;
    if (at === this.askedAt) return false;
    this.askedAt = at;
    return true;
  }
  private offsetOf(p: number): number {
    return this.pushBase + p;
  }

  warn(message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(message);
    else this.suppressedWarnings++;
  }

  /** The warnings, with a count of those beyond the first MAX_WARNINGS and of every record skipped. */
  warningReport(): string[] {
    const which = this.wantedDump === 1 ? 'the first was read, as MAT and VisualVM read it' : `dump ${this.wantedDump} was read (--dump)`;
    const dumps =
      this.heapDumps > 1
        ? [
            `the file holds ${this.heapDumps} heap dumps (the old hprof agent appends one each time it is asked); ` +
              `${which}, and the other ${this.heapDumps - 1} skipped${this.wantedDump === 1 ? ' (--dump N reads another)' : ''}`,
          ]
        : [];
    if (this.suppressedWarnings === 0) return [...dumps, ...this.warnings];
    return [
      ...dumps,
      ...this.warnings,
      `${this.suppressedWarnings} more warnings like these were not listed; ${this.recordsSkipped} records or heap-dump segments were skipped in all`,
    ];
  }
}

function isKnownTag(tag: number): boolean {
  return (tag >= 0x01 && tag <= 0x0e && tag !== 0x08 && tag !== 0x09) || tag === 0x1c || tag === 0x2c;
}

export function readId(dv: DataView, o: number, idSize: number): number {
  return idSize === 8 ? dv.getUint32(o) * 4294967296 + dv.getUint32(o + 4) : dv.getUint32(o);
}

/** A JVM symbol's longest UTF-8 form (a class file's CONSTANT_Utf8 length is a u2). */
const MAX_NAME_BYTES = 65535;

/** classDumpSize's answer for a constant or static of a type code HPROF does not have: the record cannot be sized. */
const INVALID_TYPE = -2;

/** Total size of the CLASS_DUMP at p, or -1 when the buffer ends before it does (INVALID_TYPE: it cannot be sized). */
function classDumpSize(buf: Buffer, dv: DataView, base: number, p: number, end: number, idSize: number): number {
  let o = p + 1 + 7 * idSize + 8;
  if (o + 2 > end) return -1;
  const cp = dv.getUint16(base + o);
  o += 2;
  for (let i = 0; i < cp; i++) {
    if (o + 3 > end) return -1;
    const size = basicTypeSize(buf[o + 2]!, idSize);
    if (size === 0) return INVALID_TYPE;
    o += 3 + size;
  }
  if (o + 2 > end) return -1;
  const statics = dv.getUint16(base + o);
  o += 2;
  for (let i = 0; i < statics; i++) {
    if (o + idSize + 1 > end) return -1;
    const size = basicTypeSize(buf[o + idSize]!, idSize);
    if (size === 0) return INVALID_TYPE;
    o += idSize + 1 + size;
  }
  if (o + 2 > end) return -1;
  const fields = dv.getUint16(base + o);
  o += 2 + fields * (idSize + 1);
  return o > end ? -1 : o - p;
}

function decodeClassDump(buf: Buffer, dv: DataView, base: number, p: number, idSize: number): ClassDumpRecord {
  const id = (o: number) => readId(dv, base + o, idSize);
  const classId = id(p + 1);
  const superId = id(p + 5 + idSize);
  const loaderId = id(p + 5 + 2 * idSize);
  let o = p + 1 + 7 * idSize + 4;
  const instanceSize = dv.getUint32(base + o);
  o += 4;
  const cp = dv.getUint16(base + o);
  o += 2;
  for (let i = 0; i < cp; i++) o += 3 + basicTypeSize(buf[o + 2]!, idSize);
  const staticCount = dv.getUint16(base + o);
  o += 2;
  const statics: Array<{ nameId: number; type: number; value: StaticValue }> = [];
  for (let i = 0; i < staticCount; i++) {
    const nameId = id(o);
    const type = buf[o + idSize]!;
    o += idSize + 1;
    statics.push({ nameId, type, value: readValue(buf, dv, base, o, type, idSize) });
    o += basicTypeSize(type, idSize);
  }
  const fieldCount = dv.getUint16(base + o);
  o += 2;
  const fields: Array<{ nameId: number; type: number }> = [];
  for (let i = 0; i < fieldCount; i++) {
    fields.push({ nameId: id(o), type: buf[o + idSize]! });
    o += idSize + 1;
  }
  return { id: classId, superId, loaderId, instanceSize, statics, fields };
}

/** A value of a basic type at o: object ids as numbers (0 = null), longs as bigint. */
export function readValue(buf: Uint8Array, dv: DataView, base: number, o: number, type: number, idSize: number): StaticValue {
  switch (type) {
    case HprofType.ARRAY_OBJECT:
    case HprofType.OBJECT: {
      const ref = readId(dv, base + o, idSize);
      return ref === 0 ? null : ref;
    }
    case HprofType.BOOLEAN:
      return buf[o] !== 0;
    case HprofType.CHAR:
      return dv.getUint16(base + o);
    case HprofType.FLOAT:
      return dv.getFloat32(base + o);
    case HprofType.DOUBLE:
      return dv.getFloat64(base + o);
    case HprofType.BYTE:
      return dv.getInt8(base + o);
    case HprofType.SHORT:
      return dv.getInt16(base + o);
    case HprofType.INT:
      return dv.getInt32(base + o);
    case HprofType.LONG:
      return dv.getBigInt64(base + o);
    default:
      return null;
  }
}
