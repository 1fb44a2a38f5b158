/**
 * What the memory-waste analysis needs of an HPROF that the object graph does not keep, gathered on
 * the graph's own pass (it rides on the graph builder: heap/waste/waste-facts.ts says what and why):
 * a key of each byte[] and char[]'s contents, which primitive arrays are all zeros, and each JDK
 * collection's count with where its table and inner collection are.
 *
 * Cost, measured on the 1.9 GB bench heap (docs/benchmarks.md): a byte[] or char[] costs 12 bytes
 * of facts, a collection 25, a zero array 9; the contents are read once, as they pass.
 */
import { BitSet, ChunkedNumbers, RankedBits } from '../../waste/bits.js';
import { COLLECTION_KINDS, CONTAINER_BASES, isCollectionPart, type SizeSource, WALKED_ONLY_CLASS } from '../../waste/collection-kinds.js';
import { NOT_EMPTY_UNCOUNTED, WALKED_ONLY, type WasteFacts } from '../../waste/waste-facts.js';
import { type ClassMetadata } from '../class-metadata.js';
import { basicTypeSize, HprofType, isReferenceType } from '../format.js';
import { MAX_DELIVERED_BODY, readId } from '../parser.js';
import type { IdIndex } from './id-index.js';

/** Where a collection class's instances keep what the analysis reads: byte offsets in their field data (-1: not there). */
interface CollectionLayout {
  readonly kind: number;
  readonly size: SizeSource | undefined;
  readonly sizeAt: number;
  readonly unlessAt: number;
  readonly headAt: number;
  readonly tailAt: number;
  readonly tableAt: number;
  readonly innerAt: number;
}

/** A class's instances are no collection the analysis reads. */
const NONE: CollectionLayout = { kind: -1, size: undefined, sizeAt: -1, unlessAt: -1, headAt: -1, tailAt: -1, tableAt: -1, innerAt: -1 };

/**
 * What the pass keeps of a class: its collection layout and, for a class whose instances can be the
 * holder of waste (not a container) with two to 31 reference fields, where those fields are and which
 * of them are null in each instance, as a pattern id per instance: the object graph keeps only the
 * references that are not null, so which field an edge is depends on the nulls before it.
 */
interface ClassFacts {
  readonly layout: CollectionLayout;
  readonly refOffsets: Int32Array | undefined;
  readonly masks: number[];
  readonly idOfMask: Map<number, number>;
  /** The last instance's mask and its id (instances of a class come in runs, mostly alike). */
  lastMask: number;
  lastId: number;
}

/** Pattern ids fit a byte; 0 is "not recorded". */
const MAX_PATTERNS = 255;

export class WastePass {
  idSize = 8;
  private readonly valueArrays: BitSet;
  private readonly valueKeys = new ChunkedNumbers();
  private readonly zeroArrays: BitSet;
  private readonly collections = new Column(Int32Array);
  private readonly collectionKinds = new Column(Uint8Array);
  private readonly collectionSizes = new Column(Float64Array);
  private readonly tableIds = new Column(Float64Array);
  private readonly innerIds = new Column(Float64Array);
  private readonly classFacts = new Map<number, ClassFacts>();
  private lastClassId = -1;
  private lastFacts: ClassFacts | undefined;
  /** Per object index, the null pattern of a holder-class instance (0: none recorded). */
  private patterns: Uint8Array;
  private unreadArrays = 0;
  private instancesBeforeClass = 0;
  /** The object index of the array whose body comes next. */
  private pendingIndex = -1;

  /**
   * `indexOfLast`: the graph's index of the object its builder met last (this pass rides on the
   * builder, which sees each record first); `objects`: how many objects the dump is expected to
   * hold (the builder's estimate: the columns by object index start that big, untouched until used).
   */
  constructor(
    private readonly meta: ClassMetadata,
    private readonly indexOfLast: () => number,
    objects: number,
  ) {
    this.valueArrays = new BitSet(objects);
    this.zeroArrays = new BitSet(objects);
    this.patterns = new Uint8Array(objects);
  }

