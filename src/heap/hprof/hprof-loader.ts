/**
 * Loads from an HPROF file the part of the heap the analyses need:
 *   pass 0: class names and layouts, the histogram, thread roots, every instance of the plan's root
 *           classes (and subclasses), the objects the plan's static fields point to, and, as soon as
 *           an object is loaded, what it references that comes later in the file (HotSpot writes
 *           objects in address order, and new objects mostly point forward: queue nodes, map entries);
 *   then:   the references left, which point backwards. With a plain file, forward sweeps over a
 *           sparse index read only the small blocks that hold them; with gzip input, which cannot
 *           seek, further passes. Each object read again expands the same way.
 * Nothing else is kept, so memory follows what is loaded, not the size of the dump (but for what a
 * rider on the first pass keeps: see LoadHooks.firstPass).
 */
import { closeSync, fstatSync, openSync } from 'node:fs';

import type { ProgressListener } from '../../model/progress.js';
import type { HeapObject, HeapStore, HeapValue } from '../heap-model.js';
import { feedHprof, type FeedOptions, type FeedSummary, isGzipFile, type PassEnd, passEnd } from './byte-source.js';
import { ClassMetadata } from './class-metadata.js';
import { BASIC_TYPES, basicTypeSize, isReferenceType, SUB } from './format.js';
import { HistogramTally } from './histogram-tally.js';
import { truncationWarning } from './hprof-warnings.js';
import { parseIndexedBlock } from './indexed-block.js';
import { type IndexedHprof, ObjectIndex } from './object-index.js';
import { HprofFormatError, type HprofHeader, HprofParser, type HprofVisitor, readValue } from './parser.js';
import { PlainCopy } from './plain-copy.js';
import { StackTraceCollector } from './stack-traces.js';
import { visitorPair } from './visitor-pair.js';

export interface LoadPlan {
  /** Every instance of these classes (and, unless told otherwise, their subclasses) is loaded, then followed `depth` references deep. */
  readonly roots: ReadonlyArray<{ readonly className: string; readonly depth: number; readonly subclasses?: boolean }>;
  /** The objects these classes' static fields point to are loaded too, followed `depth` deep. */
  readonly statics?: ReadonlyArray<{ readonly className: string; readonly depth: number }>;
  /** A bound on loaded objects; past it, loading stops with a warning. */
  readonly maxObjects?: number;
  /**
   * Worker threads that inflate a jmap gz dump (default: up to 4, by cores); 0 inflates on the
   * loading thread. `batch` asks for 0: its own workers already keep every core busy.
   */
  readonly inflateThreads?: number;
  /** A gzip dump stops being read past this many decompressed bytes (`--max-gunzip-size`). */
  readonly maxGunzipBytes?: number;
  /** Which heap dump of the file to read, from 1 (`--dump N`). */
  readonly heapDump?: number;
}

function feedOptions(plan: LoadPlan, onProgress: ProgressListener | undefined, gzip: boolean): FeedOptions {
  return {
    gzip,
    ...(onProgress !== undefined ? { onProgress } : {}),
    ...(plan.inflateThreads !== undefined ? { inflateThreads: plan.inflateThreads } : {}),
    ...(plan.maxGunzipBytes !== undefined ? { maxGunzipBytes: plan.maxGunzipBytes } : {}),
    ...(plan.heapDump !== undefined ? { heapDump: plan.heapDump } : {}),
  };
}

const DEFAULT_MAX_OBJECTS = 2_000_000;
/** Instances met before their class dump that are remembered (two numbers each); a dump with more is no agent's. */
const MAX_BEFORE_THEIR_CLASS = 2 * 4_000_000;
/** Full passes over the file after the first (gzip input, or ids in no usable order). */
const MAX_PASSES = 32;
/** Forward sweeps over the index, each reading only the blocks it needs. */
const MAX_SWEEPS = 10_000;

/** Classes whose instances are the links of a linked structure (hash bins, queues, trees). */
const NODE_CLASS = /(?:Node|Entry|Cell)$/;
/** The fields of such a class that lead to the next link. */
const LINK_FIELDS = new Set(['next', 'prev', 'after', 'before', 'left', 'right', 'parent', 'first', 'last', 'head', 'tail', 'nextWaiter']);

