/**
 * Dump ids to object indexes through a table laid over the heap's addresses. An HPROF id is the
 * object's address, and a heap's objects fill a few ranges of it, so a directory of fixed-size
 * pages over the address span, and for each page that holds objects a bit per possible object start
 * with the count of objects before each 32 of them, finds an id's rank among the heap's addresses
 * with one population count and no hashing; a last array turns the rank into the object's index.
 * It keeps what a hash scatters: an object's references mostly point near it (allocated together),
 * and here their entries lie near each other, so most lookups hit the cache (on a fixture heap of
 * 205,000 objects, resolving its 536,000 references through the hash table cost 84 ns each). And it
 * is small, about 7 bytes an object where the hash table takes 24 to 48: on this VM each megabyte
 * of fresh memory costs 0.7 ms in page faults before anything is written to it.
 *
 * Used only when compact: the ids are whole numbers sharing an alignment (8 bytes for HotSpot; any of 8, 4, 2, 1),
 * and the table fits the caller's budget (the memory of the index that would serve instead); otherwise
 * that hash table or sorted index serves (addressTable returns undefined).
 */
import type { IdColumn } from '../../graph/object-graph.js';
import { IdSlots } from '../id-slots.js';
import type { IdIndex } from './id-index.js';

/** Possible object starts per page: 256 (2 KB of addresses at 8-byte alignment), in 8 words of 32 bits. */
const PAGE_SLOTS = 256;
const WORDS_PER_PAGE = PAGE_SLOTS / 32;
const NONE = -1;

/** By default the table may take up to twice the memory of the hash table that would serve instead. */
const MAX_TABLE_TO_HASH = 2;

/** The number of bits set in a 32-bit word. */
function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The ids are `ids[i] * idScale` (see ObjectGraph.ids). `budget`: the most bytes the table may take (by
 * default twice a hash table's); undefined when it would take more.
 */
export function addressTable(ids: IdColumn, idScale = 1, budget: number = MAX_TABLE_TO_HASH * IdSlots.bytesFor(ids.length)): IdIndex | undefined {
  const n = ids.length;
  if (n === 0) return undefined;
  // One pass for the range and the alignment: the low bits of every id, or-ed (id >>> 0 is the id's
  // low 32 bits for any whole number below 2^53, where % on a double that size is a library call).
  let min = ids[0]! * idScale;
  let max = min;
  let lowBits = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]! * idScale;
    if (id < min) min = id;
    else if (id > max) max = id;
    lowBits |= id >>> 0;
    // A fraction would be cut to a real start below: such ids are no addresses (none are in an HPROF).
    if (Math.floor(id) !== id) return undefined;
  }
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0) return undefined;
  // The largest of 8, 4, 2, 1 that divides every id (and so every distance between them).
  const unit = (lowBits & 1) !== 0 ? 1 : (lowBits & 2) !== 0 ? 2 : (lowBits & 4) !== 0 ? 4 : 8;
  const shift = unit === 8 ? 3 : unit === 4 ? 2 : unit === 2 ? 1 : 0;
  const pageBytes = PAGE_SLOTS * unit;
  const perPage = 1 / pageBytes; // a power of two: multiplying by it is exact
  const pages = Math.floor((max - min) * perPage) + 1;
  if (4 * pages > budget) return undefined;
  // The directory holds one more than each page's number (its zeroes mean no object starts there).
  // Pages are numbered as first met: counted first, so the words are made once, exactly.
  const directory = new Int32Array(pages);
  let used = 0;
  for (let i = 0; i < n; i++) {
    const page = Math.floor((ids[i]! * idScale - min) * perPage);
    if (directory[page] === 0) directory[page] = ++used;
  }
  if (4 * (pages + 2 * used * WORDS_PER_PAGE + n) > budget) return undefined;
  // For each word of each page, side by side: its bits (an object starts there), then the objects before it.
  const words = new Int32Array(2 * used * WORDS_PER_PAGE);
  for (let i = 0; i < n; i++) {
    const offset = ids[i]! * idScale - min;
    const page = Math.floor(offset * perPage);
    const slot = (offset - page * pageBytes) >>> shift;
    const w = 2 * ((directory[page]! - 1) * WORDS_PER_PAGE + (slot >>> 5));
    words[w] = words[w]! | (1 << (slot & 31));
  }
  let ranked = 0;
  for (let w = 0; w < words.length; w += 2) {
    words[w + 1] = ranked;
    ranked += bitCount(words[w]!);
  }
  // Each start's rank to its object, one more than its index: an id written twice (a damaged dump) finds its first.
  const objectOfRank = new Int32Array(ranked);
  // The ranks of the dump's own ids, worked out in the loop (every id is a start: no checks; a call
  // of rankOf per object here cost twice the loop).
  for (let i = 0; i < n; i++) {
    const offset = ids[i]! * idScale - min;
    const page = Math.floor(offset * perPage);
    const slot = (offset - page * pageBytes) >>> shift;
    const w = 2 * ((directory[page]! - 1) * WORDS_PER_PAGE + (slot >>> 5));
    const r = words[w + 1]! + bitCount(words[w]! & ~(-1 << (slot & 31)));
    if (objectOfRank[r] === 0) objectOfRank[r] = i + 1;
  }
  const rankOf = (offset: number): number => {
    const page = Math.floor(offset * perPage);
    const base = directory[page]! - 1;
    if (base < 0) return NONE;
    const within = offset - page * pageBytes;
    // An id between two starts is no object's (a reference into the middle of one, or not aligned).
    if (within >>> 0 !== within || (within & (unit - 1)) !== 0) return NONE;
    const slot = within >>> shift;
    const w = 2 * (base * WORDS_PER_PAGE + (slot >>> 5));
    const bits = words[w]!;
    const bit = slot & 31;
    if ((bits & (1 << bit)) === 0) return NONE;
    return words[w + 1]! + bitCount(bits & ~(-1 << bit));
  };
  const span = max - min;
  return {
    duplicates: n - ranked,
    get(id: number): number {
      const offset = id - min;
      if (!(offset >= 0 && offset <= span)) return NONE;
      const r = rankOf(offset);
      return r < 0 ? NONE : objectOfRank[r]! - 1;
    },
  };
}

