/**
 * Bits by object index, and the rank of each set bit (its place among the set ones): the memory
 * waste's facts are kept for a few kinds of objects in columns by rank, found from an object index
 * in constant time, for a bit an object and four bytes per 32 objects.
 */

/** One bit an object; grows when an index past its end is set. */
export class BitSet {
  words: Uint32Array;

  constructor(size: number) {
    this.words = new Uint32Array((Math.max(size, 32) + 31) >>> 5);
  }

  set(i: number): void {
    const w = i >>> 5;
    if (w >= this.words.length) this.grow(w);
    this.words[w]! |= 1 << (i & 31);
  }

  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  private grow(word: number): void {
    const bigger = new Uint32Array(Math.max(word + 1, Math.ceil(this.words.length * 1.5)));
    bigger.set(this.words);
    this.words = bigger;
  }
}

/** A bit set with each set bit's rank. */
export class RankedBits {
  /** Set bits in the words before each word. */
  readonly before: Uint32Array;
  readonly count: number;
  readonly words: Uint32Array;

  /** `size`: the bits that count (the set may have room for more). */
  constructor(bits: BitSet, size = bits.words.length * 32) {
    const w = (this.words = bits.words.subarray(0, Math.min(bits.words.length, (size + 31) >>> 5)));
    this.before = new Uint32Array(w.length);
    let total = 0;
    for (let i = 0; i < w.length; i++) {
      this.before[i] = total;
      total += popcount(w[i]!);
    }
    this.count = total;
  }

  has(i: number): boolean {
    const w = i >>> 5;
    return w < this.words.length && (this.words[w]! & (1 << (i & 31))) !== 0;
  }

  /** The rank of set bit `i` (undefined for a bit not set). */
  rank(i: number): number {
    const word = i >>> 5;
    return this.before[word]! + popcount(this.words[word]! & ((1 << (i & 31)) - 1));
  }

  /** Each set bit's index, ascending, with its rank. */
  forEach(visit: (index: number, rank: number) => void): void {
    const w = this.words;
    let rank = 0;
    for (let k = 0; k < w.length; k++) {
      let bits = w[k]!;
      while (bits !== 0) {
        const low = bits & -bits;
        visit(k * 32 + 31 - Math.clz32(low), rank++);
        bits ^= low;
      }
    }
  }
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

const CHUNK_BITS = 20;

/** Numbers appended in chunks of a million: no copy as it grows (a copy would double it at the end of a pass). */
export class ChunkedNumbers {
  length = 0;
  private readonly chunks: Float64Array[] = [];

  push(v: number): void {
    const c = this.length >>> CHUNK_BITS;
    if (c === this.chunks.length) this.chunks.push(new Float64Array(1 << CHUNK_BITS));
    this.chunks[c]![this.length & ((1 << CHUNK_BITS) - 1)] = v;
    this.length++;
  }

  get(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]![i & ((1 << CHUNK_BITS) - 1)]!;
  }
}
