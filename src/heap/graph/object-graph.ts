/**
 * The whole object graph of a heap dump, in typed arrays: objects are dense indexes 0..n-1, with
 * their dump id, class and shallow size; outbound references in compressed-sparse-row form
 * (`edges[edgeStart[i] .. edgeStart[i+1])`); the GC roots as the objects a virtual root points to.
 * No JavaScript object per heap object.
 */
/**
 * The reference objects (ascending object indexes) and, at the same positions, their referents:
 * typed arrays, so a graph crosses from a worker as it is, and no Map entry per reference (a heap
 * with a finalizer backlog holds hundreds of thousands).
 */
export interface Referents {
  readonly references: Int32Array;
  readonly referents: Int32Array;
}

/** The referent of a reference object, or -1 when it is none (or its referent is not in the dump). */
export function referentOf(r: Referents, reference: number): number {
  const refs = r.references;
  let lo = 0;
  let hi = refs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = refs[mid]!;
    if (v < reference) lo = mid + 1;
    else if (v > reference) hi = mid - 1;
    else return r.referents[mid]!;
  }
  return -1;
}

/**
 * What the threads' stacks hold that no GC root holds otherwise (an HPROF's Java-frame roots), one
 * entry a frame that holds an object, ascending by object: the local, the thread object whose stack
 * holds it (-1 when the dump has none for the thread), the frame's depth (0: the top of the stack)
 * and the frame as a thread dump writes it (an index into frameTexts; -1 when the dump recorded no
 * stack for the thread). Typed arrays, so the graph crosses from a worker as it is.
 */
export interface StackLocals {
  readonly objects: Int32Array;
  readonly threads: Int32Array;
  readonly depths: Int32Array;
  readonly frames: Int32Array;
  readonly frameTexts: readonly string[];
}

/** The object layout shallow sizes were worked out under: one line, and why each part of it was assumed. */
export interface SizeModel {
  readonly summary: string;
  readonly reasons: readonly string[];
}

/** One id per object: id/8 in 32 bits, or the ids themselves as doubles (ObjectGraph.idScale says which). */
export type IdColumn = Uint32Array | Float64Array;

/** One size in bytes per object: 32 bits when every size fits them (4 bytes an object saved), else doubles. */
export type SizeColumn = Uint32Array | Float64Array;

export interface ObjectGraph {
  readonly objects: number;
  /**
   * The dump's id (address) of each object, as `ids[i] * idScale` (see idOf): an HPROF's ids as id/8
   * in 32 bits when every id allows it (a heap below 32 GB, its objects 8-byte aligned), else as doubles.
   */
  readonly ids: IdColumn;
  /** What an entry of `ids` is multiplied by to give the id: 8 for ids kept as id/8, else 1. */
  readonly idScale: number;
  /** Index into classNames of each object's class (class objects are `java.lang.Class`). */
  readonly classOf: Int32Array;
  readonly classNames: readonly string[];
  /** Shallow size of each object, as the histogram estimates it: in 32 bits when every size fits them. */
  readonly shallow: SizeColumn;
  readonly edgeStart: Int32Array;
  readonly edges: Int32Array;
  /** Objects held by GC roots (each once), which hang under the virtual root. */
  readonly roots: Int32Array;
  /** Root records by kind, as the dump has them (`java-frame`, `system-class`, ...). */
  readonly rootKinds: Readonly<Record<string, number>>;
  /** References to ids that no object of the dump has: counted, then left out. */
  readonly missingReferences: number;
  readonly warnings: readonly string[];
  /** Why the dump was not read whole (it ends mid-record, a size limit stopped it); also among the warnings. */
  readonly cut?: string;
  /** For class objects (java.lang.Class): the class each one is, by object index. */
  readonly classObjectNames: ReadonlyMap<number, string>;
  /**
   * For class objects defined by a class loader the dump holds (an HPROF's CLASS DUMP names it; the
   * boot loader's classes have none): the loader's object index, by the class's. Absent for formats
   * without class loaders.
   */
  readonly definingLoaders?: ReadonlyMap<number, number>;
  /** How shallow sizes were worked out, when the format does not record them (HPROF): the layout assumed and why. */
  readonly sizeModel?: SizeModel;
  /** java.lang.ref.Reference objects (weak, soft, phantom, finalizer) and their referents, by object index. */
  readonly referents: Referents;
  /**
   * The kind of root record that makes each GC-root object a root of the graph (the first, when
   * several do): a thread's object is a `thread` root even when another thread's stack holds it too.
   */
  readonly rootKindOf: ReadonlyMap<number, string>;
  /** What the threads' stacks hold, when the format records it (HPROF's Java-frame roots name their thread and frame). */
  readonly stackLocals?: StackLocals;
  /**
   * The index of the object with this dump id, -1 when there is none: the table the graph resolved its
   * references with, when it has one (not on a graph that crossed from a worker: functions do not cross).
   */
  readonly indexOfId?: ((id: number) => number) | undefined;
  /** How the dump's tools write an id: an HPROF's address in hex (`0x7ff01234`, the default), a V8 node id as DevTools does (`@1234`). */
  readonly idNotation?: 'address' | 'node-id';
}

/** The dump id of the object at this index. */
export function idOf(g: Pick<ObjectGraph, 'ids' | 'idScale'>, index: number): number {
  return g.ids[index]! * g.idScale;
}

/** An object's id as the dump's own tools write it. */
export function idText(g: Pick<ObjectGraph, 'idNotation'>, id: number): string {
  return g.idNotation === 'node-id' ? `@${id}` : `0x${id.toString(16)}`;
}

/** An id as a user types it (`0x7ff01234`, `@1234`, or decimal), or undefined when it is none. */
export function parseObjectId(text: string): number | undefined {
  if (/^0x[0-9a-f]+$/i.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^@?\d+$/.test(text)) return Number(text.replace('@', ''));
  return undefined;
}

/** Bytes the graph's arrays take (bench/heap-bench.mjs prints them per object). */
export function graphBytes(g: ObjectGraph): number {
  return g.ids.byteLength + g.classOf.byteLength + g.shallow.byteLength + g.edgeStart.byteLength + g.edges.byteLength + g.roots.byteLength;
}