type RawInstance = { kind: 'raw-instance'; id: number; classId: number; raw: Buffer };

/** A loaded object, with how many more references deep it is to be followed. */
interface Loaded {
  object: HeapObject | RawInstance;
  budget: number;
}

/** What else may ride on a load: see loadHprof. */
export interface LoadHooks {
  /**
   * A visitor that rides on the first pass, given the loader's class metadata (which the loader fills
   * before the rider sees a record): it sees every record it asks for, so another reader of every
   * object (the object graph's builder) needs no pass of its own. If it throws, it is told no more and
   * the load goes on (FirstPassEnd.riderFailure says why).
   */
  readonly firstPass?: (meta: ClassMetadata) => HprofVisitor;
  /**
   * Runs after the load and before the plain copy of a gzip dump is removed, with the plain file and
   * the loader's index of it (undefined when there is none to offer: the copy was dropped, the index
   * is unusable, or the dump is cut short), so other readers of the same dump need neither inflate it
   * again nor pass over all of it; and with how the first pass ended, for its rider.
   */
  readonly whileOpen?: (file: IndexedHprof | undefined, firstPass: FirstPassEnd) => Promise<void>;
}

/** How the first pass over the dump ended. */
export interface FirstPassEnd extends PassEnd {
  /** What the rider threw, when it did (it saw nothing after that). */
  readonly riderFailure?: { readonly error: unknown };
}

/** `gzip`: whether the file is gzip, when the caller identified it already. */
export async function loadHprof(path: string, plan: LoadPlan, onProgress?: ProgressListener, hooks: LoadHooks = {}, gzip?: boolean): Promise<HeapStore> {
  const isGzip = gzip ?? isGzipFile(path);
  // A gzip file cannot seek: the first pass keeps a plain copy (when not too big) so later reads can.
  const copy = isGzip ? new PlainCopy() : undefined;
  try {
    const { store, indexed, firstPass } = await load(path, isGzip, plan, copy, onProgress, hooks.firstPass);
    // The pass's loaded objects (their raw bytes) are no longer reachable from here while whileOpen runs.
    if (hooks.whileOpen !== undefined) await hooks.whileOpen(indexed, firstPass);
    return store;
  } finally {
    copy?.remove();
  }
}

/** The store, and what the loader can offer other readers of the file (see LoadHooks.whileOpen). */
async function load(
  path: string,
  gzip: boolean,
  plan: LoadPlan,
  copy: PlainCopy | undefined,
  onProgress: ProgressListener | undefined,
  rider: LoadHooks['firstPass'],
): Promise<{ store: HeapStore; indexed: IndexedHprof | undefined; firstPass: FirstPassEnd }> {
  const first = new FirstPass(plan, rider);
  const fed0 = await feedHprof(path, first.parser, { ...feedOptions(plan, onProgress, gzip), ...(copy ? { tee: (chunk: Buffer) => copy.write(chunk) } : {}) });
  const firstPass = { ...passEnd(first.parser, fed0), ...(first.riderFailure !== undefined ? { riderFailure: first.riderFailure } : {}) };
  const seekable = fed0.gzip ? copy?.finish() : path;
  const store = await finishLoad(path, plan, first, fed0, seekable, onProgress);
  const usable = seekable !== undefined && first.header !== undefined && fed0.truncatedAt === undefined && first.index.usable;
  return { store, indexed: usable ? { path: seekable, header: first.header!, index: first.index, meta: first.closure.meta } : undefined, firstPass };
}

/** The first pass: class metadata, the histogram, thread roots, the index, and root objects with their forward references. */
class FirstPass {
  readonly closure: Closure;
  readonly tally = new HistogramTally();
  readonly stacks = new StackTraceCollector();
  readonly index = new ObjectIndex();
  header: HprofHeader | undefined;
  readonly parser: HprofParser;
  riderFailure: { error: unknown } | undefined;
  /**
   * Instances met before their class's dump, as (id, class id) pairs: the old hprof agent writes every
   * class dump after the objects, so whether such an instance is of a root class is known only after
   * the pass (loadRootsMetBeforeTheirClass). jmap and HotSpot write classes first: this stays empty.
   */
  readonly beforeTheirClass: number[] = [];

