/**
 * Walkers for the JDK collections the analyses read: maps, lists, sets, queues, deques and atomics,
 * by their real fields (see ../shared/docs/java-internals.md and heap-formats.md section 1.8).
 *
 * Every walker is cycle-safe (a visited set) and bounded (MAX_ITEMS); `complete` is false when a
 * part of the structure was not loaded or the bound was hit, so callers never mistake a partial
 * answer for the whole one.
 */
import type { HeapObject, HeapValue } from './heap-model.js';
import { type HeapView, isRef } from './heap-view.js';

const MAX_ITEMS = 1_000_000;

export interface Walked<T> {
  readonly items: T[];
  /** False when some part was not loaded, a cycle was cut, or the bound was reached. */
  readonly complete: boolean;
  /** What the collection says its size is (size, count, baseCount + cells), when it says. */
  readonly declaredSize?: number;
}

export type MapEntry = readonly [key: HeapValue, value: HeapValue];

class Collector<T> {
  readonly items: T[] = [];
  complete = true;
  private readonly seen = new Set<number>();

  /** False (and incomplete) when the node was seen before or the bound is reached. */
  visit(id: number): boolean {
    if (this.seen.has(id) || this.items.length >= MAX_ITEMS) {
      this.complete = false;
      return false;
    }
    this.seen.add(id);
    return true;
  }

  result(declaredSize?: number): Walked<T> {
    return declaredSize === undefined ? { items: this.items, complete: this.complete } : { items: this.items, complete: this.complete, declaredSize };
  }
}

const num = (v: HeapValue | undefined): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);

/** Follows a reference that should be there: a missing object marks the walk incomplete. */
function need(view: HeapView, c: Collector<unknown>, v: HeapValue | undefined): HeapObject | undefined {
  if (v === null || v === undefined || !isRef(v)) return undefined;
  const o = view.object(v);
  if (o === undefined) c.complete = false;
  return o;
}

/**
 * Entries of a map: HashMap, LinkedHashMap (in order), ConcurrentHashMap, Hashtable, IdentityHashMap, TreeMap,
 * JDK 9+ immutable maps, and Collections wrappers.
 */
export function mapEntries(view: HeapView, map: HeapObject | undefined): Walked<MapEntry> {
  const c = new Collector<MapEntry>();
  if (map === undefined) return { items: [], complete: false };
  const cls = view.classOf(map);
  if (cls === undefined) return { items: [], complete: false };
  const is = (name: string) => view.isA(cls, name);
  const wrapped = unwrapMap(view, map);
  if (wrapped !== null) return wrapped === undefined ? { items: [], complete: false } : mapEntries(view, wrapped);

  if (is('java.util.LinkedHashMap')) {
    // Insertion (or access) order: head -> after.
    for (let e = need(view, c, view.field(map, 'head')); e !== undefined && c.visit(e.id); e = need(view, c, view.field(e, 'after'))) {
      c.items.push([view.field(e, 'key') ?? null, view.field(e, 'value') ?? null]);
    }
    return c.result(num(view.field(map, 'size')));
  }
  if (is('java.util.concurrent.ConcurrentHashMap')) {
    walkConcurrentTable(view, c, need(view, c, view.field(map, 'table')));
    const nextTable = need(view, c, view.field(map, 'nextTable'));
    if (nextTable) walkConcurrentTable(view, c, nextTable);
    return c.result(concurrentHashMapSize(view, map));
  }
  if (is('java.util.HashMap') || is('java.util.Hashtable')) {
    walkChainedTable(view, c, need(view, c, view.field(map, 'table')), 'value');
    return c.result(num(view.field(map, 'size')) ?? num(view.field(map, 'count')));
  }
  if (is('java.util.IdentityHashMap') || cls.name === 'java.util.ImmutableCollections$MapN') {
    // Keys and values alternate in one array.
    const table = need(view, c, view.field(map, 'table'));
    if (table?.kind === 'object-array') {
      for (let i = 0; i + 1 < table.elements.length; i += 2) {
        const k = table.elements[i]!;
        if (k !== 0) c.items.push([{ ref: k }, table.elements[i + 1] === 0 ? null : { ref: table.elements[i + 1]! }]);
      }
    }
    return c.result(num(view.field(map, 'size')));
  }
  if (cls.name === 'java.util.ImmutableCollections$Map1') {
    c.items.push([view.field(map, 'k0') ?? null, view.field(map, 'v0') ?? null]);
    return c.result(1);
  }
  if (is('java.util.TreeMap')) {
    const stack: HeapObject[] = [];
    let node = need(view, c, view.field(map, 'root'));
    // In-order: key order, as the map iterates.
    while ((node !== undefined || stack.length > 0) && c.items.length < MAX_ITEMS) {
      while (node !== undefined && c.visit(node.id)) {
        stack.push(node);
        node = need(view, c, view.field(node, 'left'));
      }
      const top = stack.pop();
      if (top === undefined) break;
      c.items.push([view.field(top, 'key') ?? null, view.field(top, 'value') ?? null]);
      node = need(view, c, view.field(top, 'right'));
    }
    return c.result(num(view.field(map, 'size')));
  }
  if (cls.name === 'java.util.Collections$EmptyMap') return c.result(0);
  if (cls.name === 'java.util.Collections$SingletonMap') {
    c.items.push([view.field(map, 'k') ?? null, view.field(map, 'v') ?? null]);
    return c.result(1);
  }
  return { items: [], complete: false };
}

