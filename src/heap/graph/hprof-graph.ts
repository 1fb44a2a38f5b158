/**
 * Builds the ObjectGraph of an HPROF file (plain or gzip) in one streaming pass. Every object is a
 * node with the shallow size the histogram gives it; every reference is an edge: instance fields
 * through the class hierarchy, array elements, a class's super, loader and static references, and
 * each object's class. What a thread's stack holds (Java-frame and JNI-local roots, which name
 * their thread) hangs under that thread's object, as MAT does, so a thread retains its locals.
 * References to ids not in the dump are counted and left out.
 */
import { feedHprof, hprofBytesToSizeFor, passEnd, type FeedOptions, type PassEnd } from '../hprof/byte-source.js';
import { ClassMetadata } from '../hprof/class-metadata.js';
import { basicTypeSize, isReferenceType, primitiveArrayClassName, readIdAt, SUB } from '../hprof/format.js';
import { truncationWarning } from '../hprof/hprof-warnings.js';
import { classObjectShallowSize, instanceShallowSize, objectArrayShallowSize, primitiveArrayShallowSize } from '../hprof/hprof-histogram.js';
import { IdSlots } from '../hprof/id-slots.js';
import { HprofFormatError, HprofParser, MAX_DELIVERED_BODY, readId as readIdIn, type ClassDumpRecord, type HprofVisitor } from '../hprof/parser.js';
import { addressTable } from './address-table.js';
import type { ObjectGraph, Referents } from './object-graph.js';
import type { ProgressListener } from '../../model/progress.js';

/** MAT's names for the root kinds, in the words the memory report uses. */
export const ROOT_KIND_NAMES: Readonly<Record<number, string>> = {
  [SUB.ROOT_UNKNOWN]: 'unknown',
  [SUB.ROOT_JNI_GLOBAL]: 'jni-global',
  [SUB.ROOT_JNI_LOCAL]: 'jni-local',
  [SUB.ROOT_JAVA_FRAME]: 'java-frame',
  [SUB.ROOT_NATIVE_STACK]: 'native-stack',
  [SUB.ROOT_STICKY_CLASS]: 'system-class',
  [SUB.ROOT_THREAD_BLOCK]: 'thread-block',
  [SUB.ROOT_MONITOR_USED]: 'busy-monitor',
  [SUB.ROOT_THREAD_OBJ]: 'thread',
};

/** Where the reference fields of a class's instances sit in their data (own fields first, then the superclasses'). */
interface InstanceLayout {
  readonly size: number;
  readonly refOffsets: Int32Array;
  /** Offset of java.lang.ref.Reference's `referent` for references, else -1: paths to roots skip it. */
  readonly referentOffset: number;
}

/** The object graph of a dump, in a pass of its own (see hprofGraphBuilder for one on the heap loader's). */
export async function hprofObjectGraph(path: string, onProgress?: ProgressListener, feed: Omit<FeedOptions, 'onProgress' | 'tee'> = {}): Promise<ObjectGraph> {
  const builder = hprofGraphBuilder(hprofBytesToSizeFor(path), new ClassMetadata(), true);
  const parser = new HprofParser(builder.visitor);
  const fed = await feedHprof(path, parser, onProgress !== undefined ? { ...feed, onProgress } : feed);
  return builder.finish(passEnd(parser, fed));
}

/** A pass's visitor that builds the object graph, and what makes the graph once the pass is over. */
export interface HprofGraphBuilder {
  readonly visitor: HprofVisitor;
  finish(pass: PassEnd): ObjectGraph;
}

/**
 * Builds the graph from the records of a pass it does not run itself: its own (hprofObjectGraph) or
 * the heap loader's first pass, which the builder rides on (one parse of the dump for both).
 * `hprofBytes` sizes the arrays; `meta` is the pass's class metadata, filled by this visitor when
 * `ownsMeta` and by the pass's owner otherwise (then its classDump must be called before this one's:
 * the loader's names are not decoded again, a fixed cost of every pass that weighs most on a small heap).
 */