  constructor(plan: LoadPlan, rider?: LoadHooks['firstPass']) {
    const closure = (this.closure = new Closure(plan));
    const meta = closure.meta;
    const staticsOf = new Map((plan.statics ?? []).map((s) => [s.className, s.depth]));
    const { index, tally, beforeTheirClass } = this;
    // Whether the class of the last instance seen had been dumped (instances of a class come in runs).
    let lastClass = -1;
    let lastClassDumped = true;
    const own: HprofVisitor = {
      ...closure.captureVisitor(true),
      ...meta.visitor(),
      ...this.stacks.visitor(),
      header: (h) => {
        this.header = h;
        closure.idSize = h.idSize;
      },
      classDump: (c) => {
        meta.classDumps.set(c.id, c);
        lastClass = -1;
        const depth = staticsOf.get(meta.className(c.id));
        if (depth !== undefined) for (const st of c.statics) if (isReferenceType(st.type) && typeof st.value === 'number') closure.want(st.value, depth);
      },
      root: (subTag, id, threadSerial, traceSerial) => {
        if (subTag === SUB.ROOT_THREAD_OBJ) this.stacks.threadRoot(id, threadSerial, traceSerial);
      },
      instanceHeader: (id, classId) => {
        index.note(id, parser);
        tally.instance(id, classId);
        if (classId !== lastClass) {
          lastClass = classId;
          lastClassDumped = meta.classDumps.has(classId);
        }
        if (!lastClassDumped && beforeTheirClass.length < MAX_BEFORE_THEIR_CLASS) beforeTheirClass.push(id, classId);
        return closure.wantsInstance(id, classId);
      },
      objectArrayHeader: (id, classId, length) => {
        index.note(id, parser);
        tally.objectArray(id, classId, length);
        return closure.wants(id);
      },
      primitiveArrayHeader: (id, type, length) => {
        index.note(id, parser);
        tally.primitiveArray(id, type, length);
        return closure.wants(id);
      },
    };
    // The rider comes second: the loader's metadata has each class before the rider sees it.
    const onRiderFailed = (error: unknown) => {
      this.riderFailure = { error };
    };
    const parser: HprofParser = new HprofParser(rider !== undefined ? visitorPair(own, rider(meta), onRiderFailed) : own);
    this.parser = parser;
  }
}

/** Instances of root classes the first pass met before their class dump are wanted now, to be read by the sweeps or passes that follow. */
function loadRootsMetBeforeTheirClass(pairs: readonly number[], closure: Closure): void {
  for (let i = 0; i < pairs.length; i += 2) closure.want(pairs[i]!, closure.rootBudget(pairs[i + 1]!));
}

