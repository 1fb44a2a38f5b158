/**
 * The memory waste of a heap (issue 49): duplicate strings, empty and sparse collections, boxed
 * numbers in collections and all-zero primitive arrays, each with the bytes a fix gives back, its
 * share of the heap and the holders that keep most of it.
 *
 * A pure function of what the load already holds: the objects of a HeapView (any format that fills
 * one), the shallow sizes of the object graph built on the same load (graphShallowSizes). It reads
 * no file. It sees only the objects the load read: when those are fewer than the dump's, it says so
 * in `notes`, and what it did not see is not reported as clean.
 *
 * Cost: it needs every object in the HeapView, which the memory analysis does not load (a 90 MB heap:
 * four to five times the time and three times the memory of analyze's load, bench/waste-bench.mjs; the 1.9 GB
 * bench heap cannot be loaded whole). Before it joins `memory`, the first pass should gather what it
 * reads, riding on the loader's pass as the graph builder does: whether each primitive array is all
 * zeros, a hash of each byte[]/char[] (a String's value), the size fields of the collection classes'
 * instances; the rest is in the graph (a String's value array, a collection's table and its length
 * from its shallow size, first referrers by one scan of the edges), and the holders' field names are
 * read for the few objects named, as step-names.ts reads the steps of a path.
 */
import type { MemoryWaste } from '../../model/memory-waste.js';
import type { HeapView } from '../heap-view.js';
import { collectionWaste } from './collection-waste.js';
import { duplicateStrings } from './duplicate-strings.js';
import { Holders } from './holders.js';
import type { ShallowSizes } from './shallow-sizes.js';
import { zeroArrays } from './zero-arrays.js';

export interface MemoryWasteOptions {
  /** Duplicate values listed (default 20). */
  readonly topValues?: number;
  /** Holders and groups listed per kind (default 10). */
  readonly topGroups?: number;
}

export function memoryWaste(view: HeapView, sizes: ShallowSizes, options: MemoryWasteOptions = {}): MemoryWaste {
  const topGroups = options.topGroups ?? 10;
  const holders = new Holders(view);
  const strings = duplicateStrings(view, sizes, holders, { topValues: options.topValues ?? 20, topHolders: topGroups });
  const collections = collectionWaste(view, sizes, holders, topGroups);
  const zeros = zeroArrays(view, sizes, holders, topGroups);
  const share = (bytes: number) => (sizes.heapBytes > 0 ? bytes / sizes.heapBytes : 0);
  const withShare = <T extends { readonly wastedBytes: number }>(k: T) => ({ ...k, shareOfHeap: share(k.wastedBytes) });
  const kinds = {
    duplicateStrings: withShare(strings.waste),
    emptyCollections: withShare(collections.empty),
    sparseCollections: withShare(collections.sparse),
    boxedInCollections: withShare(collections.boxed),
    zeroArrays: withShare(zeros),
  };
  const wastedBytes = Object.values(kinds).reduce((t, k) => t + k.wastedBytes, 0);
  return {
    heapBytes: sizes.heapBytes,
    wastedBytes,
    shareOfHeap: share(wastedBytes),
    ...kinds,
    notes: notesOf(view, sizes, strings.unread, collections.partial),
  };
}

function notesOf(view: HeapView, sizes: ShallowSizes, unreadStrings: number, partialCollections: number): string[] {
  const notes: string[] = [];
  const loaded = view.store.objects.size;
  if (loaded < sizes.objects)
    notes.push(`waste was looked for in the ${loaded} objects the load read, of the ${sizes.objects} in the dump: the others may hold more`);
  if (unreadStrings > 0) notes.push(`${unreadStrings} strings whose characters were not read are left out of the duplicates`);
  if (partialCollections > 0)
    notes.push(
      `${partialCollections} collections could not be read whole (a part not loaded, or a kind the collection walkers do not read, as WeakHashMap): ` +
        'boxed numbers in them are not counted',
    );
  if (view.store.cut !== undefined) notes.push(`the dump is cut short (${view.store.cut}): what it lost is not counted`);
  return notes;
}
