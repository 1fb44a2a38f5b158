/**
 * The memory waste of a heap (issue 49) from its object graph and the facts its reader gathered on
 * the same pass (waste-facts.ts): duplicate strings, empty and sparse collections, boxed numbers in
 * collections and all-zero primitive arrays, each with the bytes a fix gives back (the graph's
 * shallow sizes, by the JVM's layout) and the holders that keep most of it. No pass over the dump of
 * its own: what only the dump can say (a holder's field name, a duplicate value's characters) is read
 * for the few objects it names, with the paths' step names (wasteDraft, then finishWaste).
 *
 * A holder is the field of a class that keeps an object, found up its referrers through arrays,
 * collections and their nodes (not where a fix goes). Referrers are the lowest object indexes that
 * refer to it (HotSpot writes objects in address order, so the answer does not depend on chance).
 * Holders are named by site: a referrer's class, which of its references it is, and the class of
 * what it refers to; one object of each site is read for the field's name. Where a class's earlier
 * reference fields are null in some of its objects and not in others, one field's objects can be
 * counted under the site of another field of the same class: the totals stay right, the split between
 * two fields of one class may not.
 */
import type { BoxedGroup, DuplicateStringValue, EmptyCollectionGroup, MemoryWaste, SparseCollectionGroup, WasteHolder } from '../../model/memory-waste.js';
import type { ObjectGraph } from '../graph/object-graph.js';
import { frameOfThreadHolding } from '../graph/stack-frames.js';
import { BitSet, popcount, RankedBits } from './bits.js';
import { BOX_CACHE_CLASS, BOXES, COLLECTION_KINDS, CONTAINER_BASES, isCollectionPart, SPARSE_MAX_FILL, SPARSE_MIN_SLOTS } from './collection-kinds.js';
import { isJdkHolder, NO_REFERRER } from './holder-names.js';
import { NOT_EMPTY_UNCOUNTED, rankIn, WALKED_ONLY, type WasteFacts } from './waste-facts.js';

export interface WasteOptions {
  /** Duplicate values listed (default 20). */
  readonly topValues?: number;
  /** Holders and groups listed per kind (default 10). */
  readonly topGroups?: number;
}

/** What only the dump can say, for the few objects the waste names: asked of the format with the paths' step names. */
export interface WasteNamesWanted {
  /** One edge [referrer, object] per holder site: how the referrer holds the object, as `Class.field` or `Class.FIELD (static)`. */
  readonly holderEdges: ReadonlyArray<readonly [number, number]>;
  /** The characters of these Strings (their object and their value array's). */
  readonly texts: ReadonlyArray<{ readonly string: number; readonly array: number }>;
}

export interface WasteNames {
  /** Per holder edge, in order; undefined when it could not be read. */
  readonly holders: ReadonlyArray<string | undefined>;
  /** Per String asked for: its first characters (a few thousand) and its length in characters; undefined when it could not be read. */
  readonly texts: ReadonlyArray<{ readonly text: string; readonly length: number } | undefined>;
}

/** The waste found, waiting for the names of its holders and values. */
export interface WasteDraft {
  readonly wanted: WasteNamesWanted;
  finish(names: WasteNames): MemoryWaste;
}

/** Characters of a value kept in the result: enough to recognise it. */
const SHOWN_CHARACTERS = 200;
/** Bound on the objects looked at up from one object. */
const MAX_STEPS = 100_000;

/**
 * The waste of the graph, waiting for its names. Made in two steps so that what waits holds only
 * the result's data: neither the facts nor the holders' tables (their closures would keep them
 * alive through the dominator tree, at the analysis's peak).
 */
export function wasteDraft(g: ObjectGraph, facts: WasteFacts, options: WasteOptions = {}): WasteDraft {
  const found = findWaste(g, facts, options);
  return { wanted: found.wanted, finish: (names) => finishWaste(found, names) };
}

/** What the waste found, as plain data (no closure over the graph, the facts or the holders' tables). */
interface FoundWaste {
  readonly wanted: WasteNamesWanted;
  readonly topGroups: number;
  readonly heapBytes: number;
  readonly notes: readonly string[];
  /** Per holder site: its name when known without the dump (a thread's frame), and the referrer's class, the name when the dump's is missing. */
  readonly sites: ReadonlyArray<{ readonly known?: string; readonly fallback: string }>;
  readonly strings: { readonly strings: number; readonly distinctValues: number; readonly extraCopies: number; readonly wastedBytes: number };
  readonly values: ReadonlyArray<{ readonly copies: number; readonly valueArrays: number; readonly wastedBytes: number; readonly tally: SiteTally }>;
  readonly listedValues: number;
  readonly stringTally: SiteTally;
  readonly collections: ReturnType<typeof collectionGroups>;
  readonly zeroShapes: ReadonlyArray<{ readonly shape: string; readonly count: number; readonly bytes: number }>;
  readonly zeroCount: number;
  readonly zeroTally: SiteTally;
  readonly boxes: ReadonlyArray<{
    readonly site: number;
    readonly collectionClass: string;
    readonly boxedClass: string;
    readonly count: number;
    readonly bytes: number;
  }>;
  readonly boxesInJdkCaches: number;
}