/** After the first pass: the references left, then the store. `seekable` is a plain file to read blocks from, if there is one. */
async function finishLoad(
  path: string,
  plan: LoadPlan,
  first: FirstPass,
  fed0: FeedSummary,
  seekable: string | undefined,
  onProgress: ProgressListener | undefined,
): Promise<HeapStore> {
  const { closure, header, index } = first;
  const meta = closure.meta;
  if (header === undefined) throw new HprofFormatError(`the file ends before the HPROF header does`);
  const warnings = first.parser.warningReport();
  const histogramWarnings = [...warnings];
  if (fed0.truncatedAt !== undefined) histogramWarnings.push(truncationWarning(fed0));
  closure.expandDeferred();
  loadRootsMetBeforeTheirClass(first.beforeTheirClass, closure);

  let truncated: FeedSummary = fed0;
  let passes = 1;
  let sweeps = 0;
  if (seekable !== undefined && index.usable) {
    while (closure.pending && !closure.full && sweeps < MAX_SWEEPS) {
      sweeps++;
      if (!sweepIndexedBlocks(seekable, header, index, closure)) break;
    }
  } else {
    while (closure.pending && !closure.full && passes < MAX_PASSES) {
      const wantedFromStart = [...closure.frontier.keys()];
      const fed = await feedHprof(path, new HprofParser(closure.captureVisitor(false)), feedOptions(plan, onProgress, fed0.gzip));
      passes++;
      if (fed.truncatedAt !== undefined) truncated = fed;
      // A whole pass saw every object: what was wanted all along and not found is not in the dump.
      else for (const id of wantedFromStart) closure.missing(id);
    }
  }
  if (closure.full) warnings.push(`loading stopped at ${closure.maxObjects} objects; collections reached past that point are reported as incomplete`);
  if (closure.missingCount > 0)
    warnings.push(`${closure.missingCount} referenced objects are not in the dump; walks that reach them are reported as incomplete`);
  else if (closure.pending) {
    warnings.push(
      `${closure.frontier.size} referenced objects were not found (after ${passes} passes ` +
        `and ${sweeps} index sweeps); walks that reach them are reported as incomplete`,
    );
  }
  const cut = truncated.truncatedAt !== undefined ? truncationWarning(truncated) : undefined;
  if (cut !== undefined) warnings.push(cut);

  const completeClasses = new Set<string>();
  if (fed0.truncatedAt === undefined && !closure.full) {
    for (const name of closure.rootClassNames()) completeClasses.add(name);
    for (const r of plan.roots) completeClasses.add(r.className);
  }
  return {
    source: { path, format: 'hprof', hprofVersion: header.version, idSize: header.idSize, timestampMs: header.timestampMs, gzip: fed0.gzip },
    classes: meta.heapClasses(),
    objects: closure.objects(),
    completeClasses,
    threads: first.stacks.threadRoots(meta),
    histogram: first.tally.histogram(path, meta, header.idSize, histogramWarnings),
    warnings,
    ...(cut !== undefined ? { cut } : {}),
  };
}

/** The growing set of loaded objects and the references still to load, with their depth budgets. */
class Closure {
  readonly meta = new ClassMetadata();
  idSize = 8;
  readonly maxObjects: number;
  full = false;
  /** Wanted, not yet loaded: id -> depth budget. */
  readonly frontier = new Map<number, number>();
  /** Called with every id added to the frontier (the index sweep schedules its block). */
  onWant: ((id: number) => void) | undefined;
  private readonly loaded = new Map<number, Loaded>();
  private readonly deferred: number[] = [];
  private readonly rootBudgetByClass = new Map<number, number>();
  private readonly rootNames: Map<string, LoadPlan['roots'][number]>;
  private readonly linkSlotsByClass = new Map<number, boolean[]>();
  private stringClassId: number | undefined | null = null;

  constructor(plan: LoadPlan) {
    this.maxObjects = plan.maxObjects ?? DEFAULT_MAX_OBJECTS;
    this.rootNames = new Map(plan.roots.map((r) => [r.className, r]));
  }

  /** References to objects the dump does not hold. */
  missingCount = 0;

  missing(id: number): void {
    if (this.frontier.delete(id)) this.missingCount++;
  }

  get pending(): boolean {
    return this.frontier.size > 0;
  }

  wants(id: number): boolean {
    return this.frontier.size !== 0 && this.frontier.has(id);
  }

  wantsInstance(id: number, classId: number): boolean {
    // Objects of one class often come in runs: remember the last answer.
    if (classId !== this.lastClassId) {
      this.lastClassId = classId;
      this.lastClassIsRoot = this.rootBudget(classId) >= 0;
    }
    return this.lastClassIsRoot || this.wants(id);
  }

  private lastClassId = -1;
  private lastClassIsRoot = false;

  /** Parser callbacks that load wanted objects (and, in the first pass, root-class instances). */
  captureVisitor(withRoots: boolean): HprofVisitor {
    return {
      instanceHeader: withRoots ? (id, classId) => this.wantsInstance(id, classId) : (id) => this.wants(id),
      instanceData: (id, classId, data) => {
        const budget = Math.max(this.frontier.get(id) ?? -1, withRoots ? this.rootBudget(classId) : -1);
        this.add(id, { kind: 'raw-instance', id, classId, raw: Buffer.from(data) }, budget);
      },
      objectArrayHeader: (id) => this.wants(id),
      objectArrayData: (id, classId, elements) =>
        this.add(id, { kind: 'object-array', id, classId, elements: Array.from(elements) }, this.frontier.get(id) ?? 0),
      primitiveArrayHeader: (id) => this.wants(id),
      primitiveArrayData: (id, type, data) => this.add(id, decodePrimitiveArray(id, type, data), this.frontier.get(id) ?? 0),
    };
  }