export function hprofGraphBuilder(hprofBytes: number, meta: ClassMetadata, ownsMeta: boolean): HprofGraphBuilder {
  // Sized from the dump (an object takes about 50 bytes of HPROF; references about one per 30 bytes), so the arrays rarely grow.
  const objectGuess = Math.max(1 << 12, Math.min(1 << 27, Math.ceil(hprofBytes / 48)));
  const columns = new ObjectColumns(objectGuess);
  const targets = new RefStore(Math.max(1 << 12, Math.min(1 << 28, Math.ceil(hprofBytes / 28)))); // referenced ids, resolved to indexes after the pass
  const classKeyOf = new Map<string, number>();
  const classKeyNames: string[] = [];
  const keyFor = (name: string) => {
    let k = classKeyOf.get(name);
    if (k === undefined) classKeyOf.set(name, (k = classKeyNames.push(name) - 1));
    return k;
  };
  // Class keys by class id, named when the class's name is known (after the pass for safety).
  const classIdKeys = new IdSlots(4096);
  const pendingClassIds: number[] = [];
  // Objects of one class often come in runs: the last answer is kept.
  let lastClassId = -1;
  let lastClassKey = -1;
  const keyForClassId = (classId: number): number => {
    if (classId === lastClassId) return lastClassKey;
    let k = classIdKeys.get(classId);
    if (k < 0) {
      k = classKeyNames.push('') - 1;
      classIdKeys.set(classId, k);
      pendingClassIds.push(classId);
    }
    lastClassId = classId;
    lastClassKey = k;
    return k;
  };
  const CLASS_OBJECT_KEY = keyFor('java.lang.Class');
  // Primitive array classes by element type, looked up once per type rather than per array.
  const primitiveKeys = new Int32Array(32).fill(-1);
  const primitiveKey = (type: number) => (primitiveKeys[type] !== -1 ? primitiveKeys[type]! : (primitiveKeys[type] = keyFor(primitiveArrayClassName(type))));
  // Instance layouts by class key (a class id's key is its slot), once known.
  const layouts: Array<InstanceLayout | undefined> = [];
  let idSize = 8;

  const layoutOf = (classId: number, key: number = keyForClassId(classId)): InstanceLayout | undefined => {
    const known = layouts[key];
    if (known !== undefined) return known;
    const chain: ClassDumpRecord[] = [];
    const seen = new Set<number>();
    for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
      seen.add(c.id);
      chain.push(c);
    }
    if (chain.length === 0 || chain[chain.length - 1]!.superId !== 0) return undefined; // a superclass not yet dumped
    let offset = 0;
    const refs: number[] = [];
    let referentOffset = -1;
    for (const c of chain) {
      const isReference = c.fields.length > 0 && meta.className(c.id) === 'java.lang.ref.Reference';
      for (const f of c.fields) {
        const ref = isReferenceType(f.type);
        if (ref) refs.push(offset);
        if (ref && isReference && meta.fieldName(f.nameId) === 'referent') referentOffset = offset;
        offset += basicTypeSize(f.type, idSize);
      }
    }
    // The histogram's size model, so shallow sizes here and there are the same numbers.
    const layout = { size: instanceShallowSize(chain.flatMap((c) => c.fields), idSize), refOffsets: Int32Array.from(refs), referentOffset };
    layouts[key] = layout;
    return layout;
  };

  const readId = (data: Buffer, at: number): number => readIdAt(data, at, idSize);

  const addObject = (id: number, key: number, size: number): void => columns.add(id, key, size, targets.length);
  const ref = (id: number) => {
    if (id !== 0) targets.push(id);
  };

  // Instances whose class (or a superclass) was not dumped yet: their data, decoded after the pass.
  const late: Array<{ index: number; classId: number; data: Buffer }> = [];
  const lateEdges = new Map<number, number[]>();
  const classObjects: ClassDumpRecord[] = [];
  // Weak, soft, phantom and finalizer references and their referents, for strong-only paths.
  const referenceObjects: number[] = [];
  const referentIds: number[] = [];
  const roots: Array<{ kind: number; id: number; thread: number }> = [];
  let unread = 0;
  const threadObjectBySerial = new Map<number, number>();

  const visitor: HprofVisitor = {
    ...(ownsMeta ? meta.visitor() : {}),
    header: (h) => {
      idSize = h.idSize;
    },
    classDump: (c) => {
      if (ownsMeta) meta.classDumps.set(c.id, c);
      classObjects.push(c);
      addObject(c.id, CLASS_OBJECT_KEY, 0); // sized after the pass, as the histogram sizes java.lang.Class
      ref(c.superId);
      ref(c.loaderId);
      for (const s of c.statics) if (isReferenceType(s.type) && typeof s.value === 'number') ref(s.value);
    },
    root: (subTag, id, threadSerial) => {
      roots.push({ kind: subTag, id, thread: threadSerial });
      if (subTag === SUB.ROOT_THREAD_OBJ) threadObjectBySerial.set(threadSerial, id);
    },
    // A body too big to hand over is not asked for (in the loader's pass, asking would put the parser's
    // refusal among the load's warnings, or need more buffer than a byte source keeps): the object
    // counts, with its size and class, and its references are left out.
    instanceHeader: (id, classId, byteLength) => {
      if (byteLength <= MAX_DELIVERED_BODY) return true;
      const key = keyForClassId(classId);
      addObject(id, key, layoutOf(classId, key)?.size ?? 0);
      ref(classId);
      unread++;
      return false;
    },
    instanceFields: (id, classId, view, at, length) => {
      const key = keyForClassId(classId);
      const layout = layoutOf(classId, key);
      addObject(id, key, layout?.size ?? 0);
      ref(classId);
      if (layout === undefined) {
        late.push({ index: columns.length - 1, classId, data: Buffer.from(new Uint8Array(view.buffer, view.byteOffset + at, length)) }); // a copy: the buffer is reused
        return;
      }
      const offsets = layout.refOffsets;
      for (let i = 0; i < offsets.length; i++) ref(readIdIn(view, at + offsets[i]!, idSize));
      if (layout.referentOffset >= 0) {
        const referent = readIdIn(view, at + layout.referentOffset, idSize);
        if (referent !== 0) {
          referenceObjects.push(columns.length - 1);
          referentIds.push(referent);
        }
      }
    },
    objectArrayHeader: (id, classId, length) => {
      if (length * idSize <= MAX_DELIVERED_BODY) return true;
      addObject(id, keyForClassId(classId), objectArrayShallowSize(length));
      ref(classId);
      unread++;
      return false;
    },
    objectArrayElements: (id, classId, view, at, length) => {
      addObject(id, keyForClassId(classId), objectArrayShallowSize(length));
      ref(classId);
      for (let i = 0, o = at; i < length; i++, o += idSize) ref(readIdIn(view, o, idSize));
    },
    primitiveArrayHeader: (id, type, length) => {
      addObject(id, primitiveKey(type), primitiveArrayShallowSize(type, length));
      return false;
    },
  };
  return { visitor, finish: (pass) => finishGraph(pass) };

  function finishGraph(pass: PassEnd): ObjectGraph {
    const { header, fed } = pass;
    if (header === undefined) throw new HprofFormatError('the file ends before the HPROF header does');
    const warnings = [...pass.warnings];
    if (fed.truncatedAt !== undefined) warnings.push(truncationWarning(fed));
    if (unread > 0) warnings.push(`${unread} objects of over ${MAX_DELIVERED_BODY / 1048576} MiB each were not read: they count with their sizes, their references are left out`);

    const n = columns.length;
    const { ids, classKeys, shallow: shallowSizes, edgeStart } = columns.finish(targets.length);
    const slotOfId = idIndex(ids);
    // Classes are sized as the histogram sizes java.lang.Class instances.
    const classObjectSize = classObjectShallowSize(meta, header.idSize);
    const classObjectNames = new Map<number, string>();
    for (const c of classObjects) {
      const index = slotOfId.get(c.id);
      shallowSizes[index] = classObjectSize;
      classObjectNames.set(index, meta.className(c.id));
    }
    for (const classId of pendingClassIds) classKeyNames[classIdKeys.get(classId)] = meta.className(classId);
    let unsized = 0;
    for (const l of late) {
      const layout = layoutOf(l.classId);
      if (layout === undefined) {
        unsized++;
        continue;
      }
      shallowSizes[l.index] = layout.size;
      lateEdges.set(l.index, [...layout.refOffsets].map((o) => readId(l.data, o)).filter((id) => id !== 0));
    }
    if (unsized > 0) warnings.push(`${unsized} instances of classes the dump has no class record for: their references and sizes are unknown`);

    // Edges: the pass's own, the late instances', and each thread's locals under its thread object.
    const localsOf = new Map<number, number[]>();
    const rootObjects: number[] = [];
    const rootKindOf = new Map<number, string>();
    const rootKinds: Record<string, number> = {};
    for (const r of roots) {
      const kind = ROOT_KIND_NAMES[r.kind] ?? `0x${r.kind.toString(16)}`;
      rootKinds[kind] = (rootKinds[kind] ?? 0) + 1;
      const target = slotOfId.get(r.id);
      if (target < 0) continue;
      if (!rootKindOf.has(target)) rootKindOf.set(target, kind);
      const threadId = r.kind === SUB.ROOT_JAVA_FRAME || r.kind === SUB.ROOT_JNI_LOCAL ? threadObjectBySerial.get(r.thread) : undefined;
      const thread = threadId !== undefined ? slotOfId.get(threadId) : -1;
      if (thread >= 0) {
        const list = localsOf.get(thread);
        if (list === undefined) localsOf.set(thread, [target]);
        else list.push(target);
      } else rootObjects.push(target);
    }
    const { edgeStart: outStart, edges: edgesOut, missing } = resolveEdges(n, edgeStart, targets, slotOfId, lateEdges, localsOf);
    if (rootObjects.length === 0 && n > 0) {
      // No root records (a dump cut before them, or a tool that writes none): as MAT does for such
      // dumps, the objects nothing references stand for the roots.
      const referenced = new Uint8Array(n);
      for (let e = 0; e < edgesOut.length; e++) referenced[edgesOut[e]!] = 1;
      for (let v = 0; v < n; v++) if (referenced[v] === 0) rootObjects.push(v);
      rootKinds['unreferenced'] = rootObjects.length;
      warnings.push(`the dump holds no GC root records: the ${rootObjects.length} objects nothing references were taken as the roots, as MAT does for such dumps; retained sizes are approximate`);
    }
    return {
      objects: n,
      // Views of the arrays filled (their spare room is not worth a copy of a few hundred MB).
      ids,
      classOf: classKeys,
      classNames: classKeyNames,
      shallow: shallowSizes,
      edgeStart: outStart,
      edges: edgesOut,
      roots: Int32Array.from(new Set(rootObjects)),
      rootKinds,
      missingReferences: missing,
      warnings,
      classObjectNames,
      // Objects are added in index order, so the reference objects are ascending.
      referents: referentsOf(referenceObjects, referentIds, slotOfId),
      rootKindOf,
      // Kept only where the table is small (its closure holds nothing else of the pass).
      ...(n <= HASHED_MAX_OBJECTS ? { indexOfId: lookupIn(slotOfId) } : {}),
    };
  }
}