/** The map a Collections wrapper holds; null when `map` is not a wrapper, undefined when its target is not loaded. */
function unwrapMap(view: HeapView, map: HeapObject): HeapObject | undefined | null {
  const name = view.classNameOf(map);
  if (!/^java\.util\.Collections\$(?:Unmodifiable|Synchronized|Checked)\w*Map$/.test(name)) return null;
  return view.follow(map, 'm');
}

/** HashMap / Hashtable table: bins chained by `next` (tree bins keep their `next` links too). */
function walkChainedTable(view: HeapView, c: Collector<MapEntry>, table: HeapObject | undefined, valueField: string): void {
  if (table?.kind !== 'object-array') return;
  for (const head of table.elements) {
    for (let e = head === 0 ? undefined : need(view, c, { ref: head }); e !== undefined && c.visit(e.id); e = need(view, c, view.field(e, 'next'))) {
      c.items.push([view.field(e, 'key') ?? null, view.field(e, valueField) ?? null]);
    }
  }
}

/** ConcurrentHashMap table: plain bins, TreeBins (walk `first`), ForwardingNodes (the new table is walked separately), ReservationNodes (empty). */
function walkConcurrentTable(view: HeapView, c: Collector<MapEntry>, table: HeapObject | undefined): void {
  if (table?.kind !== 'object-array') return;
  for (const head of table.elements) {
    if (head === 0) continue;
    let e = need(view, c, { ref: head });
    if (e === undefined) continue;
    const kind = view.classNameOf(e);
    if (kind.endsWith('ConcurrentHashMap$ForwardingNode') || kind.endsWith('ConcurrentHashMap$ReservationNode')) continue;
    if (kind.endsWith('ConcurrentHashMap$TreeBin')) e = need(view, c, view.field(e, 'first'));
    // A node reached twice (moved during a resize and seen in both tables) is one entry.
    for (; e !== undefined; e = need(view, c, view.field(e, 'next'))) {
      if (!c.visit(e.id)) {
        c.complete = true; // a shared node is expected during a resize, not a loss
        break;
      }
      c.items.push([view.field(e, 'key') ?? null, view.field(e, 'val') ?? null]);
    }
  }
}

/** ConcurrentHashMap has no size field: baseCount plus the striped counter cells. */
function concurrentHashMapSize(view: HeapView, map: HeapObject): number | undefined {
  const base = num(view.field(map, 'baseCount'));
  if (base === undefined) return undefined;
  let total = base;
  const cells = view.follow(map, 'counterCells');
  if (cells?.kind === 'object-array') for (const id of cells.elements) total += num(view.field(view.object(id), 'value')) ?? 0;
  return total;
}

