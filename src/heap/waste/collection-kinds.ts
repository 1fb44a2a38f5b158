/**
 * The JDK collections memory waste looks into, as data: the class each kind is (or extends), the
 * fields that say how many elements it holds and where its slots are, by their names in the JDK's
 * own sources (java.util and java.util.concurrent, JDK 8 to 21). A format's reader finds the fields
 * by these names in the dump's class records; the waste analysis reads what it found.
 */

/** How a collection says how many elements it holds. */
export type SizeSource =
  /** An int (or long) field holds the count. */
  | { readonly field: string; readonly long?: boolean; readonly unlessSet?: string }
  /** ArrayDeque: `tail - head`, modulo its array's length. */
  | { readonly deque: { readonly head: string; readonly tail: string } }
  /** CopyOnWriteArrayList: its array is exactly as long as its elements. */
  | { readonly tableLength: true }
  /** LinkedBlockingQueue: empty when its `head` is its `last` (its count is an AtomicInteger object). */
  | { readonly emptyWhenSame: readonly [string, string] }
  /** ConcurrentLinkedQueue: empty when its head node holds no item and no next node. */
  | { readonly emptyHeadNode: string };

export interface CollectionKind {
  /** The class the collection is or extends (the first kind in COLLECTION_KINDS that matches wins). */
  readonly base: string;
  readonly size?: SizeSource;
  /** The field of the array it allocates its slots in. */
  readonly table?: string;
  /** The collection a set (or a Properties) keeps its elements in: counted as part of the set, not on its own. */
  readonly inner?: string;
  /** Two slots an entry (IdentityHashMap). */
  readonly pairs?: boolean;
  /** Whether a table mostly unused is waste (a bounded queue's array is its capacity, chosen: not waste). */
  readonly sparse?: boolean;
}

const size = (field: string, long = false): SizeSource => ({ field, ...(long ? { long } : {}) });

export const COLLECTION_KINDS: readonly CollectionKind[] = [
  { base: 'java.util.HashSet', inner: 'map', sparse: true },
  { base: 'java.util.TreeSet', inner: 'm' },
  { base: 'java.util.HashMap', size: size('size'), table: 'table', sparse: true },
  // Since JDK 9 a Properties keeps its entries in a ConcurrentHashMap of its own, its Hashtable part
  // stays empty; a JDK 8 Properties has no `map` and is read as the Hashtable it is.
  { base: 'java.util.Properties', inner: 'map', sparse: true },
  { base: 'java.util.Hashtable', size: size('count'), table: 'table', sparse: true },
  { base: 'java.util.WeakHashMap', size: size('size'), table: 'table', sparse: true },
  { base: 'java.util.IdentityHashMap', size: size('size'), table: 'table', pairs: true, sparse: true },
  { base: 'java.util.TreeMap', size: size('size') },
  // Under contention its count is spread over counterCells: then the count is not read (silent).
  {
    base: 'java.util.concurrent.ConcurrentHashMap',

    size: { field: 'baseCount', long: true, unlessSet: 'counterCells' },
    table: 'table',
    sparse: true,
  },
  { base: 'java.util.ArrayList', size: size('size'), table: 'elementData', sparse: true },
  { base: 'java.util.Vector', size: size('elementCount'), table: 'elementData', sparse: true },
  { base: 'java.util.LinkedList', size: size('size') },
  { base: 'java.util.ArrayDeque', size: { deque: { head: 'head', tail: 'tail' } }, table: 'elements' },
  { base: 'java.util.PriorityQueue', size: size('size'), table: 'queue' },
  { base: 'java.util.concurrent.CopyOnWriteArrayList', size: { tableLength: true }, table: 'array' },
  { base: 'java.util.concurrent.LinkedBlockingQueue', size: { emptyWhenSame: ['head', 'last'] } },
  { base: 'java.util.concurrent.ConcurrentLinkedQueue', size: { emptyHeadNode: 'head' } },
];

/** Collections of other shapes (immutable lists, sets and maps, wrappers): walked for boxes only. */
export const WALKED_ONLY_CLASS =
  /^java\.util\.(?:ImmutableCollections\$(?:ListN|SetN|List12|Set12|MapN|Map1)|Collections\$(?:Unmodifiable|Synchronized|Checked|Singleton)\w*)$/;

/** A table this big or bigger, at most a quarter used, is sparse. */
export const SPARSE_MIN_SLOTS = 64;
export const SPARSE_MAX_FILL = 0.25;

/** Boxes and the bytes of the primitive each holds. */
export const BOXES: ReadonlyMap<string, number> = new Map([
  ['java.lang.Integer', 4],
  ['java.lang.Long', 8],
  ['java.lang.Short', 2],
  ['java.lang.Byte', 1],
  ['java.lang.Character', 2],
  ['java.lang.Float', 4],
  ['java.lang.Double', 8],
  ['java.lang.Boolean', 1],
]);

/** The JDK's caches of boxes (Integer$IntegerCache.cache and archivedCache, Long$LongCache, ...): arrays the JVM fills at start. */
export const BOX_CACHE_CLASS = /^java\.lang\.(?:Integer|Long|Short|Byte|Character)\$\w*Cache$/;

/** The JDK's own classes whose instances are the inner parts of a collection (its nodes, entries, views): a holder is looked for above them. */
export function isCollectionPart(name: string): boolean {
  if (!name.startsWith('java.util.')) return false;
  const inner = name.slice(name.lastIndexOf('$') + 1);
  return name.includes('$') && (/(?:Node|Entry|Segment|Cell)$/.test(inner) || COLLECTION_VIEWS.has(inner));
}

const COLLECTION_VIEWS = new Set(['KeySetView', 'KeySet', 'Values', 'EntrySet', 'ValuesView', 'EntrySetView']);

/** Classes whose instances hold elements for others: a holder is looked for above them too. */
export const CONTAINER_BASES: readonly string[] = [
  'java.util.AbstractCollection',
  'java.util.AbstractMap',
  'java.util.Dictionary',
  'java.util.Collections$SynchronizedCollection',
  'java.util.Collections$SynchronizedMap',
  'java.util.Collections$UnmodifiableCollection',
  'java.util.Collections$UnmodifiableMap',
];