  instanceFields(classId: number, view: DataView, at: number, length: number): void {
    // Instances of one class come in runs: the last class's facts first.
    let facts = classId === this.lastClassId ? this.lastFacts : this.classFacts.get(classId);
    if (facts === undefined) {
      const found = this.classFactsOf(classId);
      if (found === undefined) {
        // A class record not met yet: whether this is a collection is unknown (HotSpot writes classes first).
        this.instancesBeforeClass++;
        return;
      }
      this.classFacts.set(classId, (facts = found));
    }
    this.lastClassId = classId;
    this.lastFacts = facts;
    const idSize = this.idSize;
    const end = at + length;
    if (facts.refOffsets !== undefined) this.notePattern(facts, facts.refOffsets, view, at, end);
    const layout = facts.layout;
    if (layout.kind < 0) return;
    const idAt = (offset: number) => (offset >= 0 && at + offset + idSize <= end ? readId(view, at + offset, idSize) : 0);
    this.collections.push(this.indexOfLast());
    this.collectionKinds.push(layout.kind);
    this.tableIds.push(idAt(layout.tableAt));
    this.innerIds.push(idAt(layout.innerAt));
    this.collectionSizes.push(this.sizeOf(layout, view, at, end, idAt));
  }

  /** Which reference fields of the instance are not null, as its class's pattern id, at its object index. */
  private notePattern(facts: ClassFacts, offsets: Int32Array, view: DataView, at: number, end: number): void {
    let mask = 0;
    const idSize = this.idSize;
    for (let k = 0; k < offsets.length; k++) {
      const o = at + offsets[k]!;
      if (o + idSize > end) break;
      if ((idSize === 8 ? view.getUint32(o) | view.getUint32(o + 4) : view.getUint32(o)) !== 0) mask |= 1 << k;
    }
    let id = mask === facts.lastMask ? facts.lastId : facts.idOfMask.get(mask);
    if (id === undefined) {
      if (facts.masks.length >= MAX_PATTERNS) return;
      id = facts.masks.push(mask);
      facts.idOfMask.set(mask, id);
    }
    facts.lastMask = mask;
    facts.lastId = id;
    const index = this.indexOfLast();
    if (index >= this.patterns.length) {
      const bigger = new Uint8Array(Math.max(index + 1, Math.ceil(this.patterns.length * 1.5)));
      bigger.set(this.patterns);
      this.patterns = bigger;
    }
    this.patterns[index] = id;
  }

  /** What the pass keeps of a class's instances; undefined while a class of its chain is not dumped. */
  private classFactsOf(classId: number): ClassFacts | undefined {
    const layout = this.layoutOf(classId);
    if (layout === undefined) return undefined;
    const offsets: number[] = [];
    const names: string[] = [];
    let offset = 0;
    for (let c = this.meta.classDumps.get(classId); c !== undefined; c = c.superId === 0 ? undefined : this.meta.classDumps.get(c.superId)) {
      names.push(this.meta.className(c.id));
      for (const f of c.fields) {
        if (isReferenceType(f.type)) offsets.push(offset);
        offset += basicTypeSize(f.type, this.idSize);
      }
      if (names.length > 64) break;
    }
    const container = isCollectionPart(names[0]!) || names.some((n) => CONTAINER_BASES.includes(n));
    const patterned = !container && offsets.length >= 2 && offsets.length <= 31;
    return { layout, refOffsets: patterned ? Int32Array.from(offsets) : undefined, masks: [], idOfMask: new Map(), lastMask: -1, lastId: 0 };
  }

  private sizeOf(layout: CollectionLayout, view: DataView, at: number, end: number, idAt: (offset: number) => number): number {
    const s = layout.size;
    if (s === undefined) return Number.NaN;
    const int = (offset: number) => (offset >= 0 && at + offset + 4 <= end ? view.getInt32(at + offset) : Number.NaN);
    if ('field' in s) {
      if (s.unlessSet !== undefined && idAt(layout.unlessAt) !== 0) return Number.NaN;
      if (s.long !== true) return int(layout.sizeAt);
      return layout.sizeAt >= 0 && at + layout.sizeAt + 8 <= end ? Number(view.getBigInt64(at + layout.sizeAt)) : Number.NaN;
    }
    // Worked out once the table's length is known (finish).
    if ('deque' in s) return int(layout.tailAt) - int(layout.headAt);
    if ('emptyWhenSame' in s) return idAt(layout.headAt) === idAt(layout.tailAt) ? 0 : NOT_EMPTY_UNCOUNTED;
    return Number.NaN;
  }