/** Elements of a list, set, queue or deque, in iteration order. */
export function collectionElements(view: HeapView, coll: HeapObject | undefined): Walked<HeapValue> {
  const c = new Collector<HeapValue>();
  if (coll === undefined) return { items: [], complete: false };
  if (coll.kind !== 'instance') return { items: view.arrayValues(coll), complete: true, declaredSize: view.arrayValues(coll).length };
  const cls = view.classOf(coll);
  if (cls === undefined) return { items: [], complete: false };
  const is = (name: string) => view.isA(cls, name);
  const name = cls.name;

  if (/^java\.util\.Collections\$(?:Unmodifiable|Synchronized|Checked)\w*(?:Collection|List|Set)$/.test(name)) {
    return collectionElements(view, view.follow(coll, 'c') ?? view.follow(coll, 'list'));
  }
  if (name === 'java.util.Collections$SetFromMap' || name === 'java.util.concurrent.ConcurrentHashMap$KeySetView') {
    return keysOf(view, view.follow(coll, 'm') ?? view.follow(coll, 'map'));
  }
  if (is('java.util.HashSet') || is('java.util.TreeSet')) return keysOf(view, view.follow(coll, 'map') ?? view.follow(coll, 'm'));
  if (is('java.util.ArrayList') || is('java.util.Vector')) {
    const size = num(view.field(coll, 'size')) ?? num(view.field(coll, 'elementCount')) ?? 0;
    return sliceOf(c, need(view, c, view.field(coll, 'elementData')), 0, size, size);
  }
  if (is('java.util.concurrent.CopyOnWriteArrayList')) {
    const arr = need(view, c, view.field(coll, 'array'));
    const n = arr?.kind === 'object-array' ? arr.elements.length : 0;
    return sliceOf(c, arr, 0, n, n);
  }
  if (is('java.util.concurrent.ArrayBlockingQueue')) {
    const items = need(view, c, view.field(coll, 'items'));
    const count = num(view.field(coll, 'count')) ?? 0;
    return ring(c, items, num(view.field(coll, 'takeIndex')) ?? 0, count, count);
  }
  if (is('java.util.ArrayDeque')) {
    const elements = need(view, c, view.field(coll, 'elements'));
    const len = elements?.kind === 'object-array' ? elements.elements.length : 0;
    const head = num(view.field(coll, 'head')) ?? 0;
    const tail = num(view.field(coll, 'tail')) ?? 0;
    const n = len === 0 ? 0 : (tail - head + len) % len;
    return ring(c, elements, head, n, n);
  }
  if (is('java.util.PriorityQueue') || is('java.util.concurrent.PriorityBlockingQueue') || name.endsWith('ScheduledThreadPoolExecutor$DelayedWorkQueue')) {
    const size = num(view.field(coll, 'size')) ?? 0;
    return sliceOf(c, need(view, c, view.field(coll, 'queue')), 0, size, size);
  }
  if (is('java.util.concurrent.DelayQueue')) return collectionElements(view, view.follow(coll, 'q'));
  if (is('java.util.concurrent.LinkedBlockingQueue')) {
    // `head` is a dummy node; items follow it.
    const head = need(view, c, view.field(coll, 'head'));
    if (head) c.visit(head.id);
    chain(view, c, head ? need(view, c, view.field(head, 'next')) : undefined, 'next', 'item');
    return c.result(atomicNumber(view, view.follow(coll, 'count')));
  }
  if (is('java.util.concurrent.LinkedBlockingDeque') || is('java.util.LinkedList')) {
    chain(view, c, need(view, c, view.field(coll, 'first')), 'next', 'item');
    return c.result(num(view.field(coll, 'count')) ?? num(view.field(coll, 'size')));
  }
  if (is('java.util.concurrent.ConcurrentLinkedQueue') || is('java.util.concurrent.ConcurrentLinkedDeque') || is('java.util.concurrent.LinkedTransferQueue')) {
    chain(view, c, need(view, c, view.field(coll, 'head')), 'next', 'item', true);
    return c.result();
  }
  if (is('java.util.concurrent.SynchronousQueue')) return c.result(0); // holds nothing: a hand-off
  if (name === 'java.util.ImmutableCollections$ListN' || name === 'java.util.ImmutableCollections$SetN') {
    const arr = need(view, c, view.field(coll, 'elements'));
    const n = arr?.kind === 'object-array' ? arr.elements.length : 0;
    return sliceOf(c, arr, 0, n, undefined, true);
  }
  if (name === 'java.util.ImmutableCollections$List12' || name === 'java.util.ImmutableCollections$Set12') {
    for (const f of ['e0', 'e1']) {
      const v = view.field(coll, f) ?? null;
      // Set12/List12 use a sentinel (EMPTY) for a missing e1; a self-reference is never an element.
      if (v !== null && !(isRef(v) && v.ref === coll.id) && !(f === 'e1' && isRef(v) && view.classNameOf(view.object(v) ?? coll) === 'java.lang.Object'))
        c.items.push(v);
    }
    return c.result(c.items.length);
  }
  if (name === 'java.util.Collections$EmptyList' || name === 'java.util.Collections$EmptySet') return c.result(0);
  if (name === 'java.util.Collections$SingletonList' || name === 'java.util.Collections$SingletonSet') {
    c.items.push(view.field(coll, 'element') ?? null);
    return c.result(1);
  }
  return { items: [], complete: false };
}