/**
 * The same table over ids kept as id/8 in 32 bits (an HPROF graph's, see ObjectGraph.ids): a slot per
 * word, so a page is a word's high bits and a slot its low 8, and every step is a 32-bit integer
 * operation where the table over doubles floors a product (the build and the lookups of a 36-million
 * object heap took 40 % longer that way). `getWord` finds an id given as id/8.
 */
export function wordAddressTable(words: Uint32Array, budget: number = MAX_TABLE_TO_HASH * IdSlots.bytesFor(words.length)): IdIndex | undefined {
  const n = words.length;
  if (n === 0) return undefined;
  let min = words[0]!;
  let max = min;
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    if (w < min) min = w;
    else if (w > max) max = w;
  }
  const span = max - min;
  const pages = (span >>> 8) + 1;
  if (4 * pages > budget) return undefined;
  const directory = new Int32Array(pages);
  let used = 0;
  for (let i = 0; i < n; i++) {
    const page = ((words[i]! - min) >>> 0) >>> 8;
    if (directory[page] === 0) directory[page] = ++used;
  }
  if (4 * (pages + 2 * used * WORDS_PER_PAGE + n) > budget) return undefined;
  const bits = new Int32Array(2 * used * WORDS_PER_PAGE);
  const wordOf = (offset: number): number => 2 * ((directory[offset >>> 8]! - 1) * WORDS_PER_PAGE + ((offset & 255) >>> 5));
  for (let i = 0; i < n; i++) {
    const offset = (words[i]! - min) >>> 0;
    const w = wordOf(offset);
    bits[w] = bits[w]! | (1 << (offset & 31));
  }
  let ranked = 0;
  for (let w = 0; w < bits.length; w += 2) {
    bits[w + 1] = ranked;
    ranked += bitCount(bits[w]!);
  }
  const objectOfRank = new Int32Array(ranked);
  for (let i = 0; i < n; i++) {
    const offset = (words[i]! - min) >>> 0;
    const w = wordOf(offset);
    const r = bits[w + 1]! + bitCount(bits[w]! & ~(-1 << (offset & 31)));
    if (objectOfRank[r] === 0) objectOfRank[r] = i + 1;
  }
  const getWord = (word: number): number => {
    const offset = word - min;
    if (!(offset >= 0 && offset <= span)) return NONE;
    const base = directory[offset >>> 8]! - 1;
    if (base < 0) return NONE;
    const w = 2 * (base * WORDS_PER_PAGE + ((offset & 255) >>> 5));
    const b = bits[w]!;
    const bit = offset & 31;
    if ((b & (1 << bit)) === 0) return NONE;
    return objectOfRank[bits[w + 1]! + bitCount(b & ~(-1 << bit))]! - 1;
  };
  return {
    duplicates: n - ranked,
    // An id that is not a whole multiple of 8 is no object's here (id & 7 reads its low bits, whatever its size).
    get: (id: number) => (Number.isInteger(id) && (id & 7) === 0 ? getWord(id / 8) : NONE),
    getWord,
  };
}