/**
 * The edges as object indexes, in CSR form: each object's own references resolved in place (an index
 * takes the 4 bytes its id/8 took), then moved right, from the last object back, to make room for
 * what is added to some objects (the references of late instances and each thread's locals).
 * References to ids not in the dump are counted and left out. Functions of their own, for V8 (see
 * dominatorTree).
 */
function resolveEdges(n: number, starts: Int32Array, targets: RefStore, slotOfId: IdIndex, lateEdges: Map<number, number[]>, localsOf: Map<number, number[]>): { edgeStart: Int32Array; edges: Int32Array; missing: number } {
  const { idAt, into } = targets.resolution();
  const resolvedStart = new Int32Array(n + 1);
  let missing = resolveOwnEdges(n, starts, idAt, slotOfId, into, resolvedStart);
  const w = resolvedStart[n]!;
  const extras = new Map<number, number[]>();
  let extraCount = 0;
  for (const [i, lateIds] of lateEdges) {
    const resolved: number[] = [];
    for (const id of lateIds) {
      const t = slotOfId.get(id);
      if (t < 0) missing++;
      else resolved.push(t);
    }
    extras.set(i, resolved);
    extraCount += resolved.length;
  }
  for (const [thread, locals] of localsOf) {
    extras.set(thread, [...(extras.get(thread) ?? []), ...locals]);
    extraCount += locals.length;
  }
  let edges = into;
  if (edges.length < w + extraCount) {
    const bigger = new Int32Array(w + extraCount);
    bigger.set(edges.subarray(0, w));
    edges = bigger;
  }
  const edgeStart = spreadEdges(n, resolvedStart, edges, w + extraCount, extras);
  return { edgeStart, edges: edges.subarray(0, w + extraCount), missing };
}

