/**
 * After the pass: the references, met as dump ids, become object indexes in the graph's CSR arrays.
 */
import type { Referents } from '../../graph/object-graph.js';
import type { IdIndex } from './id-index.js';
import type { RefStore } from './pass-columns.js';

/** In ClassEdges.targets: the key's objects reference no class (class objects, arrays of a type the dump has no class for). */
export const NO_CLASS_EDGE = -1;
/** In ClassEdges.targets: the class the key's objects reference is not in the dump (each such reference counts as missing). */
export const MISSING_CLASS = -2;

/** Each object's reference to its class, kept by class key rather than in the store: the first edge of each object. */
export interface ClassEdges {
  /** Each object's class key. */
  readonly classOf: Int32Array;
  /** By class key: the index of the class its objects reference, or NO_CLASS_EDGE, or MISSING_CLASS. */
  readonly targets: Int32Array;
  /** How many objects reference a class (resolved or not): room for them in the edges. */
  readonly count: number;
}

/**
 * The edges as object indexes, in CSR form, in one forward pass: each object's reference to its
 * class, its own references (resolved as the store lets its chunks go), then what is added to it
 * (the references of late instances and each thread's locals). `starts` becomes where each object's
 * edges begin. References to ids not in the dump are counted and left out. Functions of their own,
 * for V8 (see dominatorTree).
 */
export function resolveEdges(
  n: number,
  starts: Int32Array,
  targets: RefStore,
  slotOfId: IdIndex,
  lateEdges: Map<number, number[]>,
  localsOf: Map<number, number[]>,
  classEdges: ClassEdges,
): { edgeStart: Int32Array; edges: Int32Array; missing: number } {
  let missing = 0;
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
  const edges = new Int32Array(targets.length + extraCount + classEdges.count);
  const resolver = new EdgeResolver(n, starts, slotOfId, edges, extras, classEdges);
  targets.drain((chunk, count, scale) => resolver.chunk(chunk, count, scale));
  resolver.end();
  missing += resolver.missing;
  const total = resolver.written;
  // References to ids not in the dump leave room at the end: given back when it is worth a copy.
  return { edgeStart: starts, edges: total < edges.length - (edges.length >>> 4) ? edges.slice(0, total) : edges.subarray(0, total), missing };
}

/**
 * Writes each object's edges where they go, as the references arrive chunk by chunk: an object's
 * references may span two chunks. `starts[i]` is read (where i's ids begin in the store) before it is
 * written (where its edges begin); i's extras follow its own edges.
 */
class EdgeResolver {
  missing = 0;
  written = 0;
  /** The object whose references come next, and the store's entry at which they end. */
  private object = -1;
  private objectEnd = 0;
  /** The store's entry the next chunk begins at. */
  private entry = 0;
  private readonly owners: number[];
  private nextOwner = 0;

  constructor(
    private readonly n: number,
    private readonly starts: Int32Array,
    private readonly slotOfId: IdIndex,
    private readonly edges: Int32Array,
    private readonly extras: Map<number, number[]>,
    private readonly classEdges: ClassEdges,
  ) {
    this.owners = [...extras.keys()].sort((a, b) => a - b);
    this.advance();
  }

  chunk(ids: Uint32Array | Float64Array, count: number, scale: number): void {
    const getWord = this.slotOfId.getWord;
    if (scale === 8 && getWord !== undefined) this.resolve(ids, count, getWord, 1);
    else this.resolve(ids, count, (id) => this.slotOfId.get(id), scale);
  }

  /** `find` gets each entry times `scale`. */
  private resolve(ids: Uint32Array | Float64Array, count: number, find: (id: number) => number, scale: number): void {
    const edges = this.edges;
    let w = this.written;
    for (let k = 0; k < count; k++) {
      while (this.entry + k === this.objectEnd) {
        this.written = w;
        this.advance();
        w = this.written;
      }
      const t = find(ids[k]! * scale);
      if (t < 0) this.missing++;
      else edges[w++] = t;
    }
    this.written = w;
    this.entry += count;
  }

  /** The objects after the last reference (none of their own, perhaps extras). */
  end(): void {
    while (this.object < this.n) this.advance();
  }

  /** Closes the current object (its extras after its own edges) and opens the next. */
  private advance(): void {
    const i = this.object;
    if (i >= 0 && this.nextOwner < this.owners.length && this.owners[this.nextOwner] === i) {
      for (const t of this.extras.get(i)!) this.edges[this.written++] = t;
      this.nextOwner++;
    }
    const next = i + 1;
    this.object = next;
    if (next < this.n) {
      this.objectEnd = this.starts[next + 1]!;
      this.starts[next] = this.written;
      const toClass = this.classEdges.targets[this.classEdges.classOf[next]!]!;
      if (toClass >= 0) this.edges[this.written++] = toClass;
      else if (toClass === MISSING_CLASS) this.missing++;
    } else if (next === this.n) this.starts[next] = this.written;
  }
}

/** Each reference object's referent (referents not in the dump are left out); `references` ascend. */
export function referentsOf(references: readonly number[], referentIds: readonly number[], index: IdIndex): Referents {
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