  private add(id: number, object: Loaded['object'], budget: number): void {
    this.frontier.delete(id);
    if (this.loaded.has(id)) return;
    if (this.loaded.size >= this.maxObjects) {
      this.full = true;
      return;
    }
    const entry: Loaded = { object, budget };
    this.loaded.set(id, entry);
    // Expanding now loads forward references in this same read; an instance whose class layout is not
    // known yet (never seen in HotSpot dumps, where class dumps come first) waits for the end of the pass.
    if (object.kind !== 'raw-instance' || this.layoutKnown(object.classId)) this.expand(entry);
    else this.deferred.push(id);
  }

  expandDeferred(): void {
    for (const id of this.deferred.splice(0)) this.expand(this.loaded.get(id)!);
  }

  want(ref: number, budget: number): void {
    // A reference to a class is to its CLASS_DUMP (the classes are all kept), not to an object.
    if (ref === 0 || budget < 0 || this.meta.classDumps.has(ref)) return;
    const known = this.loaded.get(ref);
    if (known !== undefined) {
      if (known.budget < budget) {
        known.budget = budget;
        this.expand(known);
      }
      return;
    }
    const before = this.frontier.get(ref);
    if (before === undefined || before < budget) {
      this.frontier.set(ref, budget);
      if (before === undefined) this.onWant?.(ref);
    }
  }

  private expand(entry: Loaded): void {
    let o = entry.object;
    if (o.kind === 'raw-instance') o = entry.object = decodeInstance(o.id, o.classId, o.raw, this.meta, this.idSize);
    if (o.kind === 'instance') {
      const isString = o.classId === this.stringClass();
      const links = this.linkSlots(o.classId);
      for (let i = 0; i < o.values.length; i++) {
        const v = o.values[i]!;
        if (v === null || typeof v !== 'object') continue;
        // A string's characters are always loaded with it, and the next node of a linked structure
        // costs no depth: a queue or a hash bin is one level, however long.
        this.want(v.ref, isString ? Math.max(0, entry.budget - 1) : links[i] ? entry.budget : entry.budget - 1);
      }
    } else if (o.kind === 'object-array') {
      for (const e of o.elements) this.want(e, entry.budget - 1);
    }
  }

  private stringClass(): number | undefined {
    if (this.stringClassId === null) {
      this.stringClassId = this.meta.classIdNamed('java/lang/String');
    }
    return this.stringClassId;
  }

  private layoutKnown(classId: number): boolean {
    const seen = new Set<number>();
    for (let id = classId; id !== 0 && !seen.has(id);) {
      seen.add(id);
      const c = this.meta.classDumps.get(id);
      if (c === undefined) return false;
      id = c.superId;
    }
    return true;
  }

  /** The depth to follow an instance of this class as a root, or -1 when it is not a root class. */
  rootBudget(classId: number): number {
    let b = this.rootBudgetByClass.get(classId);
    if (b !== undefined) return b;
    b = -1;
    const seen = new Set<number>();
    let own = true;
    for (let c = this.meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = this.meta.classDumps.get(c.superId)) {
      seen.add(c.id);
      const r = this.rootNames.get(this.meta.className(c.id));
      if (r && (own || r.subclasses !== false)) b = Math.max(b, r.depth);
      own = false;
    }
    if (this.meta.classDumps.has(classId)) this.rootBudgetByClass.set(classId, b);
    return b;
  }

  rootClassNames(): string[] {
    return [...this.rootBudgetByClass].filter(([, b]) => b >= 0).map(([classId]) => this.meta.className(classId));
  }