/** Resolves each object's references into `into`, from its start; `resolvedStart` gets where each object's begin. Returns the ids not found. */
function resolveOwnEdges(n: number, starts: Int32Array, idAt: (e: number) => number, slotOfId: IdIndex, into: Int32Array, resolvedStart: Int32Array): number {
  let missing = 0;
  let w = 0;
  for (let i = 0; i < n; i++) {
    resolvedStart[i] = w;
    for (let e = starts[i]!, end = starts[i + 1]!; e < end; e++) {
      const t = slotOfId.get(idAt(e));
      if (t < 0) missing++;
      else into[w++] = t;
    }
  }
  resolvedStart[n] = w;
  return missing;
}

/** Moves each object's resolved edges right, adding its extras after them; returns where each object's edges start. */
function spreadEdges(n: number, resolvedStart: Int32Array, edges: Int32Array, total: number, extras: Map<number, number[]>): Int32Array {
  const outStart = new Int32Array(n + 1);
  // The objects with extras, last first: met in that order, with no lookup per object.
  const owners = [...extras.keys()].sort((a, b) => b - a);
  let nextOwner = 0;
  let end = total;
  outStart[n] = end;
  for (let i = n - 1; i >= 0; i--) {
    if (nextOwner < owners.length && owners[nextOwner] === i) {
      const ex = extras.get(i)!;
      for (let k = ex.length - 1; k >= 0; k--) edges[--end] = ex[k]!;
      nextOwner++;
    }
    for (let e = resolvedStart[i + 1]! - 1; e >= resolvedStart[i]!; e--) edges[--end] = edges[e]!;
    outStart[i] = end;
  }
  return outStart;
}

