/**
 * Collections that hold nothing, collections that use a small part of the table they allocated, and
 * boxed numbers held in collections. Sizes are what each collection says of itself (its `size`, a
 * ConcurrentHashMap's counters); elements come from the collection walkers of ../collections.ts.
 */
import type {
  BoxedGroup,
  BoxedInCollectionsWaste,
  EmptyCollectionGroup,
  EmptyCollectionsWaste,
  SparseCollectionGroup,
  SparseCollectionsWaste,
} from '../../model/memory-waste.js';
import { collectionElements, mapEntries } from '../collections.js';
import type { HeapInstance, HeapObject, HeapValue } from '../heap-model.js';
import { sizeOf } from '../heap-values.js';
import { type HeapView, isRef } from '../heap-view.js';
import { type Holders, isJdkHolder } from './holders.js';
import type { ShallowSizes } from './shallow-sizes.js';

/**
 * The collections looked at, by the class they are or extend: `table` is the field of the array
 * they allocate their slots in (`pairs`: two slots an entry), `inner` the collection a set keeps its
 * elements in (counted as part of the set, not on its own), `sparse` whether a table mostly unused is
 * waste (a bounded queue's array is its capacity, chosen: not waste).
 */
interface Kind {
  readonly base: string;
  readonly map: boolean;
  readonly table?: string;
  readonly inner?: string;
  readonly pairs?: boolean;
  readonly sparse?: boolean;
}

const KINDS: readonly Kind[] = [
  { base: 'java.util.HashSet', map: false, inner: 'map', sparse: true },
  { base: 'java.util.TreeSet', map: false, inner: 'm' },
  { base: 'java.util.HashMap', map: true, table: 'table', sparse: true },
  // Since JDK 9 a Properties keeps its entries in a ConcurrentHashMap of its own, its Hashtable part stays empty.
  { base: 'java.util.Properties', map: true, inner: 'map', sparse: true },
  { base: 'java.util.Hashtable', map: true, table: 'table', sparse: true },
  { base: 'java.util.WeakHashMap', map: true, table: 'table', sparse: true },
  { base: 'java.util.IdentityHashMap', map: true, table: 'table', pairs: true, sparse: true },
  { base: 'java.util.TreeMap', map: true },
  { base: 'java.util.concurrent.ConcurrentHashMap', map: true, table: 'table', sparse: true },
  { base: 'java.util.ArrayList', map: false, table: 'elementData', sparse: true },
  { base: 'java.util.Vector', map: false, table: 'elementData', sparse: true },
  { base: 'java.util.LinkedList', map: false },
  { base: 'java.util.ArrayDeque', map: false, table: 'elements' },
  { base: 'java.util.PriorityQueue', map: false, table: 'queue' },
  { base: 'java.util.concurrent.CopyOnWriteArrayList', map: false, table: 'array' },
  { base: 'java.util.concurrent.LinkedBlockingQueue', map: false },
  { base: 'java.util.concurrent.ConcurrentLinkedQueue', map: false },
];

/** A table this big or bigger, at most a quarter used, is sparse. */
const SPARSE_MIN_SLOTS = 64;
const SPARSE_MAX_FILL = 0.25;

/** Boxes and the bytes of the primitive each holds. */
const BOXES: ReadonlyMap<string, number> = new Map([
  ['java.lang.Integer', 4],
  ['java.lang.Long', 8],
  ['java.lang.Short', 2],
  ['java.lang.Byte', 1],
  ['java.lang.Character', 2],
  ['java.lang.Float', 4],
  ['java.lang.Double', 8],
  ['java.lang.Boolean', 1],
]);

/** The JDK's caches of boxes (Integer$IntegerCache.cache and archivedCache, Long$LongCache, ...). */
const BOX_CACHE_CLASS = /^java\.lang\.(?:Integer|Long|Short|Byte|Character)\$\w*Cache$/;

/** Collections of other shapes the walkers read (immutable lists, sets and maps, wrappers): walked for boxes, not counted as empty or sparse. */
const WALKED_ONLY =
  /^java\.util\.(?:ImmutableCollections\$(?:ListN|SetN|List12|Set12|MapN|Map1)|Collections\$(?:Unmodifiable|Synchronized|Checked|Singleton)\w*)$/;

interface Seen {
  readonly o: HeapInstance;
  readonly className: string;
  readonly kind: Kind | undefined;
}

export interface CollectionWaste {
  readonly empty: Omit<EmptyCollectionsWaste, 'shareOfHeap'>;
  readonly sparse: Omit<SparseCollectionsWaste, 'shareOfHeap'>;
  readonly boxed: Omit<BoxedInCollectionsWaste, 'shareOfHeap'>;
  /** Collections whose walk was cut short (a part not loaded): their boxes may be missed. */
  readonly partial: number;
}