  private linkSlots(classId: number): boolean[] {
    let slots = this.linkSlotsByClass.get(classId);
    if (slots === undefined) {
      slots = [];
      const seen = new Set<number>();
      const nodeLike = NODE_CLASS.test(this.meta.className(classId));
      for (let k = this.meta.classDumps.get(classId); k !== undefined && !seen.has(k.id); k = this.meta.classDumps.get(k.superId)) {
        seen.add(k.id);
        for (const f of k.fields) slots.push(nodeLike && LINK_FIELDS.has(this.meta.fieldName(f.nameId)));
      }
      this.linkSlotsByClass.set(classId, slots);
    }
    return slots;
  }

  objects(): Map<number, HeapObject> {
    const out = new Map<number, HeapObject>();
    for (const [id, entry] of this.loaded) {
      const o = entry.object;
      out.set(id, o.kind === 'raw-instance' ? decodeInstance(o.id, o.classId, o.raw, this.meta, this.idSize) : o);
    }
    return out;
  }
}

/**
 * One forward sweep: reads, in file order, the index blocks holding wanted objects, including those
 * that objects loaded during the sweep ask for further on. Returns false when no block can be read
 * for what is still wanted (the rest is not in the dump).
 */
function sweepIndexedBlocks(path: string, header: HprofHeader, index: ObjectIndex, closure: Closure): boolean {
  const queue = new MinHeap();
  const wantedFromStart = [...closure.frontier.keys()];
  for (const id of wantedFromStart) for (const b of index.blocksFor(id)) queue.push(b);
  closure.onWant = (id) => {
    for (const b of index.blocksFor(id)) queue.push(b);
  };
  const fd = openSync(path, 'r');
  const readBlocks = new Set<number>();
  try {
    const size = fstatSync(fd).size;
    let last = -1;
    const visitor = closure.captureVisitor(false);
    for (let b = queue.pop(); b !== undefined; b = queue.pop()) {
      // Blocks behind this point wait for the next sweep.
      if (b <= last) continue;
      parseIndexedBlock(fd, size, header, index.block(b), visitor);
      last = b;
      readBlocks.add(b);
      if (closure.full) break;
    }
  } finally {
    closeSync(fd);
    closure.onWant = undefined;
  }
  // An id wanted all along whose every candidate block was read without finding it is not in the
  // dump (HPROF files can hold references to objects they did not write). Ids wanted later may have
  // been in a block read before they were wanted.
  for (const id of wantedFromStart) if (closure.frontier.has(id) && index.blocksFor(id).every((b) => readBlocks.has(b))) closure.missing(id);
  return readBlocks.size > 0;
}

/** A binary min-heap of block numbers. */
class MinHeap {
  private readonly a: number[] = [];

  push(v: number): void {
    const a = this.a;
    a.push(v);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (a[p]! <= v) break;
      a[i] = a[p]!;
      a[p] = v;
      i = p;
    }
  }

  pop(): number | undefined {
    const a = this.a;
    if (a.length === 0) return undefined;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** Field values in layout order: the object's class's fields, then its superclass's, up to Object. */
function decodeInstance(id: number, classId: number, raw: Buffer, meta: ClassMetadata, idSize: number): HeapObject {
  const values: HeapValue[] = [];
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  let o = 0;
  const seen = new Set<number>();
  for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
    seen.add(c.id);
    for (const f of c.fields) {
      const size = basicTypeSize(f.type, idSize);
      // Past the data, or past a field of a type code HPROF does not have (the parser warned): unknown.
      if (size === 0) o = raw.length;
      if (size === 0 || o + size > raw.length) {
        values.push(null);
        continue;
      }
      const v = readValue(raw, dv, 0, o, f.type, idSize);
      values.push(isReferenceType(f.type) && typeof v === 'number' ? { ref: v } : v);
      o += size;
    }
  }
  return { kind: 'instance', id, classId, values };
}

function decodePrimitiveArray(id: number, type: number, data: Buffer): HeapObject {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const size = basicTypeSize(type, 8);
  const n = size === 0 ? 0 : Math.floor(data.length / size);
  const values: Array<number | bigint | boolean> = new Array(n);
  for (let i = 0; i < n; i++) values[i] = readValue(data, dv, 0, i * size, type, 8) as number | bigint | boolean;
  const elementType = BASIC_TYPES[type] ?? 'byte';
  return { kind: 'primitive-array', id, elementType: elementType === 'object' ? 'byte' : elementType, values };
}
