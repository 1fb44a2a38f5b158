/**
 * Memory a heap spends on nothing (issue 49, "memory waste"): duplicate strings, empty and sparse
 * collections, boxed numbers in collections, primitive arrays that hold only zeros. Each kind says
 * how many objects, the bytes a fix would give back (shallow sizes, by the JVM's layout the dump
 * shows) and their share of the heap, with the holders that keep most of them. Data only: the
 * analysis is src/heap/waste/, renderers draw this as it is.
 */

/** What keeps objects of a kind: the field of a class (`com.example.Product.status`, `Catalog.SAMPLES (static)`), found through arrays and collections. */
export interface WasteHolder {
  readonly holder: string;
  readonly objects: number;
  readonly wastedBytes: number;
  /** The field is the JDK's own (java., jdk., sun., ...), or a class's constant pool (its interned literals): the program cannot change it. */
  readonly jdk: boolean;
}

/** One value held as several distinct java.lang.String objects. */
export interface DuplicateStringValue {
  /** The value, cut to its first 200 characters (untrusted text: escape it where it is drawn). */
  readonly value: string;
  /** Its length in characters. */
  readonly length: number;
  /** Distinct String objects with this value. */
  readonly copies: number;
  /** Distinct arrays that hold their characters (copies made with `new String(s)` share one). */
  readonly valueArrays: number;
  /** What one String and one array would save: every other String, and every other array. */
  readonly wastedBytes: number;
  readonly holders: readonly WasteHolder[];
}

interface DuplicateStringsWaste {
  /** java.lang.String objects read. */
  readonly strings: number;
  readonly distinctValues: number;
  readonly valuesHeldMoreThanOnce: number;
  /** Copies beyond the first of every value held more than once. */
  readonly extraCopies: number;
  readonly wastedBytes: number;
  /** The part of wastedBytes whose holders are the JDK's own fields. */
  readonly jdkWastedBytes: number;
  readonly shareOfHeap: number;
  /** The values held most often (then wasting the most bytes), first. */
  readonly values: readonly DuplicateStringValue[];
  /** What keeps the extra copies, over all values. */
  readonly holders: readonly WasteHolder[];
}

/** Empty collections of one class kept by one holder. */
export interface EmptyCollectionGroup {
  readonly className: string;
  readonly holder: string;
  readonly jdk: boolean;
  readonly count: number;
  /** The collections and what only they hold (their own empty table or array, a set's inner map). */
  readonly wastedBytes: number;
  /** Slots of the tables or arrays they allocated (0: none allocated yet). */
  readonly slots: number;
}

interface EmptyCollectionsWaste {
  readonly count: number;
  readonly wastedBytes: number;
  /** The part of wastedBytes whose holders are the JDK's own fields. */
  readonly jdkWastedBytes: number;
  readonly shareOfHeap: number;
  readonly byClass: ReadonlyArray<{ readonly className: string; readonly count: number; readonly wastedBytes: number }>;
  /** Largest first. */
  readonly groups: readonly EmptyCollectionGroup[];
}

/** Collections of one class and holder that use a small part of the table or array they allocated. */
export interface SparseCollectionGroup {
  readonly className: string;
  readonly holder: string;
  readonly jdk: boolean;
  readonly count: number;
  /** Entries (or elements) held, over all of them. */
  readonly entries: number;
  /** Slots allocated, over all of them. */
  readonly slots: number;
  /** entries / slots. */
  readonly fillRatio: number;
  /** The unused part of their tables. */
  readonly wastedBytes: number;
}

interface SparseCollectionsWaste {
  /** What makes a collection sparse here. */
  readonly criterion: string;
  readonly count: number;
  readonly wastedBytes: number;
  /** The part of wastedBytes whose holders are the JDK's own fields. */
  readonly jdkWastedBytes: number;
  readonly shareOfHeap: number;
  readonly groups: readonly SparseCollectionGroup[];
}

/** Boxed numbers of one class in the collections one holder keeps. */
export interface BoxedGroup {
  readonly holder: string;
  readonly jdk: boolean;
  readonly collectionClass: string;
  readonly boxedClass: string;
  /** Distinct box objects. */
  readonly count: number;
  /** Each box less the primitive it holds. */
  readonly wastedBytes: number;
}

interface BoxedInCollectionsWaste {
  readonly count: number;
  readonly wastedBytes: number;
  /** The part of wastedBytes whose holders are the JDK's own fields. */
  readonly jdkWastedBytes: number;
  readonly shareOfHeap: number;
  readonly groups: readonly BoxedGroup[];
  /**
   * Boxes in the JDK's own caches (Integer$IntegerCache and its kind: arrays the JVM fills at start),
   * said apart: not the program's waste, and counted in none of the above.
   */
  readonly inJdkCaches: number;
}

/** Primitive arrays of one type and length whose every element is zero. */
interface ZeroArrayShape {
  /** `byte[4096]`. */
  readonly shape: string;
  readonly count: number;
  readonly bytes: number;
}

interface ZeroArraysWaste {
  readonly count: number;
  readonly wastedBytes: number;
  /** The part of wastedBytes whose holders are the JDK's own fields. */
  readonly jdkWastedBytes: number;
  readonly shareOfHeap: number;
  readonly byShape: readonly ZeroArrayShape[];
  readonly holders: readonly WasteHolder[];
}

export interface MemoryWaste {
  /** The shallow bytes of the whole heap the shares are of. */
  readonly heapBytes: number;
  /** The kinds' bytes added up (no object is counted by two kinds). */
  readonly wastedBytes: number;
  readonly shareOfHeap: number;
  readonly duplicateStrings: DuplicateStringsWaste;
  readonly emptyCollections: EmptyCollectionsWaste;
  readonly sparseCollections: SparseCollectionsWaste;
  readonly boxedInCollections: BoxedInCollectionsWaste;
  readonly zeroArrays: ZeroArraysWaste;
  /** What the analysis could not see (objects the load did not reach, walks cut short): an unread part is said, never taken as clean. */
  readonly notes: readonly string[];
}

export type WasteKind = 'duplicateStrings' | 'emptyCollections' | 'sparseCollections' | 'boxedInCollections' | 'zeroArrays';

export const WASTE_KINDS: readonly WasteKind[] = ['duplicateStrings', 'emptyCollections', 'sparseCollections', 'boxedInCollections', 'zeroArrays'];

/** The typed thresholds of the memory-waste rule (src/rules/memory-waste.ts): its `meta.options`. */
export const WASTE_SHARE_OPTIONS = {
  minShareOfHeap: {
    type: 'number',
    min: 0,
    max: 1,
    default: 0.1,
    description: 'The share of the heap (0..1) all kinds of waste together must reach for a warning.',
  },
  minKindShareOfHeap: {
    type: 'number',
    min: 0,
    max: 1,
    default: 0.05,
    description: 'The share of the heap one kind of waste must reach to be named in the finding.',
  },
  minWastedBytes: {
    type: 'integer',
    min: 0,
    default: 16 * 1024 * 1024,
    description: 'Bytes of waste below which there is no finding, whatever the share (a small heap wastes little).',
  },
  countJdkHolders: {
    type: 'boolean',
    default: false,
    description: "Count waste the JDK's own fields keep (the program cannot change it).",
  },
} as const;

export interface WasteShareThresholds {
  readonly minShareOfHeap: number;
  readonly minKindShareOfHeap: number;
  readonly minWastedBytes: number;
  readonly countJdkHolders: boolean;
}