function findWaste(g: ObjectGraph, facts: WasteFacts, options: WasteOptions): FoundWaste {
  const topGroups = options.topGroups ?? 10;
  const topValues = options.topValues ?? 20;
  const classes = new ClassTraits(g, facts.superclasses);
  const marked = new BitSet(g.objects);
  const strings = duplicateStrings(g, facts, marked);
  const cached = boxesInJdkCaches(g, classes);
  const boxes = boxesInCollections(g, facts, classes, cached, marked);
  facts.zeroArrays.forEach((z) => marked.set(z));
  for (const c of facts.collections) marked.set(c);
  markContainers(g, classes, marked);
  const holders = new GraphHolders(g, classes, marked, facts);

  // Each value's copies, and all of them, by the holder site that keeps each copy (with its share of the value's waste).
  const stringTally = new SiteTally();
  const values = strings.groups.map((v) => {
    const tally = new SiteTally();
    const each = v.wastedBytes / v.strings.length;
    for (const s of v.strings) {
      const site = holders.siteOf(s);
      tally.add(site, each);
      stringTally.add(site, each);
    }
    return { ...v, tally };
  });
  values.sort((a, b) => b.strings.length - a.strings.length || b.wastedBytes - a.wastedBytes || a.strings[0]! - b.strings[0]!);

  const collections = collectionGroups(g, facts, holders);
  // By type and length (a number: a string per array cost a second on millions of them).
  const zeroShapes = new Map<number, { count: number; bytes: number }>();
  const zeroTally = new SiteTally();
  facts.zeroArrays.forEach((z, k) => {
    const shape = g.classOf[z]! * 4294967296 + facts.zeroLengths[k]!;
    const bytes = g.shallow[z]!;
    const s = zeroShapes.get(shape);
    if (s === undefined) zeroShapes.set(shape, { count: 1, bytes });
    else {
      s.count++;
      s.bytes += bytes;
    }
    zeroTally.add(holders.siteOf(z), bytes);
  });
  const boxTally = new Map<string, { site: number; collectionClass: string; boxedClass: string; count: number; bytes: number }>();
  for (const b of boxes.found) {
    const site = holders.siteOf(b.collection);
    const key = `${site}\n${b.collectionClass}\n${b.boxedClass}`;
    const t = boxTally.get(key) ?? { site, collectionClass: b.collectionClass, boxedClass: b.boxedClass, count: 0, bytes: 0 };
    t.count++;
    t.bytes += b.bytes;
    boxTally.set(key, t);
  }

  const listedValues = values.slice(0, topValues);
  const wanted: WasteNamesWanted = {
    holderEdges: holders.sites.map((site) => site.edge),
    texts: listedValues.map((v) => ({ string: v.strings[0]!, array: v.firstArray })),
  };
  let heapBytes = 0;
  for (let i = 0; i < g.objects; i++) heapBytes += g.shallow[i]!;
  return {
    wanted,
    topGroups,
    heapBytes,
    notes: notesOf(g, facts, strings.unread),
    sites: holders.sites.map((site) => ({ ...(site.known !== undefined ? { known: site.known } : {}), fallback: classes.name(site.edge[0]) })),
    strings: { strings: strings.strings, distinctValues: strings.distinctValues, extraCopies: strings.extraCopies, wastedBytes: strings.wastedBytes },
    values: values.map((v) => ({ copies: v.strings.length, valueArrays: v.distinctArrays, wastedBytes: v.wastedBytes, tally: v.tally })),
    listedValues: listedValues.length,
    stringTally,
    collections,
    zeroShapes: [...zeroShapes]
      .map(([k, z]) => ({ shape: `${g.classNames[Math.floor(k / 4294967296)]!.replace(/\[\]$/, '')}[${k % 4294967296}]`, ...z }))
      .sort((a, b) => b.bytes - a.bytes || b.count - a.count || (a.shape < b.shape ? -1 : 1)),
    zeroCount: facts.zeroArrays.count,
    zeroTally,
    boxes: [...boxTally.values()],
    boxesInJdkCaches: cached.count,
  };
}