  /**
   * Where a class's instances keep their count, table and inner collection; NONE when it is no
   * collection read here; undefined while a class of its chain is not dumped.
   */
  private layoutOf(classId: number): CollectionLayout | undefined {
    const meta = this.meta;
    const chain: Array<{ readonly name: string; readonly fields: Array<{ readonly name: string; readonly type: number; readonly offset: number }> }> = [];
    let offset = 0;
    const seen = new Set<number>();
    for (let c = meta.classDumps.get(classId); ;) {
      if (c === undefined) return undefined;
      seen.add(c.id);
      const fields = [];
      for (const f of c.fields) {
        fields.push({ name: meta.fieldName(f.nameId), type: f.type, offset });
        const size = basicTypeSize(f.type, this.idSize);
        if (size === 0) return NONE; // a type HPROF does not have: where later fields lie is unknown
        offset += size;
      }
      chain.push({ name: meta.className(c.id), fields });
      if (c.superId === 0) break;
      c = meta.classDumps.get(c.superId);
      if (c !== undefined && seen.has(c.id)) return NONE; // a damaged dump's loop of superclasses
    }
    for (let k = 0; k < COLLECTION_KINDS.length; k++) {
      const kind = COLLECTION_KINDS[k]!;
      const from = chain.findIndex((c) => c.name === kind.base);
      if (from < 0) continue;
      // A field of the kind's base class or above: a subclass's own field of the same name is not the collection's.
      const fieldAt = (name: string | undefined, reference: boolean): number => {
        if (name === undefined) return -1;
        for (let c = from; c < chain.length; c++)
          for (const f of chain[c]!.fields) if (f.name === name && isReferenceType(f.type) === reference) return f.offset;
        return -1;
      };
      if (kind.inner !== undefined && fieldAt(kind.inner, true) < 0 && kind.size === undefined) continue; // a JDK 8 Properties: read as its Hashtable
      const s = kind.size;
      return {
        kind: k,
        size: s,
        sizeAt: s !== undefined && 'field' in s ? fieldAt(s.field, false) : -1,
        unlessAt: s !== undefined && 'field' in s ? fieldAt(s.unlessSet, true) : -1,
        headAt: s === undefined ? -1 : 'deque' in s ? fieldAt(s.deque.head, false) : 'emptyWhenSame' in s ? fieldAt(s.emptyWhenSame[0], true) : -1,
        tailAt: s === undefined ? -1 : 'deque' in s ? fieldAt(s.deque.tail, false) : 'emptyWhenSame' in s ? fieldAt(s.emptyWhenSame[1], true) : -1,
        tableAt: s !== undefined && 'emptyHeadNode' in s ? fieldAt(s.emptyHeadNode, true) : fieldAt(kind.table, true),
        innerAt: fieldAt(kind.inner, true),
      };
    }
    return WALKED_ONLY_CLASS.test(chain[0]!.name) ? { ...NONE, kind: WALKED_ONLY } : NONE;
  }

  /** Asks for the body of every primitive array worth reading: one of a String's kinds (its contents' key), or any other (whether it is all zeros). */
  primitiveArrayHeader(type: number, length: number): boolean {
    const index = this.indexOfLast();
    const value = type === HprofType.BYTE || type === HprofType.CHAR;
    if (length === 0) {
      if (value) this.noteValue(index, contentKey(type, EMPTY, 0, 0));
      return false;
    }
    if (length * basicTypeSize(type, 8) > MAX_DELIVERED_BODY) {
      this.unreadArrays++;
      if (value) this.noteValue(index, Number.NaN);
      return false;
    }
    this.pendingIndex = index;
    return true;
  }

  primitiveArrayBytes(type: number, view: DataView, at: number, length: number): void {
    const index = this.pendingIndex;
    let zero: boolean;
    if (type === HprofType.BYTE || type === HprofType.CHAR) {
      this.noteValue(index, contentKey(type, view, at, length));
      zero = lastAllZero;
    } else zero = allZero(view, at, length);
    if (zero) this.zeroArrays.set(index);
    this.pendingIndex = -1;
  }

  private noteValue(index: number, key: number): void {
    this.valueArrays.set(index);
    this.valueKeys.push(key);
  }

