/**
 * Dump ids to object indexes through a table laid over the heap's addresses. An HPROF id is the
 * object's address, and a heap's objects fill a few ranges of it, so a directory of fixed-size
 * pages over the address span, with a slot per possible object start in each page that holds one,
 * maps an id in two reads and no hashing. It also keeps what a hash scatters: an object's
 * references mostly point near it (allocated together), and here their slots lie near each other,
 * so most lookups hit the cache (on a fixture heap of 205,000 objects, resolving its 536,000
 * references through the hash table cost 84 ns each, two cache misses).
 *
 * Used only when compact: the ids share an alignment (8 bytes for HotSpot, 2 for V8's even node ids),
 * and the directory and the pages that hold objects take at most twice the memory of a hash table;
 * otherwise the caller's hash table or sorted index serves (addressTable returns undefined).
 */
import type { IdIndex } from './hprof-graph.js';

/** Slots per page: a page covers 256 possible object starts (2 KB of addresses at 8-byte alignment). */
const PAGE_SLOTS = 256;
const NONE = -1;

/** The bytes of the hash table that would serve instead (IdSlots: 12 bytes a slot, at most half full). */
function hashTableBytes(objects: number): number {
  let size = 16;
  while (size < objects * 2) size *= 2;
  return 12 * size;
}

/** The table may take up to twice the hash table's memory (its directory and its pages, 4 bytes an entry). */
const MAX_TABLE_TO_HASH = 2;

/** The largest of 8, 4, 2, 1 that divides every id (and so every distance between them). */
function commonAlignment(ids: Float64Array): number {
  let unit = 8;
  for (let i = 0; i < ids.length && unit > 1; i++) {
    const id = ids[i]!;
    while (unit > 1 && id % unit !== 0) unit >>= 1;
  }
  return unit;
}

export function addressTable(ids: Float64Array): IdIndex | undefined {
  const n = ids.length;
  if (n === 0) return undefined;
  let min = ids[0]!;
  let max = min;
  for (let i = 1; i < n; i++) {
    const id = ids[i]!;
    if (id < min) min = id;
    else if (id > max) max = id;
  }
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0) return undefined;
  const unit = commonAlignment(ids);
  const pageBytes = PAGE_SLOTS * unit;
  const pages = Math.floor((max - min) / pageBytes) + 1;
  const budget = MAX_TABLE_TO_HASH * hashTableBytes(n);
  if (4 * pages > budget) return undefined;
  // Which pages hold an object: counted first, so the slots are made once, exactly.
  const directory = new Int32Array(pages).fill(NONE);
  let used = 0;
  for (let i = 0; i < n; i++) {
    const page = Math.floor((ids[i]! - min) / pageBytes);
    if (directory[page] === NONE) directory[page] = used++;
  }
  if (4 * (pages + used * PAGE_SLOTS) > budget) return undefined;
  const slots = new Int32Array(used * PAGE_SLOTS).fill(NONE);
  for (let i = 0; i < n; i++) {
    const offset = ids[i]! - min;
    const page = Math.floor(offset / pageBytes);
    const at = directory[page]! * PAGE_SLOTS + (offset - page * pageBytes) / unit;
    // An id written twice (a damaged dump) finds its first object.
    if (slots[at] === NONE) slots[at] = i;
  }
  const span = max - min;
  return {
    get(id: number): number {
      const offset = id - min;
      if (!(offset >= 0 && offset <= span)) return NONE;
      const page = Math.floor(offset / pageBytes);
      const base = directory[page]!;
      if (base === NONE) return NONE;
      const within = offset - page * pageBytes;
      // An id between two slots is no object's (a reference into the middle of one, or not aligned).
      if (within % unit !== 0) return NONE;
      return slots[base * PAGE_SLOTS + within / unit]!;
    },
  };
}