/** An IdIndex as a function, holding only the index (a closure made inside the pass would hold all of it). */
function lookupIn(index: IdIndex): (id: number) => number {
  return (id) => index.get(id);
}

/** Objects up to which the graph finds ids through a hash table (at most 96 MB of table); beyond, the sorted index (about 16 bytes per object). */
const HASHED_MAX_OBJECTS = 1 << 22;

/** Finds the object index of a dump id. */
export interface IdIndex {
  get(id: number): number;
}

/**
 * The index from dump ids to object indexes. Up to HASHED_MAX_OBJECTS objects: a table over the
 * heap's addresses when they are compact (addressTable), else a hash table. Beyond: HotSpot writes
 * objects in address order but for a few hundred places (its spaces, the class dumps first), so the
 * ids are sorted once, natively, packed with their object index into 64-bit keys (id in the high
 * bits: ids are 8-byte aligned), and found through a directory of buckets over the address range,
 * then a short binary search. Ids too wide to pack (or over 2^26 objects) use a hash table instead.
 * `byAddress` false skips the address table (for tests of the others).
 */
export function idIndex(ids: Float64Array, hashedMax: number = HASHED_MAX_OBJECTS, byAddress = true): IdIndex {
  // Up to HASHED_MAX_OBJECTS, no sort: V8 sorts a typed array in full even when it is nearly sorted
  // (14 ms for the 205,000 ids of a fixture heap, of ~0.3 s of memory analysis). The address table,
  // else a hash table (24 to 48 bytes an object, which matter only on big heaps: they get the sorted index).
  const n = ids.length;
  let max = 0;
  if (n > hashedMax) for (let i = 0; i < n; i++) if (ids[i]! > max) max = ids[i]!;
  if (n <= hashedMax || n >= 1 << 26 || max >= 2 ** 38) {
    // Most heaps' addresses are compact enough for a table over them (see addressTable).
    const table = byAddress && n <= hashedMax ? addressTable(ids) : undefined;
    if (table !== undefined) return table;
    const slots = new IdSlots(n);
    // An id written twice (a damaged dump) finds its first object.
    for (let i = 0; i < n; i++) if (slots.get(ids[i]!) < 0) slots.set(ids[i]!, i);
    return slots;
  }
  // key = id * 2^26 + index, written as two 32-bit words (no BigInt per object).
  const keys = new BigUint64Array(n);
  const words = new Uint32Array(keys.buffer);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const high = Math.floor(id / 64); // id >> 6
    const low = ((id - high * 64) * 67108864 + i) >>> 0; // ((id & 63) << 26) | i
    words[2 * i] = low; // little-endian: the low word first
    words[2 * i + 1] = high;
  }
  keys.sort();
  // The sorted ids overwrite their keys in place: entry k's 8 bytes are read, then written as a double.
  const sortedIds = new Float64Array(keys.buffer);
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const low = words[2 * k]!;
    const high = words[2 * k + 1]!;
    sortedIds[k] = high * 64 + (low >>> 26);
    order[k] = low & 0x3ffffff;
  }
  const min = n > 0 ? sortedIds[0]! : 0;
  const span = (n > 0 ? sortedIds[n - 1]! : 0) - min + 1;
  const buckets = Math.max(1, Math.min(1 << 22, n));
  const scale = buckets / span;
  const bucketOf = (offset: number) => Math.min(buckets - 1, Math.floor(offset * scale));
  const dir = new Int32Array(buckets + 1);
  for (let k = 0, b = 0; b <= buckets; b++) {
    while (k < n && bucketOf(sortedIds[k]! - min) < b) k++;
    dir[b] = k;
  }
  return {
    get(id: number): number {
      const offset = id - min;
      if (offset < 0 || offset >= span) return -1;
      const b = bucketOf(offset);
      let lo = dir[b]!;
      let hi = dir[b + 1]! - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const v = sortedIds[mid]!;
        if (v < id) lo = mid + 1;
        else if (v > id) hi = mid - 1;
        else return order[mid]!;
      }
      return -1;
    },
  };
}

