/**
 * Finding an object's index in the graph from its HPROF id (its address): the ids are the dump's,
 * the indexes the graph's, so every reference of the pass goes through one of these.
 */
import type { IdColumn } from '../../graph/object-graph.js';
import { IdSlots } from '../id-slots.js';
import { addressTable, wordAddressTable } from './address-table.js';

/** Objects up to which the graph finds ids through a hash table (at most 96 MB of table); beyond, the sorted index (about 16 bytes per object). */
export const HASHED_MAX_OBJECTS = 1 << 22;

/** Finds the object index of a dump id. */
export interface IdIndex {
  get(id: number): number;
  /** The same for an id given as id/8 (see ObjectGraph.ids), where the index has a faster way than `get(w * 8)`. */
  readonly getWord?: (w: number) => number;
  /** Objects whose id an earlier object of the dump already had (a damaged dump): the id finds the first. */
  readonly duplicates: number;
}

/** Bytes per object the sorted index takes (its 8-byte keys, reused as the sorted ids, and a 4-byte order). */
const SORTED_BYTES_PER_OBJECT = 12;

/**
 * The index from dump ids to object indexes. Most heaps: a table over the heap's addresses
 * (addressTable), no bigger than the index that would serve instead. Else, up to HASHED_MAX_OBJECTS
 * objects a hash table; beyond, HotSpot writes objects in address order but for a few hundred places
 * (its spaces, the class dumps first), so the ids are sorted once, natively, packed with their object
 * index into 64-bit keys (id in the high bits: ids are 8-byte aligned), and found through a directory
 * of buckets over the address range, then a short binary search. Ids too wide to pack (or over 2^26
 * objects) use a hash table instead. The ids are `ids[i] * idScale` (see ObjectGraph.ids). `byAddress`
 * false skips the address table (for tests of the others).
 */
export function idIndex(ids: IdColumn, idScale = 1, hashedMax: number = HASHED_MAX_OBJECTS, byAddress = true): IdIndex {
  // The address table sorts nothing: V8 sorts a typed array in full even when it is nearly sorted
  // (14 ms for the 205,000 ids of a fixture heap; 4.3 s, a fifth of the memory analysis, for the 36
  // million of a 1.8 GB one), and its lookups of references allocated together hit the cache.
  const n = ids.length;
  if (byAddress) {
    const budget = n <= hashedMax ? undefined : SORTED_BYTES_PER_OBJECT * n;
    const table = idScale === 8 && ids instanceof Uint32Array ? wordAddressTable(ids, budget) : addressTable(ids, idScale, budget);
    if (table !== undefined) return table;
  }
  let max = 0;
  if (n > hashedMax) for (let i = 0; i < n; i++) if (ids[i]! * idScale > max) max = ids[i]! * idScale;
  if (n <= hashedMax || n >= 1 << 26 || max >= 2 ** 38) {
    const slots = new IdSlots(n);
    // An id written twice (a damaged dump) finds its first object.
    let duplicates = 0;
    for (let i = 0; i < n; i++) {
      const id = ids[i]! * idScale;
      if (slots.get(id) < 0) slots.set(id, i);
      else duplicates++;
    }
    return { duplicates, get: (id) => slots.get(id) };
  }
  // key = id * 2^26 + index, written as two 32-bit words (no BigInt per object).
  const keys = new BigUint64Array(n);
  const words = new Uint32Array(keys.buffer);
  for (let i = 0; i < n; i++) {
    const id = ids[i]! * idScale;
    const high = Math.floor(id / 64); // id >> 6
    const low = ((id - high * 64) * 67108864 + i) >>> 0; // ((id & 63) << 26) | i
    words[2 * i] = low; // little-endian: the low word first
    words[2 * i + 1] = high;
  }
  keys.sort();
  // The sorted ids overwrite their keys in place: entry k's 8 bytes are read, then written as a double.
  const sortedIds = new Float64Array(keys.buffer);
  const order = new Int32Array(n);
  let duplicates = 0;
  for (let k = 0; k < n; k++) {
    const low = words[2 * k]!;
    const high = words[2 * k + 1]!;
    sortedIds[k] = high * 64 + (low >>> 26);
    order[k] = low & 0x3ffffff;
    if (k > 0 && sortedIds[k] === sortedIds[k - 1]) duplicates++;
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
    duplicates,
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