function finishWaste(found: FoundWaste, names: WasteNames): MemoryWaste {
  const { heapBytes, topGroups, strings, stringTally, collections, zeroTally } = found;
  const siteName = (site: number): string => {
    if (site < 0) return NO_REFERRER;
    const s = found.sites[site]!;
    return s.known ?? names.holders[site] ?? s.fallback;
  };
  const share = (bytes: number) => (heapBytes > 0 ? bytes / heapBytes : 0);
  const stringHolders = stringTally.holders(siteName);
  const duplicateStrings = {
    strings: strings.strings,
    distinctValues: strings.distinctValues,
    valuesHeldMoreThanOnce: found.values.length,
    extraCopies: strings.extraCopies,
    wastedBytes: Math.round(strings.wastedBytes),
    jdkWastedBytes: Math.round(jdkBytes(stringHolders)),
    shareOfHeap: share(strings.wastedBytes),
    values: found.values.slice(0, found.listedValues).map((v, k): DuplicateStringValue => ({
      value: (names.texts[k]?.text ?? '(its characters could not be read)').slice(0, SHOWN_CHARACTERS),
      length: names.texts[k]?.length ?? 0,
      copies: v.copies,
      valueArrays: v.valueArrays,
      wastedBytes: Math.round(v.wastedBytes),
      holders: top(v.tally.holders(siteName), topGroups),
    })),
    holders: top(stringHolders, topGroups),
  };
  const empty = groupsNamed(collections.empty, siteName, (g0, holder) => ({ ...g0.group, holder, jdk: isJdkHolder(holder) }) as EmptyCollectionGroup);
  const sparse = groupsNamed(collections.sparse, siteName, (g0, holder) => ({ ...g0.group, holder, jdk: isJdkHolder(holder) }) as SparseCollectionGroup).map(
    (s) => ({ ...s, fillRatio: s.slots > 0 ? s.entries / s.slots : 0, wastedBytes: Math.round(s.wastedBytes) }),
  );
  const byClass = new Map<string, { className: string; count: number; wastedBytes: number }>();
  for (const e of empty) {
    const t = byClass.get(e.className) ?? { className: e.className, count: 0, wastedBytes: 0 };
    byClass.set(e.className, { ...t, count: t.count + e.count, wastedBytes: t.wastedBytes + e.wastedBytes });
  }
  const boxed = mergeByName(
    found.boxes.map((t): BoxedGroup => ({
      holder: siteName(t.site),
      jdk: false,
      collectionClass: t.collectionClass,
      boxedClass: t.boxedClass,
      count: t.count,
      wastedBytes: t.bytes,
    })),
    (b) => `${b.holder}\n${b.collectionClass}\n${b.boxedClass}`,
  ).map((b) => ({ ...b, jdk: isJdkHolder(b.holder) }));
  const zeroHolders = zeroTally.holders(siteName);
  const shapes = found.zeroShapes;
  const kinds = {
    duplicateStrings,
    emptyCollections: {
      ...totals(empty),
      shareOfHeap: share(sum(empty.map((e) => e.wastedBytes))),
      byClass: [...byClass.values()].sort((a, b) => b.wastedBytes - a.wastedBytes || (a.className < b.className ? -1 : 1)),
      groups: empty.slice(0, topGroups),
    },
    sparseCollections: {
      criterion: `a table of ${SPARSE_MIN_SLOTS} slots or more, at most ${SPARSE_MAX_FILL * 100} % of them used`,
      ...totals(sparse),
      shareOfHeap: share(sum(sparse.map((e) => e.wastedBytes))),
      groups: sparse.slice(0, topGroups),
    },
    boxedInCollections: {
      ...totals(boxed),
      shareOfHeap: share(sum(boxed.map((e) => e.wastedBytes))),
      groups: boxed.slice(0, topGroups),
      inJdkCaches: found.boxesInJdkCaches,
    },
    zeroArrays: {
      count: found.zeroCount,
      wastedBytes: sum(shapes.map((s) => s.bytes)),
      jdkWastedBytes: Math.round(jdkBytes(zeroHolders)),
      shareOfHeap: share(sum(shapes.map((s) => s.bytes))),
      byShape: shapes.slice(0, topGroups),
      holders: top(zeroHolders, topGroups),
    },
  };
  const wastedBytes =
    kinds.duplicateStrings.wastedBytes +
    kinds.emptyCollections.wastedBytes +
    kinds.sparseCollections.wastedBytes +
    kinds.boxedInCollections.wastedBytes +
    kinds.zeroArrays.wastedBytes;
  return { heapBytes, wastedBytes, shareOfHeap: share(wastedBytes), ...kinds, notes: [...found.notes] };
}

function notesOf(g: ObjectGraph, facts: WasteFacts, unreadStrings: number): string[] {
  const notes: string[] = [];
  if (facts.unreadArrays > 0)
    notes.push(`${facts.unreadArrays} primitive arrays too big to read whole were not looked in (for zeros, or as a String's characters)`);
  if (unreadStrings > 0) notes.push(`${unreadStrings} strings whose characters were not read are left out of the duplicates`);
  if (facts.instancesBeforeClass > 0)
    notes.push(`${facts.instancesBeforeClass} instances came before their class's record in the dump: collections among them are not counted`);
  if (g.cut !== undefined) notes.push(`the dump is cut short (${g.cut}): what it lost is not counted`);
  return notes;
}

/** What each class's objects are to the waste: a container (a holder is looked for above it), a box. */
class ClassTraits {
  /** 1 for the class keys whose objects are containers. */
  readonly containerKeys: Uint8Array;
  /** 1 for object arrays and a collection's own parts (nodes, entries): what a collection's walk goes down. */
  readonly partKeys: Uint8Array;
  /** For boxes (java.lang.Integer, ...), the bytes of the primitive each holds; 0 for other classes. */
  readonly boxWidths: Uint8Array;
  /** The class key of java.lang.Class (class objects), -1 when none. */
  readonly classKey: number;

  constructor(
    private readonly g: ObjectGraph,
    private readonly superclasses: ReadonlyMap<string, string>,
  ) {
    const n = g.classNames.length;
    this.containerKeys = new Uint8Array(n);
    this.partKeys = new Uint8Array(n);
    this.boxWidths = new Uint8Array(n);
    g.classNames.forEach((name, k) => {
      const objectArray = name.endsWith('[]') && !PRIMITIVE_ARRAYS.has(name);
      const part = objectArray || isCollectionPart(name);
      this.partKeys[k] = part ? 1 : 0;
      this.containerKeys[k] = part || CONTAINER_BASES.some((b) => this.isA(name, b)) ? 1 : 0;
      this.boxWidths[k] = BOXES.get(name) ?? 0;
    });
    this.classKey = g.classNames.indexOf('java.lang.Class');
  }

