/**
 * Dense numbers for the ids of a dump's locks, in the order they were first seen. Nearly every id is
 * a hex address (`0x000000076ab2c3d8`); those are found by their value in an open-addressing table of
 * typed arrays, with no string hashed and no entry object. On a dump where each of 200,000 threads
 * holds its own locks, a Map keyed by the id texts spent more time in its lookups than the whole rest
 * of the lock graph. Ids of any other form (javacore's, a JSON dump's) go to a Map.
 * Two spellings of one address (letter case, leading zeros) are one lock: they name one object.
 */

/** Addresses of at most 13 significant hex digits are below 2^52, so their values are exact doubles. */
const MAX_SIGNIFICANT_DIGITS = 13;
const EMPTY = -1;

export class IdIndex {
  #values = new Float64Array(1024);
  #slots = new Int32Array(1024).fill(EMPTY);
  #used = 0;
  readonly #others = new Map<string, number>();
  #count = 0;

  /** The number of `id`, adding it (as the next number) when new. */
  add(id: string): number {
    const value = addressValue(id);
    if (value < 0) {
      const known = this.#others.get(id);
      if (known !== undefined) return known;
      this.#others.set(id, this.#count);
      return this.#count++;
    }
    let at = this.#probe(value);
    const known = this.#slots[at]!;
    if (known !== EMPTY) return known;
    // Kept at most half full, so probes stay short.
    if ((this.#used + 1) * 2 > this.#slots.length) {
      this.#grow();
      at = this.#probe(value);
    }
    this.#values[at] = value;
    this.#slots[at] = this.#count;
    this.#used++;
    return this.#count++;
  }

  /** The slot holding `value`, or the empty slot where it belongs. */
  #probe(value: number): number {
    const mask = this.#slots.length - 1;
    let at = hash(value) & mask;
    while (this.#slots[at] !== EMPTY && this.#values[at] !== value) at = (at + 1) & mask;
    return at;
  }

  #grow(): void {
    const values = this.#values;
    const slots = this.#slots;
    this.#values = new Float64Array(values.length * 2);
    this.#slots = new Int32Array(slots.length * 2).fill(EMPTY);
    for (let k = 0; k < slots.length; k++) {
      if (slots[k] === EMPTY) continue;
      const at = this.#probe(values[k]!);
      this.#values[at] = values[k]!;
      this.#slots[at] = slots[k]!;
    }
  }
}

/** Both halves of the address, mixed (murmur3's finaliser): heap addresses share high bits and are 8-byte aligned. */
function hash(value: number): number {
  let h = (value >>> 0) ^ Math.imul((value / 4294967296) >>> 0, 0x27d4eb2d);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The value of a `0x` hex id with at most 13 significant digits, or -1 for any other id. */
export function addressValue(id: string): number {
  const length = id.length;
  if (length < 3 || id.charCodeAt(0) !== 48 || (id.charCodeAt(1) | 32) !== 120) return -1;
  let value = 0;
  let significant = 0;
  for (let k = 2; k < length; k++) {
    const c = id.charCodeAt(k);
    let digit: number;
    if (c >= 48 && c <= 57) digit = c - 48;
    else if ((c | 32) >= 97 && (c | 32) <= 102) digit = (c | 32) - 87;
    else return -1;
    if (significant > 0 || digit !== 0) significant++;
    if (significant > MAX_SIGNIFICANT_DIGITS) return -1;
    value = value * 16 + digit;
  }
  return value;
}