function keysOf(view: HeapView, map: HeapObject | undefined): Walked<HeapValue> {
  const m = mapEntries(view, map);
  return m.declaredSize === undefined
    ? { items: m.items.map((e) => e[0]), complete: m.complete }
    : { items: m.items.map((e) => e[0]), complete: m.complete, declaredSize: m.declaredSize };
}

function sliceOf(
  c: Collector<HeapValue>,
  arr: HeapObject | undefined,
  from: number,
  to: number,
  declared: number | undefined,
  skipNulls = false,
): Walked<HeapValue> {
  if (arr?.kind !== 'object-array') {
    if (to > from) c.complete = false;
    return c.result(declared);
  }
  const end = Math.min(to, arr.elements.length, from + MAX_ITEMS);
  if (end < to) c.complete = false;
  for (let i = from; i < end; i++) {
    const e = arr.elements[i]!;
    if (e === 0 && skipNulls) continue;
    c.items.push(e === 0 ? null : { ref: e });
  }
  return c.result(declared);
}

function ring(c: Collector<HeapValue>, arr: HeapObject | undefined, start: number, count: number, declared: number): Walked<HeapValue> {
  if (arr?.kind !== 'object-array' || arr.elements.length === 0) {
    if (count > 0) c.complete = false;
    return c.result(declared);
  }
  const len = arr.elements.length;
  for (let i = 0; i < Math.min(count, len, MAX_ITEMS); i++) {
    const e = arr.elements[(start + i) % len]!;
    c.items.push(e === 0 ? null : { ref: e });
  }
  return c.result(declared);
}

/** Linked nodes: `next` links and an `item` each; removed nodes (item null) are skipped when asked. */
function chain(view: HeapView, c: Collector<HeapValue>, first: HeapObject | undefined, nextField: string, itemField: string, skipNullItems = true): void {
  for (let n = first; n !== undefined;) {
    if (!c.visit(n.id)) {
      // A node pointing at itself marks a removed node in j.u.c. queues: the walk ends there, completely.
      if (isRef(view.field(n, nextField)) && (view.field(n, nextField) as { ref: number }).ref === n.id) c.complete = true;
      break;
    }
    const item = view.field(n, itemField) ?? null;
    if (item !== null || !skipNullItems) c.items.push(item);
    const next = view.field(n, nextField) ?? null;
    if (isRef(next) && next.ref === n.id) break;
    n = need(view, c, next);
  }
}

/**
 * The value of an atomic: AtomicInteger/Long (number or bigint), AtomicBoolean (boolean),
 * AtomicReference (the reference), LongAdder/LongAccumulator/Striped64 (base plus cells, as a number).
 */
export function atomicValue(view: HeapView, o: HeapObject | undefined): HeapValue | undefined {
  if (o === undefined || o.kind !== 'instance') return undefined;
  const cls = view.classOf(o);
  if (cls === undefined) return undefined;
  if (view.isA(cls, 'java.util.concurrent.atomic.Striped64')) {
    let total = BigInt((view.field(o, 'base') as bigint | number | null) ?? 0);
    const cells = view.follow(o, 'cells');
    if (cells?.kind === 'object-array') for (const id of cells.elements) total += BigInt((view.field(view.object(id), 'value') as bigint | number | null) ?? 0);
    return total;
  }
  if (cls.name === 'java.util.concurrent.atomic.AtomicBoolean') return view.field(o, 'value') === 1;
  return view.field(o, 'value');
}

/** An atomic's value as a number (bigints beyond 2^53 lose precision, which counters never reach). */
function atomicNumber(view: HeapView, o: HeapObject | undefined): number | undefined {
  const v = atomicValue(view, o);
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
}
