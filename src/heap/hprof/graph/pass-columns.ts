/**
 * What the graph's pass stores per object and per reference while it reads the dump, in typed
 * arrays that grow by doubling (sized from the dump's bytes, so they rarely do).
 */

/**
 * The per-object columns of the pass (dump id, class key, shallow size, first edge), grown together:
 * one capacity check per object.
 */
export class ObjectColumns {
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
    return {
      ids: this.ids.subarray(0, n),
      classKeys: this.classKeys.subarray(0, n),
      shallow: this.shallow.subarray(0, n),
      edgeStart: this.edgeStart.subarray(0, n + 1),
    };
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
export class RefStore {
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