export function collectionWaste(view: HeapView, sizes: ShallowSizes, holders: Holders, topGroups: number): CollectionWaste {
  const collections = collectionsOf(view, holders);
  const empty = new Groups<EmptyCollectionGroup>();
  const sparse = new Groups<SparseCollectionGroup>();
  for (const c of collections) {
    if (c.kind === undefined) continue;
    const inner = innerOf(view, c);
    const owner = inner !== undefined && holders.ownedBy(inner.id, c.o.id) ? inner : c.o;
    // What holds the elements says how many (a Properties's own Hashtable count is 0 whatever it holds).
    const size = declaredSize(view, inner ?? c.o);
    if (size === undefined) continue;
    const table = tableOf(view, c.kind, owner);
    const slots = table === undefined ? 0 : c.kind.pairs === true ? table.elements.length / 2 : table.elements.length;
    const tableOwned = table !== undefined && holders.ownedBy(table.id, owner.id);
    const tableBytes = tableOwned ? (sizes.of(table.id) ?? 0) : 0;
    if (size === 0) {
      const bytes = (sizes.of(c.o.id) ?? 0) + (owner !== c.o ? (sizes.of(owner.id) ?? 0) : 0) + tableBytes;
      const holder = holders.holderOf(c.o.id);
      empty.add(
        `${c.className}\n${holder}`,
        () => ({ className: c.className, holder, jdk: isJdkHolder(holder), count: 0, wastedBytes: 0, slots: 0 }),
        (g) => ({
          ...g,
          count: g.count + 1,
          wastedBytes: g.wastedBytes + bytes,
          slots: g.slots + (tableOwned ? slots : 0),
        }),
      );
    } else if (c.kind.sparse === true && tableOwned && slots >= SPARSE_MIN_SLOTS && size <= slots * SPARSE_MAX_FILL) {
      const unused = (tableBytes * (slots - size)) / slots;
      const holder = holders.holderOf(c.o.id);
      sparse.add(
        `${c.className}\n${holder}`,
        () => ({ className: c.className, holder, jdk: isJdkHolder(holder), count: 0, entries: 0, slots: 0, fillRatio: 0, wastedBytes: 0 }),
        (g) => ({ ...g, count: g.count + 1, entries: g.entries + size, slots: g.slots + slots, wastedBytes: g.wastedBytes + unused }),
      );
    }
  }
  const emptyGroups = empty.sorted();
  const sparseGroups = sparse.sorted().map((g) => ({ ...g, fillRatio: g.entries / g.slots, wastedBytes: Math.round(g.wastedBytes) }));
  const byClass = new Map<string, { className: string; count: number; wastedBytes: number }>();
  for (const g of emptyGroups) {
    const t = byClass.get(g.className) ?? { className: g.className, count: 0, wastedBytes: 0 };
    byClass.set(g.className, { ...t, count: t.count + g.count, wastedBytes: t.wastedBytes + g.wastedBytes });
  }
  const boxed = boxesIn(view, sizes, holders, collections, topGroups);
  return {
    empty: {
      ...totals(emptyGroups),
      byClass: [...byClass.values()].sort((a, b) => b.wastedBytes - a.wastedBytes || (a.className < b.className ? -1 : 1)),
      groups: emptyGroups.slice(0, topGroups),
    },
    sparse: {
      criterion: `a table of ${SPARSE_MIN_SLOTS} slots or more, at most ${SPARSE_MAX_FILL * 100} % of them used`,
      ...totals(sparseGroups),
      groups: sparseGroups.slice(0, topGroups),
    },
    boxed: boxed.waste,
    partial: boxed.partial,
  };
}

/**
 * Every collection instance, in id order, but those that are the inner part of another one (a
 * HashSet's HashMap): those are counted with the set that owns them.
 */
function collectionsOf(view: HeapView, holders: Holders): Seen[] {
  const kindOf = new Map<number, Kind | null>();
  const out: Seen[] = [];
  for (const o of view.store.objects.values()) {
    if (o.kind !== 'instance') continue;
    let kind = kindOf.get(o.classId);
    if (kind === undefined) {
      const cls = view.classOf(o);
      kind = cls === undefined ? null : (KINDS.find((k) => view.isA(cls, k.base)) ?? (WALKED_ONLY.test(cls.name) ? WALKED_ONLY_KIND : null));
      kindOf.set(o.classId, kind);
    }
    if (kind === null) continue;
    out.push({ o, className: view.classNameOf(o), kind: kind === WALKED_ONLY_KIND ? undefined : kind });
  }
  const inner = new Set<number>();
  for (const c of out) {
    if (c.kind?.inner === undefined) continue;
    const i = view.follow(c.o, c.kind.inner);
    if (i !== undefined && holders.ownedBy(i.id, c.o.id)) inner.add(i.id);
  }
  return out.filter((c) => !inner.has(c.o.id)).sort((a, b) => a.o.id - b.o.id);
}