  isA(name: string, base: string): boolean {
    for (let c: string | undefined = name, steps = 0; c !== undefined && steps < 64; c = this.superclasses.get(c), steps++) if (c === base) return true;
    return false;
  }

  name(index: number): string {
    return this.g.classNames[this.g.classOf[index]!]!;
  }
}

const PRIMITIVE_ARRAYS = new Set(['boolean[]', 'char[]', 'float[]', 'double[]', 'byte[]', 'short[]', 'int[]', 'long[]']);

interface ValueGroup {
  readonly strings: number[];
  /** The value arrays of its copies, one per copy (copies may share one). */
  readonly arrays: number[];
  readonly firstArray: number;
  /** Distinct arrays among them (once counted). */
  distinctArrays: number;
  wastedBytes: number;
}

/**
 * Values held as several distinct java.lang.String objects: every String but one, and every array
 * of characters but one, would go in a dedup (copies made with `new String(s)` share their array).
 * The keys of the values are sorted once to find those held more than once; only their Strings are
 * gathered.
 */
function duplicateStrings(
  g: ObjectGraph,
  facts: WasteFacts,
  marked: BitSet,
): { groups: ValueGroup[]; strings: number; distinctValues: number; extraCopies: number; wastedBytes: number; unread: number } {
  const stringKey = g.classNames.indexOf('java.lang.String');
  const none = { groups: [], strings: 0, distinctValues: 0, extraCopies: 0, wastedBytes: 0, unread: 0 };
  if (stringKey < 0) return none;
  let stringClass = -1;
  for (const [cls, name] of g.classObjectNames) if (name === 'java.lang.String') stringClass = cls;
  const { classOf, edgeStart, edges } = g;
  const arrays = facts.valueArrays;
  // A String's value array (its class's edge is not it), or -1.
  const valueOf = (s: number): number => {
    for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) {
      const t = edges[e]!;
      if (t !== stringClass && arrays.has(t)) return t;
    }
    return -1;
  };
  let total = 0;
  for (let s = 0; s < g.objects; s++) if (classOf[s] === stringKey) total++;
  // A key's low bits pick a slot: a String whose slot no other String's key falls in holds a value
  // held once; the others are gathered by their keys (which tell the values apart exactly).
  // Each String's key, in the Strings' order (NaN: its characters were not read); the facts' keys are let go once read.
  const keys = new Float64Array(total);
  let count = 0;
  let unread = 0;
  for (let s = 0, k = 0; s < g.objects; s++) {
    if (classOf[s] !== stringKey) continue;
    const array = valueOf(s);
    const key = array >= 0 ? facts.valueKeys!.get(arrays.rank(array)) : Number.NaN;
    keys[k++] = key;
    if (Number.isNaN(key)) unread++;
    else count++;
  }
  facts.valueKeys = undefined;
  // A key's low bits pick a slot: a String whose slot no other String's key falls in holds a value
  // held once; the others are gathered by their keys (which tell the values apart exactly).
  const slotCount = Math.max(64, 2 ** Math.ceil(Math.log2(total * 16 + 1)));
  const once = new BitSet(slotCount);
  const twice = new BitSet(slotCount);
  const slotMask = slotCount - 1;
  for (let k = 0; k < total; k++) {
    const key = keys[k]!;
    if (Number.isNaN(key)) continue;
    const slot = (key | 0) & slotMask;
    if (once.has(slot)) twice.set(slot);
    else once.set(slot);
  }
  // The Strings whose slot others share, in typed columns (a Map keyed by doubles cost a microsecond each).
  let candidates = 0;
  let candidateKeys = new Float64Array(Math.max(1024, count >>> 4));
  let candidateStrings = new Int32Array(candidateKeys.length);
  let candidateArrays = new Int32Array(candidateKeys.length);
  for (let s = 0, k = 0; s < g.objects; s++) {
    if (classOf[s] !== stringKey) continue;
    const key = keys[k++]!;
    if (Number.isNaN(key) || !twice.has((key | 0) & slotMask)) continue;
    if (candidates === candidateKeys.length) {
      candidateKeys = grown(candidateKeys, new Float64Array(candidates * 2));
      candidateStrings = grown(candidateStrings, new Int32Array(candidates * 2));
      candidateArrays = grown(candidateArrays, new Int32Array(candidates * 2));
    }
    candidateKeys[candidates] = key;
    candidateStrings[candidates] = s;
    candidateArrays[candidates] = valueOf(s);
    candidates++;
  }
  // The keys held more than once, sorted: each candidate finds its value's group by a binary search.
  const sortedKeys = candidateKeys.slice(0, candidates).sort();
  const repeatedKeys: number[] = [];
  let distinctCandidates = 0;
  for (let k = 0; k < sortedKeys.length; k++) {
    if (k === 0 || sortedKeys[k] !== sortedKeys[k - 1]) distinctCandidates++;
    else if (repeatedKeys[repeatedKeys.length - 1] !== sortedKeys[k]) repeatedKeys.push(sortedKeys[k]!);
  }
  const repeated = Float64Array.from(repeatedKeys);
  const byKey: ValueGroup[] = [];
  for (let k = 0; k < candidates; k++) {
    const at = searchSorted(repeated, candidateKeys[k]!);
    if (at < 0) continue;
    const s = candidateStrings[k]!;
    const array = candidateArrays[k]!;
    const v = byKey[at];
    if (v === undefined) byKey[at] = { strings: [s], arrays: [array], firstArray: array, distinctArrays: 1, wastedBytes: 0 };
    else {
      v.strings.push(s);
      v.arrays.push(array);
    }
  }
  // Every copy after the first, and every array after the first, would go.
  let extraCopies = 0;
  let wastedBytes = 0;
  const groups: ValueGroup[] = [];
  for (const v of byKey) {
    if (v === undefined || v.strings.length < 2) continue;
    for (let k = 1; k < v.strings.length; k++) v.wastedBytes += g.shallow[v.strings[k]!]!;
    const arrays = Int32Array.from(v.arrays).sort();
    v.distinctArrays = 0;
    for (let k = 0; k < arrays.length; k++) {
      if (k > 0 && arrays[k] === arrays[k - 1]) continue;
      if (v.distinctArrays++ > 0) v.wastedBytes += g.shallow[arrays[k]!]!;
    }
    v.arrays.length = 0;
    for (const s of v.strings) marked.set(s);
    extraCopies += v.strings.length - 1;
    wastedBytes += v.wastedBytes;
    groups.push(v);
  }
  const distinct = count - candidates + distinctCandidates;
  return { groups, strings: count, distinctValues: distinct, extraCopies, wastedBytes, unread };
}