/**
 * The per-object columns of the pass (dump id, class key, shallow size, first edge), grown together:
 * one capacity check per object.
 */
class ObjectColumns {
  length = 0;
  private ids: Float64Array;
  private classKeys: Int32Array;
  private shallow: Float64Array;
  private edgeStart: Int32Array;
  constructor(capacity: number) {
    this.ids = new Float64Array(capacity);
    this.classKeys = new Int32Array(capacity);
    this.shallow = new Float64Array(capacity);
    this.edgeStart = new Int32Array(capacity + 1);
  }
  add(id: number, classKey: number, size: number, firstEdge: number): void {
    const i = this.length;
    if (i === this.ids.length) this.grow();
    this.ids[i] = id;
    this.classKeys[i] = classKey;
    this.shallow[i] = size;
    this.edgeStart[i] = firstEdge;
    this.length = i + 1;
  }
  /** The filled columns (views: their spare room is not worth a copy), edgeStart closed with `edges`. */
  finish(edges: number): { ids: Float64Array; classKeys: Int32Array; shallow: Float64Array; edgeStart: Int32Array } {
    const n = this.length;
    this.edgeStart[n] = edges;
    return { ids: this.ids.subarray(0, n), classKeys: this.classKeys.subarray(0, n), shallow: this.shallow.subarray(0, n), edgeStart: this.edgeStart.subarray(0, n + 1) };
  }
  private grow(): void {
    const capacity = this.ids.length * 2;
    this.ids = grown(this.ids, new Float64Array(capacity));
    this.classKeys = grown(this.classKeys, new Int32Array(capacity));
    this.shallow = grown(this.shallow, new Float64Array(capacity));
    this.edgeStart = grown(this.edgeStart, new Int32Array(capacity + 1));
  }
}