const WALKED_ONLY_KIND: Kind = { base: '', map: false };

/** The collection a set (or a Properties) keeps its elements in, when it has one and it was loaded. */
function innerOf(view: HeapView, c: Seen): HeapInstance | undefined {
  const i = c.kind?.inner !== undefined ? view.follow(c.o, c.kind.inner) : undefined;
  return i?.kind === 'instance' ? i : undefined;
}

/** The size the collection says it has (its own field first: some, as WeakHashMap, no walker reads). */
function declaredSize(view: HeapView, o: HeapInstance): number | undefined {
  for (const f of ['size', 'count', 'elementCount']) {
    const v = view.field(o, f);
    if (typeof v === 'number') return v;
  }
  return sizeOf(view, o);
}

function tableOf(view: HeapView, kind: Kind, o: HeapObject): Extract<HeapObject, { kind: 'object-array' }> | undefined {
  if (kind.table === undefined && kind.inner === undefined) return undefined;
  // A set's table is its inner map's.
  const t = view.follow(o, kind.table ?? 'table');
  return t?.kind === 'object-array' ? t : undefined;
}

/** Boxed numbers that collections hold, each box once (the first collection met that holds it). */
function boxesIn(
  view: HeapView,
  sizes: ShallowSizes,
  holders: Holders,
  collections: readonly Seen[],
  topGroups: number,
): { waste: Omit<BoxedInCollectionsWaste, 'shareOfHeap'>; partial: number } {
  const cached = boxesInJdkCaches(view);
  const counted = new Set<number>();
  const groups = new Groups<BoxedGroup>();
  let partial = 0;
  for (const c of collections) {
    const inner = innerOf(view, c);
    const target = inner ?? c.o;
    const isMap = inner !== undefined || (c.kind?.map ?? /Map/.test(c.className));
    const walked = isMap ? mapEntries(view, target) : collectionElements(view, target);
    if (!walked.complete) partial++;
    const values: HeapValue[] = isMap ? (walked.items as ReadonlyArray<readonly [HeapValue, HeapValue]>).flat() : (walked.items as HeapValue[]);
    let holder: string | undefined;
    for (const v of values) {
      if (!isRef(v) || counted.has(v.ref) || cached.has(v.ref)) continue;
      const box = view.object(v);
      if (box === undefined || box.kind !== 'instance') continue;
      const boxedClass = view.classNameOf(box);
      const width = BOXES.get(boxedClass);
      if (width === undefined) continue;
      counted.add(v.ref);
      holder ??= holders.holderOf(c.o.id);
      const h = holder;
      const bytes = Math.max(0, (sizes.of(box.id) ?? 0) - width);
      groups.add(
        `${h}\n${c.className}\n${boxedClass}`,
        () => ({ holder: h, jdk: isJdkHolder(h), collectionClass: c.className, boxedClass, count: 0, wastedBytes: 0 }),
        (g) => ({ ...g, count: g.count + 1, wastedBytes: g.wastedBytes + bytes }),
      );
    }
  }
  const sorted = groups.sorted();
  return { waste: { ...totals(sorted), groups: sorted.slice(0, topGroups), inJdkCaches: cached.size }, partial };
}

/** Ids of the boxes the JDK's own caches hold: shared by every use of their values, so no use of them wastes one. */
function boxesInJdkCaches(view: HeapView): Set<number> {
  const out = new Set<number>();
  for (const c of view.store.classes.values()) {
    if (!BOX_CACHE_CLASS.test(c.name)) continue;
    for (const s of c.statics) {
      const arr = isRef(s.value) ? view.object(s.value) : undefined;
      if (arr?.kind === 'object-array') for (const e of arr.elements) if (e !== 0) out.add(e);
    }
  }
  return out;
}

/** Groups by key, listed most bytes first. */
class Groups<G extends { readonly count: number; readonly wastedBytes: number; readonly jdk: boolean }> {
  private readonly byKey = new Map<string, G>();

  add(key: string, start: () => G, next: (g: G) => G): void {
    this.byKey.set(key, next(this.byKey.get(key) ?? start()));
  }

  sorted(): G[] {
    return [...this.byKey.entries()].sort(([ka, a], [kb, b]) => b.wastedBytes - a.wastedBytes || b.count - a.count || (ka < kb ? -1 : 1)).map(([, g]) => g);
  }
}

function totals(groups: ReadonlyArray<{ readonly count: number; readonly wastedBytes: number; readonly jdk: boolean }>) {
  let count = 0;
  let wastedBytes = 0;
  let jdkWastedBytes = 0;
  for (const g of groups) {
    count += g.count;
    wastedBytes += g.wastedBytes;
    if (g.jdk) jdkWastedBytes += g.wastedBytes;
  }
  return { count, wastedBytes: Math.round(wastedBytes), jdkWastedBytes: Math.round(jdkWastedBytes) };
}