/** `into`, a bigger array, with `from` copied to its start. */
function grown<A extends Float64Array | Int32Array>(from: A, into: A): A {
  into.set(from);
  return into;
}

/** The place of `key` in an ascending array, or -1. */
function searchSorted(sorted: Float64Array, key: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v < key) lo = mid + 1;
    else if (v > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The boxes the JDK's own caches hold (the arrays their classes' statics refer to): shared by every use, so no use of them wastes one. */
function boxesInJdkCaches(g: ObjectGraph, classes: ClassTraits): { has(i: number): boolean; count: number } {
  const set = new BitSet(g.objects);
  let count = 0;
  for (const [cls, name] of g.classObjectNames) {
    if (!BOX_CACHE_CLASS.test(name)) continue;
    for (let e = g.edgeStart[cls]!; e < g.edgeStart[cls + 1]!; e++) {
      const a = g.edges[e]!;
      if (!classes.name(a).endsWith('[]')) continue;
      for (let f = g.edgeStart[a]!; f < g.edgeStart[a + 1]!; f++) {
        const b = g.edges[f]!;
        if (BOXES.has(classes.name(b)) && !set.has(b)) {
          set.set(b);
          count++;
        }
      }
    }
  }
  return { has: (i) => set.has(i), count };
}

interface FoundBox {
  readonly collection: number;
  readonly collectionClass: string;
  readonly boxedClass: string;
  readonly bytes: number;
}

/**
 * The boxed numbers collections hold, each box once (the first collection met that holds it): each
 * collection's elements walked down its own parts (its table, its nodes and entries, a set's map),
 * never into an element that is a collection of its own.
 */
function boxesInCollections(
  g: ObjectGraph,
  facts: WasteFacts,
  classes: ClassTraits,
  cached: { has(i: number): boolean },
  marked: BitSet,
): { found: FoundBox[] } {
  const walked = new BitSet(g.objects);
  const counted = new BitSet(g.objects);
  const found: FoundBox[] = [];
  const inners = new Set<number>();
  for (const i of facts.collectionInners) if (i >= 0) inners.add(i);
  const stack: number[] = [];
  const { classOf, edgeStart, edges, shallow } = g;
  const { boxWidths, partKeys } = classes;
  facts.collections.forEach((c) => {
    if (inners.has(c) || walked.has(c)) return;
    const collectionClass = classes.name(c);
    walked.set(c);
    stack.push(c);
    while (stack.length > 0) {
      const o = stack.pop()!;
      for (let e = edgeStart[o]!; e < edgeStart[o + 1]!; e++) {
        const t = edges[e]!;
        if (walked.has(t)) continue;
        const key = classOf[t]!;
        const width = boxWidths[key]!;
        if (width > 0) {
          if (counted.has(t) || cached.has(t)) continue;
          counted.set(t);
          marked.set(t);
          found.push({ collection: c, collectionClass, boxedClass: g.classNames[key]!, bytes: Math.max(0, shallow[t]! - width) });
          continue;
        }
        // Down its own parts: an object array it or a node refers to, a node or entry, its inner collection.
        if (partKeys[key] !== 1 && !(o === c && inners.has(t))) continue;
        walked.set(t);
        stack.push(t);
      }
    }
  });
  return { found };
}

/** A holder site: how a referrer of one class (or one class object, or one thread's frame) holds an object of one class. */
interface Site {
  readonly key: string;
  readonly edge: readonly [number, number];
  /** The name, when it is known without reading the dump (a thread's frame). */
  readonly known?: string;
}

/** Marks every object whose class is a container (an object array, a collection or one of its parts). */
function markContainers(g: ObjectGraph, classes: ClassTraits, marked: BitSet): void {
  const container = classes.containerKeys;
  const classOf = g.classOf;
  const words = marked.words;
  for (let i = 0; i < g.objects; i++) if (container[classOf[i]!] === 1) words[i >>> 5]! |= 1 << (i & 31);
}

