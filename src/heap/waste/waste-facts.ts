/**
 * What a format's reader gathers for the memory-waste analysis on the pass that builds the object
 * graph (no pass of its own): the few facts of an object the graph does not keep (a primitive array's
 * contents, a collection's count), by object index of that graph. Typed arrays, ascending by object
 * index, so they cost bytes per fact and no JavaScript object per heap object.
 */
import type { ChunkedNumbers, RankedBits } from './bits.js';

export interface WasteFacts {
  /** byte[] and char[] arrays (a String's characters), by object index; their rank places them in valueKeys. */
  readonly valueArrays: RankedBits;
  /**
   * For each of them, a 53-bit key of its type, length and contents (equal contents, equal keys);
   * NaN when it was not read. Let go (undefined) once the duplicates are found: the analysis's
   * next step needs the room.
   */
  valueKeys: ChunkedNumbers | undefined;
  /** Primitive arrays of one element or more whose every element is zero, by object index. */
  readonly zeroArrays: RankedBits;
  /** Their lengths, by rank. */
  readonly zeroLengths: Int32Array;
  /** Collections of a kind of COLLECTION_KINDS (or walked only), ascending object index. */
  readonly collections: Int32Array;
  /** Index into COLLECTION_KINDS; WALKED_ONLY for the walked-only kind. */
  readonly collectionKinds: Uint8Array;
  /** Elements it says it holds: a count, NOT_EMPTY_UNCOUNTED when it is known to hold some but not how many, NaN when unknown. */
  readonly collectionSizes: Float64Array;
  /** The object index of its table (or, for ConcurrentLinkedQueue, of its head node); -1 when none. */
  readonly collectionTables: Int32Array;
  /** Its table's length in slots (0 when none). */
  readonly tableSlots: Int32Array;
  /** The object index of the collection it keeps its elements in (a set's map); -1 when none. */
  readonly collectionInners: Int32Array;
  /**
   * Per object index, for instances of classes that can hold waste (not containers) with 2 to 31
   * reference fields: an id of which of those fields are not null (0: not recorded). The graph keeps
   * only the references that are not null, so which field its k-th edge is depends on it.
   */
  readonly holderPatterns: Uint8Array;
  /** By the graph's class key: the mask of each pattern id (bit k: the k-th reference field, own fields first, is not null), id 1 first. */
  readonly patternMasks: ReadonlyMap<number, Uint32Array>;
  /** Every class the dump defines, by name, with its superclass's name (absent for java.lang.Object and interfaces' roots). */
  readonly superclasses: ReadonlyMap<string, string>;
  /** Primitive arrays whose contents were not read (too big to hand over): not known to be zeros, nor a duplicate value. */
  readonly unreadArrays: number;
  /** Instances met before their class's record (or a superclass's): whether they are collections is unknown. */
  readonly instancesBeforeClass: number;
}

/** collectionKinds' value for a collection walked for its boxes only. */
export const WALKED_ONLY = 255;

/** A collection known to hold elements, without its count. */
export const NOT_EMPTY_UNCOUNTED = -1;

/** The position of `index` in an ascending column, or -1. */
export function rankIn(column: Int32Array, index: number): number {
  let lo = 0;
  let hi = column.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = column[mid]!;
    if (v < index) lo = mid + 1;
    else if (v > index) hi = mid - 1;
    else return mid;
  }
  return -1;
}
