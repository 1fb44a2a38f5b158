/**
 * A hash table from HPROF ids (object and symbol addresses, up to 2^53) to small whole numbers, in
 * typed arrays. A Map keyed by such ids stores each one as a boxed double and hashes it slowly: for
 * the tens of thousands of UTF8 records of every heap that was the single costliest step of loading
 * a small dump. Open addressing, linear probing, grown at half full.
 */
const EMPTY = -1;

export class IdSlots {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private filled = 0;

  constructor(capacity = 1024) {
    const size = IdSlots.slotsFor(capacity);
    this.keys = new Float64Array(size);
    this.values = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
  }

  /** Slots for `capacity` ids: a power of two, at most half full. */
  private static slotsFor(capacity: number): number {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    return size;
  }

  /** The bytes a table made for `capacity` ids takes (a key and a value per slot). */
  static bytesFor(capacity: number): number {
    return 12 * IdSlots.slotsFor(capacity);
  }

  get size(): number {
    return this.filled;
  }

  private static hash(id: number): number {
    // The id's low 32 bits (id >>> 0, exact for whole numbers below 2^53; % on a double of that size
    // is a library call) and its high bits (times 2^-32, exact).
    const low = id >>> 0;
    const high = (id - low) * 2.3283064365386963e-10;
    // Ids are aligned addresses: their low bits carry little, so both halves are mixed in.
    return Math.imul((low >>> 3) ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) ^ (low >>> 17);
  }

  /** Sets the value for an id (a whole number from 0 to 2^31-1), replacing any earlier one. */
  set(id: number, value: number): void {
    if ((this.filled + 1) * 2 > this.keys.length) this.grow();
    let i = IdSlots.hash(id) & this.mask;
    while (this.values[i] !== EMPTY) {
      if (this.keys[i] === id) {
        this.values[i] = value;
        return;
      }
      i = (i + 1) & this.mask;
    }
    this.keys[i] = id;
    this.values[i] = value;
    this.filled++;
  }

  /** The value for an id, or -1 when it has none. */
  get(id: number): number {
    let i = IdSlots.hash(id) & this.mask;
    for (;;) {
      const v = this.values[i]!;
      if (v === EMPTY || this.keys[i] === id) return v;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2).fill(EMPTY);
    this.mask = this.keys.length - 1;
    this.filled = 0;
    for (let i = 0; i < keys.length; i++) if (values[i] !== EMPTY) this.set(keys[i]!, values[i]!);
  }
}