/** The holders of the marked objects, from their two lowest referrers. */
class GraphHolders {
  private readonly ranks: RankedBits;
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  /** Per marked object: its site (≥ 0), NONE_FOUND, or UNKNOWN. */
  private readonly siteOfRank: Int32Array;
  readonly sites: Site[] = [];
  /** Sites whose field is known exactly: by class key * 32 + the field's place (-1: none yet). */
  private readonly siteByField: Int32Array;
  /** The pattern masks by class key (the facts' map, as an array: looked up once per holder). */
  private readonly masksOfKey: Array<Uint32Array | undefined>;
  /** Thread objects (their stacks' locals hang under them). */
  private readonly threads: BitSet;
  private readonly siteByKey = new Map<string, number>();
  /** The class object of each class key (-1: none in the dump), to tell an object's edge to its class from its fields. */
  private readonly classObjectOfKey: Int32Array;

  constructor(
    private readonly g: ObjectGraph,
    private readonly classes: ClassTraits,
    marked: BitSet,
    private readonly facts: WasteFacts,
  ) {
    this.ranks = new RankedBits(marked);
    const n = this.ranks.count;
    const first = (this.first = new Int32Array(n).fill(-1));
    const second = (this.second = new Int32Array(n).fill(-1));
    this.siteOfRank = new Int32Array(n).fill(UNKNOWN);
    this.siteByField = new Int32Array(g.classNames.length * 32).fill(-1);
    this.masksOfKey = [];
    for (const [key, masks] of facts.patternMasks) this.masksOfKey[key] = masks;
    this.threads = new BitSet(g.objects);
    for (const [v, kind] of g.rootKindOf) if (kind === 'thread') this.threads.set(v);
    const keyOfName = new Map(g.classNames.map((name, k) => [name, k]));
    this.classObjectOfKey = new Int32Array(g.classNames.length).fill(-1);
    for (const [cls, name] of g.classObjectNames) {
      const k = keyOfName.get(name);
      if (k !== undefined) this.classObjectOfKey[k] = cls;
    }
    // One scan of every reference: for each marked object, its two lowest referrers (objects come in index order).
    const { edgeStart, edges } = g;
    const words = marked.words;
    const before = this.ranks.before;
    for (let u = 0; u < g.objects; u++) {
      const end = edgeStart[u + 1]!;
      for (let e = edgeStart[u]!; e < end; e++) {
        const v = edges[e]!;
        const w = words[v >>> 5]!;
        const bit = 1 << (v & 31);
        if ((w & bit) === 0 || v === u) continue;
        const r = before[v >>> 5]! + popcount(w & (bit - 1));
        if (first[r] === -1) first[r] = u;
        else if (second[r] === -1 && first[r] !== u) second[r] = u;
      }
    }
  }

  /** True when only `owner` refers to `v` (so what `v` takes is the owner's alone). */
  ownedBy(v: number, owner: number): boolean {
    if (!this.ranks.has(v)) return false;
    const r = this.ranks.rank(v);
    return this.first[r] === owner && this.second[r] === -1 && !this.g.rootKindOf.has(v);
  }

  /**
   * The site that keeps `v`, through arrays and collections; NONE_FOUND when nothing but a GC root
   * does. A search up the referrers, depth first: a referrer that is not a container names the site;
   * one of another class than the step it is reached from is tried before one of the same (a node's
   * list before its neighbour node), and a dead end is left for the next.
   */
  siteOf(v: number): number {
    if (!this.ranks.has(v)) return NONE_FOUND;
    const rv = this.ranks.rank(v);
    const known = this.siteOfRank[rv]!;
    if (known !== UNKNOWN) return known;
    // Most objects: one referrer, not a container (a field holds them).
    const only = this.first[rv]!;
    if (only >= 0 && this.second[rv] === -1 && !this.isContainerObject(only)) return (this.siteOfRank[rv] = this.siteFor(only, v));
    const seen = new Set<number>([v]);
    const stack: Array<{ readonly v: number; readonly candidates: number[]; next: number }> = [this.frame(v)];
    let site = UNKNOWN;
    for (let steps = 0; stack.length > 0 && site === UNKNOWN && steps < MAX_STEPS;) {
      const top = stack[stack.length - 1]!;
      if (top.next >= top.candidates.length) {
        stack.pop();
        continue;
      }
      const r = top.candidates[top.next++]!;
      if (seen.has(r)) continue;
      seen.add(r);
      if (!this.isContainerObject(r)) site = this.siteFor(r, top.v);
      else {
        const memo = this.ranks.has(r) ? this.siteOfRank[this.ranks.rank(r)]! : UNKNOWN;
        if (memo !== UNKNOWN) site = memo;
        else {
          stack.push(this.frame(r));
          steps++;
        }
      }
    }
    if (site === UNKNOWN) {
      // Nothing found from here: what the search went through finds nothing either.
      for (const s of seen) if (this.ranks.has(s) && this.isContainerObject(s)) this.siteOfRank[this.ranks.rank(s)] = NONE_FOUND;
      this.siteOfRank[rv] = NONE_FOUND;
      return NONE_FOUND;
    }
    // Every container on the way up is kept by the same site: a chain of nodes is walked once.
    for (const f of stack) if (this.ranks.has(f.v)) this.siteOfRank[this.ranks.rank(f.v)] = site;
    this.siteOfRank[rv] = site;
    return site;
  }