/**
 * The referenced ids of the pass, in the order met: as id/8 in 32 bits while the ids allow it (a
 * heap with compressed oops lies below 32 GB, its ids 8-byte aligned), else as doubles.
 */
class RefStore {
  length = 0;
  /** id/8 per reference while every id so far fits; undefined once one did not. */
  private words: Uint32Array | undefined;
  private wide: Float64Array | undefined;
  constructor(capacity: number) {
    this.words = new Uint32Array(capacity);
  }
  push(id: number): void {
    const words = this.words;
    if (words !== undefined) {
      const w = id / 8;
      if (w < 4294967296 && Math.floor(w) === w) {
        if (this.length === words.length) this.words = grown(words, new Uint32Array(words.length * 2));
        this.words![this.length++] = w;
        return;
      }
      // An id that does not fit: every id so far is widened once, and the rest stored as doubles.
      const wide = new Float64Array(Math.max(1024, this.length * 2));
      for (let i = 0; i < this.length; i++) wide[i] = words[i]! * 8;
      this.wide = wide;
      this.words = undefined;
    }
    if (this.length === this.wide!.length) this.wide = grown(this.wide!, new Float64Array(this.wide!.length * 2));
    this.wide![this.length++] = id;
  }
  /**
   * The ids, and where their resolved indexes go: the same 4-byte slots when ids are kept in 32 bits
   * (entry e is read before anything at or past e is written), else a new array.
   */
  resolution(): { readonly idAt: (e: number) => number; readonly into: Int32Array } {
    if (this.words !== undefined) {
      const words = this.words.subarray(0, this.length);
      return { idAt: (e) => words[e]! * 8, into: new Int32Array(words.buffer, words.byteOffset, words.buffer.byteLength / 4) };
    }
    const ids = this.wide!.subarray(0, this.length);
    return { idAt: (e) => ids[e]!, into: new Int32Array(ids.length) };
  }
}

/** `into`, a bigger array, with `from` copied to its start. */
function grown<A extends Int32Array | Uint32Array | Float64Array>(from: A, into: A): A {
  into.set(from);
  return into;
}

/** Each reference object's referent (referents not in the dump are left out); `references` ascend. */
function referentsOf(references: readonly number[], referentIds: readonly number[], index: IdIndex): Referents {
  const from = new Int32Array(references.length);
  const to = new Int32Array(references.length);
  let k = 0;
  for (let r = 0; r < references.length; r++) {
    const t = index.get(referentIds[r]!);
    if (t < 0) continue;
    from[k] = references[r]!;
    to[k++] = t;
  }
  return { references: from.subarray(0, k), referents: to.subarray(0, k) };
}
