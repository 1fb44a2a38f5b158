/**
 * What the graph's pass stores per object and per reference while it reads the dump, in typed
 * arrays that grow by doubling (sized from the dump's bytes, so they rarely do).
 */

/** An HPROF id as id/8 when that fits 32 bits (see RefStore), else -1. */
function idWord(id: number): number {
  const w = id / 8;
  return w < 4294967296 && Math.floor(w) === w ? w : -1;
}

/**
 * The per-object columns of the pass (dump id, class key, what settles into the shallow size, first
 * edge), grown together: one capacity check per object. The ids are kept as id/8 in 32 bits until
 * one does not fit (then all become doubles), as RefStore keeps the references.
 */
export class ObjectColumns {
  length = 0;
  private ids: Uint32Array | Float64Array;
  private idScale = 8;
  private classKeys: Int32Array;
  private held: Int32Array;
  private edgeStart: Int32Array;
  constructor(capacity: number) {
    this.ids = new Uint32Array(capacity);
    this.classKeys = new Int32Array(capacity);
    this.held = new Int32Array(capacity);
    this.edgeStart = new Int32Array(capacity + 1);
  }
  get capacity(): number {
    return this.classKeys.length;
  }

  /** `held`: an instance's 0, an array's length, an object array's -1 - length (32 bits: array lengths are ints). */
  add(id: number, classKey: number, held: number, firstEdge: number): void {
    const i = this.length;
    if (i === this.classKeys.length) this.grow();
    if (this.idScale === 8) {
      const w = idWord(id);
      if (w >= 0) this.ids[i] = w;
      else {
        this.widen();
        this.ids[i] = id;
      }
    } else this.ids[i] = id;
    this.classKeys[i] = classKey;
    this.held[i] = held;
    this.edgeStart[i] = firstEdge;
    this.length = i + 1;
  }
  /** The filled columns (views: their spare room is not worth a copy), edgeStart closed with `edges`. */
  finish(edges: number): { ids: Uint32Array | Float64Array; idScale: number; classKeys: Int32Array; held: Int32Array; edgeStart: Int32Array } {
    const n = this.length;
    this.edgeStart[n] = edges;
    return {
      ids: this.ids.subarray(0, n),
      idScale: this.idScale,
      classKeys: this.classKeys.subarray(0, n),
      held: this.held.subarray(0, n),
      edgeStart: this.edgeStart.subarray(0, n + 1),
    };
  }
  private grow(): void {
    const capacity = this.classKeys.length * 2;
    this.ids = grown(this.ids, this.idScale === 8 ? new Uint32Array(capacity) : new Float64Array(capacity));
    this.classKeys = grown(this.classKeys, new Int32Array(capacity));
    this.held = grown(this.held, new Int32Array(capacity));
    this.edgeStart = grown(this.edgeStart, new Int32Array(capacity + 1));
  }
  /** An id that does not fit 32 bits: the ids become doubles. */
  private widen(): void {
    const wide = new Float64Array(this.ids.length);
    for (let i = 0; i < this.length; i++) wide[i] = this.ids[i]! * 8;
    this.ids = wide;
    this.idScale = 1;
  }
}

/** References per chunk of the RefStore: 4M (16 MB of 32-bit words). */
const REF_CHUNK = 1 << 22;

/**
 * The referenced ids of the pass, in the order met, in chunks (no doubling: a heap's references
 * take a third of its graph, and a doubled array would keep up to half of that idle): as id/8 in
 * 32 bits while the ids allow it (a heap with compressed oops lies below 32 GB, its ids 8-byte
 * aligned), else as doubles.
 */
export class RefStore {
  length = 0;
  /** Whether the chunks hold id/8 in 32 bits (until an id does not fit), or the ids as doubles. */
  private words = true;
  private readonly chunks: (Uint32Array | Float64Array)[] = [];
  private current: Uint32Array | Float64Array;
  private used = 0;

  /** `chunkLength`: references per chunk (small ones only in tests). */
  constructor(private readonly chunkLength = REF_CHUNK) {
    this.current = new Uint32Array(chunkLength);
  }

  push(id: number): void {
    if (this.used === this.chunkLength) this.nextChunk();
    if (this.words) {
      const w = idWord(id);
      if (w >= 0) {
        this.current[this.used++] = w;
        this.length++;
        return;
      }
      this.widen();
    }
    this.current[this.used++] = id;
    this.length++;
  }

  /**
   * The ids in order, chunk by chunk, each chunk let go once read (so the resolved references take
   * its place): `visit` gets a chunk, how many entries it holds, and what turns an entry into its id.
   */
  drain(visit: (chunk: Uint32Array | Float64Array, count: number, scale: number) => void): void {
    this.chunks.push(this.current.subarray(0, this.used));
    this.current = new Uint32Array(0);
    const scale = this.words ? 8 : 1;
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      this.chunks[c] = new Uint32Array(0);
      visit(chunk, chunk.length, scale);
    }
  }

  private nextChunk(): void {
    this.chunks.push(this.current);
    this.current = this.words ? new Uint32Array(this.chunkLength) : new Float64Array(this.chunkLength);
    this.used = 0;
  }

  /** An id that does not fit 32 bits: every id so far becomes a double, and so do the ones after. */
  private widen(): void {
    const toWide = (words: Uint32Array | Float64Array) => Float64Array.from(words, (w) => w * 8);
    for (let c = 0; c < this.chunks.length; c++) this.chunks[c] = toWide(this.chunks[c]!);
    const current = new Float64Array(this.chunkLength);
    current.set(toWide(this.current.subarray(0, this.used)));
    this.current = current;
    this.words = false;
  }
}

/** `into`, a bigger array, with `from` copied to its start. */
function grown<A extends Int32Array | Uint32Array | Float64Array>(from: A, into: A): A {
  into.set(from);
  return into;
}