  private isContainerObject(i: number): boolean {
    return this.classes.containerKeys[this.g.classOf[i]!] === 1;
  }

  /** An object's referrers in the order they are tried: not containers, then other classes than its own, then by index. */
  private frame(v: number): { readonly v: number; readonly candidates: number[]; next: number } {
    if (!this.ranks.has(v)) return { v, candidates: [], next: 0 };
    const r = this.ranks.rank(v);
    const a = this.first[r]!;
    const b = this.second[r]!;
    if (b < 0) return { v, candidates: a >= 0 ? [a] : [], next: 0 };
    const own = this.g.classOf[v]!;
    const rank = (o: number) => (!this.isContainerObject(o) ? 0 : this.g.classOf[o] === own ? 2 : 1);
    return { v, candidates: rank(b) < rank(a) ? [b, a] : [a, b], next: 0 };
  }

  /**
   * The site of `holder` holding `v`: for an instance, its class and which of its reference fields
   * the edge is (exact where the pass recorded its nulls); for a class object, which of its
   * references; for a thread, the frame whose local it is.
   */
  private siteFor(holder: number, v: number): number {
    const g = this.g;
    if (this.threads.has(holder)) {
      const hold = frameOfThreadHolding(g, holder, v);
      if (hold !== undefined) {
        const known = `a local variable of ${hold.frame ?? `frame ${hold.depth} of the stack`}`;
        return this.siteKeyed(`T${known}`, holder, v, known);
      }
    }
    const start = g.edgeStart[holder]!;
    const end = g.edgeStart[holder + 1]!;
    const classKey = g.classOf[holder]!;
    const skip = start < end && g.edges[start] === this.classObjectOfKey[classKey] ? 1 : 0;
    let rank = 0;
    for (let e = start + skip; e < end && g.edges[e] !== v; e++) rank++;
    if (classKey === this.classes.classKey) return this.siteKeyed(`C${holder}:${rank}`, holder, v);
    const pattern = this.facts.holderPatterns[holder]!;
    const masks = pattern > 0 ? this.masksOfKey[classKey] : undefined;
    if (masks !== undefined) {
      const field = nthSetBit(masks[pattern - 1]!, rank);
      if (field >= 0) {
        const slot = classKey * 32 + field;
        let site = this.siteByField[slot]!;
        if (site < 0) this.siteByField[slot] = site = this.sites.push({ key: `F${slot}`, edge: [holder, v] }) - 1;
        return site;
      }
    }
    return this.siteKeyed(`${classKey}:${rank}:${g.classOf[v]}`, holder, v);
  }

  private siteKeyed(key: string, holder: number, v: number, known?: string): number {
    let site = this.siteByKey.get(key);
    if (site === undefined) {
      site = this.sites.push({ key, edge: [holder, v], ...(known !== undefined ? { known } : {}) }) - 1;
      this.siteByKey.set(key, site);
    }
    return site;
  }
}

/** The place of the n-th (from 0) set bit of a mask, or -1. */
function nthSetBit(mask: number, n: number): number {
  for (let k = 0, seen = 0; k < 32; k++) {
    if ((mask & (1 << k)) === 0) continue;
    if (seen === n) return k;
    seen++;
  }
  return -1;
}

const UNKNOWN = -1;
const NONE_FOUND = -2;

/** Bytes and objects added up by holder site, named once the names are read; sites named alike are one holder. */
class SiteTally {
  private readonly bySite = new Map<number, { objects: number; bytes: number }>();

  add(site: number, bytes: number, objects = 1): void {
    const t = this.bySite.get(site);
    if (t === undefined) this.bySite.set(site, { objects, bytes });
    else {
      t.objects += objects;
      t.bytes += bytes;
    }
  }

  holders(nameOf: (site: number) => string): WasteHolder[] {
    const byName = new Map<string, { objects: number; bytes: number }>();
    for (const [site, t] of this.bySite) {
      const name = nameOf(site);
      const h = byName.get(name) ?? { objects: 0, bytes: 0 };
      byName.set(name, { objects: h.objects + t.objects, bytes: h.bytes + t.bytes });
    }
    return [...byName].map(([holder, t]) => ({ holder, objects: t.objects, wastedBytes: Math.round(t.bytes), jdk: isJdkHolder(holder) }));
  }
}

function top(holders: readonly WasteHolder[], n: number): WasteHolder[] {
  return [...holders]
    .sort((a, b) => b.wastedBytes - a.wastedBytes || b.objects - a.objects || (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0))
    .slice(0, n);
}

function jdkBytes(holders: readonly WasteHolder[]): number {
  let t = 0;
  for (const h of holders) if (h.jdk) t += h.wastedBytes;
  return t;
}

interface PendingGroup<G> {
  readonly site: number;
  readonly group: G;
}

/**
 * Empty collections, and collections that use a small part of the table they allocated, grouped by
 * class and holder site. A set's inner map (one only the set refers to) is counted with the set.
 */