  /**
   * The facts by object index: the tables and inner collections found by their ids, each table's
   * length read from the graph's pass (`held`: an object array's -1 - length) before its sizes replace it.
   */
  finish(slotOfId: IdIndex, held: Int32Array, objects: number, classKeyOf: (classId: number) => number): WasteFacts {
    const n = this.collections.length;
    const tables = new Int32Array(n);
    const slots = new Int32Array(n);
    const inners = new Int32Array(n);
    const sizes = this.collectionSizes.done();
    const kinds = this.collectionKinds.done();
    const tableIds = this.tableIds.done();
    const innerIds = this.innerIds.done();
    for (let i = 0; i < n; i++) {
      const t = tableIds[i]! === 0 ? -1 : slotOfId.get(tableIds[i]!);
      tables[i] = t;
      const h = t >= 0 ? held[t]! : 0;
      slots[i] = h < 0 ? -1 - h : 0;
      inners[i] = innerIds[i]! === 0 ? -1 : slotOfId.get(innerIds[i]!);
      const kind = kinds[i]! === WALKED_ONLY ? undefined : COLLECTION_KINDS[kinds[i]!];
      const s = kind?.size;
      if (s !== undefined && 'deque' in s) sizes[i] = slots[i]! > 0 ? ((sizes[i]! % slots[i]!) + slots[i]!) % slots[i]! : 0;
      else if (s !== undefined && 'tableLength' in s) sizes[i] = t >= 0 ? slots[i]! : Number.NaN;
    }
    const patternMasks = new Map<number, Uint32Array>();
    for (const [classId, f] of this.classFacts) if (f.masks.length > 0) patternMasks.set(classKeyOf(classId), Uint32Array.from(f.masks));
    const holderPatterns = this.patterns.length >= objects ? this.patterns.subarray(0, objects) : grownTo(this.patterns, objects);
    const zeroArrays = new RankedBits(this.zeroArrays, objects);
    // An array's length is what the graph's pass holds for it until its size takes its place.
    const zeroLengths = new Int32Array(zeroArrays.count);
    zeroArrays.forEach((index, rank) => (zeroLengths[rank] = held[index]!));
    this.patterns = new Uint8Array(0);
    const superclasses = new Map<string, string>();
    for (const c of this.meta.classDumps.values()) if (c.superId !== 0) superclasses.set(this.meta.className(c.id), this.meta.className(c.superId));
    return {
      valueArrays: new RankedBits(this.valueArrays, objects),
      valueKeys: this.valueKeys,
      zeroArrays,
      zeroLengths,
      collections: this.collections.done(),
      collectionKinds: kinds,
      collectionSizes: sizes,
      collectionTables: tables,
      tableSlots: slots,
      collectionInners: inners,
      holderPatterns,
      patternMasks,
      superclasses,
      unreadArrays: this.unreadArrays,
      instancesBeforeClass: this.instancesBeforeClass,
    };
  }
}

const ZEROS = Buffer.alloc(64 * 1024);
const EMPTY = new DataView(new ArrayBuffer(0));

/** Whether the last contentKey's bytes were all zeros (read on the same loop). */
let lastAllZero = false;

/**
 * A 53-bit key of an array's type, length and bytes: two 32-bit multiplicative hashes of its 4-byte
 * words (and its last bytes), one in the high 32 bits and 21 of the other below. Equal contents give
 * equal keys; two different contents share a key about once in 2^53 pairs.
 */
function contentKey(type: number, view: DataView, at: number, length: number): number {
  let h1 = Math.imul(0x811c9dc5 ^ type, 16777619) ^ length;
  let h2 = Math.imul(0x9747b28c ^ length, 0x5bd1e995) ^ type;
  let any = 0;
  const words = at + (length & ~3);
  let i = at;
  for (; i < words; i += 4) {
    const w = view.getInt32(i);
    any |= w;
    h1 = Math.imul(h1 ^ w, 16777619);
    h2 = Math.imul(h2 + w, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  for (; i < at + length; i++) {
    const b = view.getUint8(i);
    any |= b;
    h1 = Math.imul(h1 ^ b, 16777619);
    h2 = Math.imul(h2 + b, 0x5bd1e995);
  }
  lastAllZero = any === 0;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  return (h1 >>> 0) * 2097152 + (h2 >>> 11);
}

/** Whether every byte is zero: small arrays word by word, big ones against a zero block (natively). */
function allZero(view: DataView, at: number, length: number): boolean {
  if (length <= 256) {
    const words = at + (length & ~3);
    let i = at;
    for (; i < words; i += 4) if (view.getInt32(i) !== 0) return false;
    for (; i < at + length; i++) if (view.getUint8(i) !== 0) return false;
    return true;
  }
  const bytes = Buffer.from(view.buffer, view.byteOffset + at, length);
  for (let from = 0; from < length; from += ZEROS.length) {
    const end = Math.min(length, from + ZEROS.length);
    if (bytes.compare(ZEROS, 0, end - from, from, end) !== 0) return false;
  }
  return true;
}

function grownTo(from: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  out.set(from.subarray(0, Math.min(n, from.length)));
  return out;
}

type TypedArray = Int32Array | Uint8Array | Float64Array;

/** A typed column that grows as facts are pushed; `done` gives the filled part. */
class Column<A extends TypedArray> {
  length = 0;
  private data: A;

  constructor(private readonly make: new (n: number) => A) {
    this.data = new make(1024);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new this.make(Math.ceil(this.data.length * 1.5));
      bigger.set(this.data as never);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  /** A view of the filled part (no copy: a copy would double the column at the end of the pass). */
  done(): A {
    return this.data.subarray(0, this.length) as A;
  }
}