function collectionGroups(
  g: ObjectGraph,
  facts: WasteFacts,
  holders: GraphHolders,
): {
  empty: Array<PendingGroup<Omit<EmptyCollectionGroup, 'holder' | 'jdk'>>>;
  sparse: Array<PendingGroup<Omit<SparseCollectionGroup, 'holder' | 'jdk' | 'fillRatio'>>>;
} {
  const owned = new Set<number>();
  facts.collections.forEach((c, k) => {
    const inner = facts.collectionInners[k]!;
    if (inner >= 0 && holders.ownedBy(inner, c)) owned.add(inner);
  });
  const empty = new Map<string, PendingGroup<Omit<EmptyCollectionGroup, 'holder' | 'jdk'>>>();
  const sparse = new Map<string, PendingGroup<Omit<SparseCollectionGroup, 'holder' | 'jdk' | 'fillRatio'>>>();
  facts.collections.forEach((c, k) => {
    const kindIndex = facts.collectionKinds[k]!;
    if (owned.has(c) || kindIndex === WALKED_ONLY) return;
    const kind = COLLECTION_KINDS[kindIndex]!;
    const inner = facts.collectionInners[k]!;
    // What holds the elements says how many (a Properties's own Hashtable count is 0 whatever it holds).
    const at = inner >= 0 && owned.has(inner) ? rankIn(facts.collections, inner) : k;
    if (at < 0) return;
    const owner = facts.collections[at]!;
    let size = facts.collectionSizes[at]!;
    const tableOrHead = facts.collectionTables[at]!;
    const ownKind = facts.collectionKinds[at]! === WALKED_ONLY ? undefined : COLLECTION_KINDS[facts.collectionKinds[at]!];
    if (ownKind?.size !== undefined && 'emptyHeadNode' in ownKind.size) {
      size = tableOrHead >= 0 && edgesBeyondClass(g, tableOrHead) === 0 ? 0 : NOT_EMPTY_UNCOUNTED;
    }
    if (Number.isNaN(size)) return;
    const table = ownKind?.table !== undefined ? tableOrHead : -1;
    const rawSlots = table >= 0 ? facts.tableSlots[at]! : 0;
    const slots = ownKind?.pairs === true ? rawSlots / 2 : rawSlots;
    const tableOwned = table >= 0 && holders.ownedBy(table, owner);
    const tableBytes = tableOwned ? g.shallow[table]! : 0;
    const className = g.classNames[g.classOf[c]!]!;
    if (size === 0) {
      const bytes = g.shallow[c]! + (owner !== c ? g.shallow[owner]! : 0) + tableBytes;
      const site = holders.siteOf(c);
      const key = `${className}\n${site}`;
      const e = empty.get(key)?.group ?? { className, count: 0, wastedBytes: 0, slots: 0 };
      empty.set(key, { site, group: { ...e, count: e.count + 1, wastedBytes: e.wastedBytes + bytes, slots: e.slots + (tableOwned ? slots : 0) } });
    } else if (kind.sparse === true && size > 0 && tableOwned && slots >= SPARSE_MIN_SLOTS && size <= slots * SPARSE_MAX_FILL) {
      const unused = (tableBytes * (slots - size)) / slots;
      const site = holders.siteOf(c);
      const key = `${className}\n${site}`;
      const s = sparse.get(key)?.group ?? { className, count: 0, entries: 0, slots: 0, wastedBytes: 0 };
      sparse.set(key, { site, group: { ...s, count: s.count + 1, entries: s.entries + size, slots: s.slots + slots, wastedBytes: s.wastedBytes + unused } });
    }
  });
  return { empty: [...empty.values()], sparse: [...sparse.values()] };
}

/** References of an object other than to its class. */
function edgesBeyondClass(g: ObjectGraph, i: number): number {
  let n = 0;
  for (let e = g.edgeStart[i]!; e < g.edgeStart[i + 1]!; e++) if (!g.classObjectNames.has(g.edges[e]!)) n++;
  return n;
}

/** Groups named, those named alike merged (by class and holder), most bytes first. */
function groupsNamed<G extends { readonly className: string; readonly count: number; readonly wastedBytes: number }, O extends G & { readonly holder: string }>(
  pending: ReadonlyArray<PendingGroup<G>>,
  siteName: (site: number) => string,
  named: (p: PendingGroup<G>, holder: string) => O,
): O[] {
  return mergeByName(
    pending.map((p) => named(p, siteName(p.site))),
    (o) => `${o.className}\n${o.holder}`,
  );
}

/** Rows with the same key added up (their numbers), most bytes first, then most objects, then by key. */
function mergeByName<O extends { readonly count: number; readonly wastedBytes: number }>(rows: readonly O[], keyOf: (o: O) => string): O[] {
  const byKey = new Map<string, O>();
  for (const r of rows) {
    const k = keyOf(r);
    const was = byKey.get(k);
    byKey.set(k, was === undefined ? r : addNumbers(was, r));
  }
  return [...byKey].sort(([ka, a], [kb, b]) => b.wastedBytes - a.wastedBytes || b.count - a.count || (ka < kb ? -1 : 1)).map(([, o]) => o);
}

function addNumbers<O>(a: O, b: O): O {
  const out = { ...a } as Record<string, unknown>;
  for (const [k, v] of Object.entries(b as Record<string, unknown>)) if (typeof v === 'number' && typeof out[k] === 'number') out[k] = (out[k] as number) + v;
  return out as O;
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

function sum(xs: readonly number[]): number {
  let t = 0;
  for (const x of xs) t += x;
  return t;
}
