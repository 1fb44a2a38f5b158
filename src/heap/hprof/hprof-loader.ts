/**
 * Loads from an HPROF file the part of the heap the analyses need, in a few sequential passes:
 *   pass 0: class names and layouts, the histogram, thread roots, and every instance of the plan's
 *           root classes (and their subclasses), plus the objects the plan's static fields point to;
 *   pass 1..n: the objects those reference, one level per pass, until each root's depth is spent.
 * Nothing else is kept, so memory follows what is loaded, not the size of the dump.
 */
import type { ProgressListener } from '../../input/open.js';
import type { HeapObject, HeapStore, HeapValue } from '../heap-model.js';
import { feedHprof, type FeedSummary } from './byte-source.js';
import { ClassMetadata } from './class-metadata.js';
import { BASIC_TYPES, basicTypeSize } from './format.js';
import { HistogramTally } from './hprof-histogram.js';
import { truncationWarning } from './hprof-warnings.js';
import { HprofFormatError, HprofParser, readValue, type HprofHeader, type HprofVisitor } from './parser.js';
import { ObjectIndex } from './object-index.js';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SUB } from './format.js';

export interface LoadPlan {
  /** Every instance of these classes (and, unless told otherwise, their subclasses) is loaded, then followed `depth` references deep. */
  readonly roots: ReadonlyArray<{ readonly className: string; readonly depth: number; readonly subclasses?: boolean }>;
  /** The objects these classes' static fields point to are loaded too, followed `depth` deep. */
  readonly statics?: ReadonlyArray<{ readonly className: string; readonly depth: number }>;
  /** A bound on loaded objects; past it, loading stops with a warning. */
  readonly maxObjects?: number;
}

const DEFAULT_MAX_OBJECTS = 2_000_000;
/** Full passes over the file for one level of references each (gzip input, or ids in no usable order). */
const MAX_PASSES = 64;
/** Rounds of indexed block reads (one level of references each): cheap, so many more are allowed. */
const MAX_LOOKUP_ROUNDS = 100_000;

/** Classes whose instances are the links of a linked structure (hash bins, queues, trees). */
const NODE_CLASS = /(?:Node|Entry|Cell)$/;
/** The fields of such a class that lead to the next link. */
const LINK_FIELDS = new Set(['next', 'prev', 'after', 'before', 'left', 'right', 'parent', 'first', 'last', 'head', 'tail']);

/** A captured object before decoding, with how many more references deep it is to be followed. */
interface Captured {
  object: HeapObject | { kind: 'raw-instance'; id: number; classId: number; raw: Buffer };
  budget: number;
}

export async function loadHprof(path: string, plan: LoadPlan, onProgress?: ProgressListener): Promise<HeapStore> {
  const meta = new ClassMetadata();
  const tally = new HistogramTally();
  const threads: Array<{ objectId: number; threadSerial: number }> = [];
  const loaded = new Map<number, Captured>();
  const warnings: string[] = [];
  const maxObjects = plan.maxObjects ?? DEFAULT_MAX_OBJECTS;

  // Root class ids are decided on first sight of each class id, once its class dump is known.
  const rootBudgetByClass = new Map<number, number>();
  const rootNames = new Map(plan.roots.map((r) => [r.className, r]));
  const rootBudget = (classId: number): number => {
    let b = rootBudgetByClass.get(classId);
    if (b !== undefined) return b;
    b = -1;
    const seen = new Set<number>();
    let own = true;
    for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
      seen.add(c.id);
      const r = rootNames.get(meta.className(c.id));
      if (r && (own || r.subclasses !== false)) b = Math.max(b, r.depth);
      own = false;
    }
    if (meta.classDumps.has(classId)) rootBudgetByClass.set(classId, b);
    return b;
  };

  let full = false;
  const capture = (id: number, object: Captured['object'], budget: number) => {
    if (loaded.size >= maxObjects) {
      full = true;
      return;
    }
    loaded.set(id, { object, budget });
  };

  // Pass 0.
  let header: HprofHeader | undefined;
  let idSize = 8;
  const pass0 = new HprofParser({
    ...meta.visitor(),
    header: (h) => {
      header = h;
      idSize = h.idSize;
    },
    root: (subTag, id, threadSerial) => {
      if (subTag === SUB.ROOT_THREAD_OBJ) threads.push({ objectId: id, threadSerial });
    },
    instanceHeader: (id, classId) => {
      index.note(id, pass0);
      tally.instance(classId);
      return rootBudget(classId) >= 0;
    },
    instanceData: (id, classId, data) => capture(id, { kind: 'raw-instance', id, classId, raw: Buffer.from(data) }, rootBudget(classId)),
    objectArrayHeader: (id, classId, length) => {
      index.note(id, pass0);
      tally.objectArray(classId, length);
      return false;
    },
    primitiveArrayHeader: (id, type, length) => {
      index.note(id, pass0);
      tally.primitiveArray(type, length);
      return false;
    },
  });
  const index = new ObjectIndex();
  const fed0 = await feedHprof(path, pass0, onProgress);
  if (header === undefined) throw new HprofFormatError(`${path}: the file ends before the HPROF header does`);
  warnings.push(...pass0.warnings);
  let truncated = fed0;
  const histogramWarnings = [...warnings];
  if (fed0.truncatedAt !== undefined) histogramWarnings.push(truncationWarning(fed0.truncatedAt, fed0.gzip));

  // Decoding needs every class dump, which only the end of pass 0 guarantees.
  const frontier = new Map<number, number>();
  const want = (ref: number, budget: number) => {
    if (ref === 0 || budget < 0) return;
    const known = loaded.get(ref);
    if (known !== undefined) {
      if (known.budget < budget) {
        known.budget = budget;
        expand(ref, known);
      }
      return;
    }
    if ((frontier.get(ref) ?? -1) < budget) frontier.set(ref, budget);
  };
  const stringClassIds = new Set<number>();
  for (const [classId] of meta.classDumps) if (meta.className(classId) === 'java.lang.String') stringClassIds.add(classId);
  const expand = (id: number, c: Captured) => {
    const o = c.object;
    if (o.kind === 'raw-instance') {
      c.object = decodeInstance(o.id, o.classId, o.raw, meta, idSize);
      return expand(id, c);
    }
    if (o.kind === 'instance') {
      const isString = stringClassIds.has(o.classId);
      const links = linkSlots(o.classId);
      for (let i = 0; i < o.values.length; i++) {
        const v = o.values[i]!;
        if (v === null || typeof v !== 'object') continue;
        // A string's characters are always loaded with it, and the next node of a linked structure
        // costs no depth: a queue or a hash bin is one level, however long.
        want(v.ref, isString ? Math.max(0, c.budget - 1) : links[i] ? c.budget : c.budget - 1);
      }
    } else if (o.kind === 'object-array') {
      for (const e of o.elements) want(e, c.budget - 1);
    }
  };
  const linkSlotsByClass = new Map<number, boolean[]>();
  const linkSlots = (classId: number): boolean[] => {
    let slots = linkSlotsByClass.get(classId);
    if (slots === undefined) {
      slots = [];
      const seen = new Set<number>();
      const nodeLike = NODE_CLASS.test(meta.className(classId));
      for (let k = meta.classDumps.get(classId); k !== undefined && !seen.has(k.id); k = meta.classDumps.get(k.superId)) {
        seen.add(k.id);
        for (const f of k.fields) slots.push(nodeLike && LINK_FIELDS.has(meta.fieldName(f.nameId)));
      }
      linkSlotsByClass.set(classId, slots);
    }
    return slots;
  };
  for (const [id, c] of loaded) expand(id, c);
  for (const s of plan.statics ?? []) {
    for (const [classId, c] of meta.classDumps) {
      if (meta.className(classId) !== s.className) continue;
      for (const st of c.statics) if ((st.type === 2 || st.type === 1) && typeof st.value === 'number') want(st.value, s.depth);
    }
  }

  // Passes 1..n: one level of references each.
  let passes = 1;
  let lookups = 0;
  while (frontier.size > 0 && !full && passes < MAX_PASSES && lookups < MAX_LOOKUP_ROUNDS) {
    const wanted = new Map(frontier);
    frontier.clear();
    const got: Array<[number, Captured]> = [];
    const take = (id: number, object: Captured['object']) => {
      const budget = wanted.get(id)!;
      if (loaded.size + got.length >= maxObjects) {
        full = true;
        return;
      }
      got.push([id, { object, budget }]);
    };
    const visitor: HprofVisitor = {
      instanceHeader: (id) => wanted.has(id),
      instanceData: (id, classId, data) => take(id, { kind: 'raw-instance', id, classId, raw: Buffer.from(data) }),
      objectArrayHeader: (id) => wanted.has(id),
      objectArrayData: (id, classId, elements) => take(id, { kind: 'object-array', id, classId, elements: Array.from(elements) }),
      primitiveArrayHeader: (id) => wanted.has(id),
      primitiveArrayData: (id, type, data) => take(id, decodePrimitiveArray(id, type, data)),
    };
    if (!fed0.gzip && index.usable) {
      readIndexedBlocks(path, header, index, wanted.keys(), visitor);
      lookups++;
    } else {
      const fed = await feedHprof(path, new HprofParser(visitor), onProgress);
      passes++;
      if (fed.truncatedAt !== undefined) truncated = fed;
    }
    for (const [id, c] of got) loaded.set(id, c);
    for (const [id, c] of got) expand(id, c);
  }
  if (full) warnings.push(`loading stopped at ${maxObjects} objects; collections reached past that point are reported as incomplete`);
  if (frontier.size > 0 && !full) warnings.push(`loading stopped after ${passes} passes over the file and ${lookups} indexed lookups; deeper references were not followed`);
  if (truncated.truncatedAt !== undefined) warnings.push(truncationWarning(truncated.truncatedAt, truncated.gzip));

  const objects = new Map<number, HeapObject>();
  for (const [id, c] of loaded) {
    const o = c.object.kind === 'raw-instance' ? decodeInstance(c.object.id, c.object.classId, c.object.raw, meta, idSize) : c.object;
    objects.set(id, o);
  }
  const completeClasses = new Set<string>();
  if (fed0.truncatedAt === undefined && !full) {
    for (const [classId, budget] of rootBudgetByClass) if (budget >= 0) completeClasses.add(meta.className(classId));
    for (const r of plan.roots) completeClasses.add(r.className);
  }
  return {
    source: summarySource(path, header, fed0),
    classes: meta.heapClasses(),
    objects,
    completeClasses,
    threads,
    histogram: tally.histogram(path, meta, idSize, histogramWarnings),
    warnings,
  };
}

function summarySource(path: string, header: HprofHeader, fed: FeedSummary): HeapStore['source'] {
  return { path, format: 'hprof', hprofVersion: header.version, idSize: header.idSize, timestampMs: header.timestampMs, gzip: fed.gzip };
}

/** Field values in layout order: the object's class's fields, then its superclass's, up to Object. */
export function decodeInstance(id: number, classId: number, raw: Buffer, meta: ClassMetadata, idSize: number): HeapObject {
  const values: HeapValue[] = [];
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  let o = 0;
  const seen = new Set<number>();
  for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
    seen.add(c.id);
    for (const f of c.fields) {
      const size = basicTypeSize(f.type, idSize);
      if (o + size > raw.length) {
        values.push(null);
        continue;
      }
      const v = readValue(raw, dv, 0, o, f.type, idSize);
      values.push((f.type === 2 || f.type === 1) && typeof v === 'number' ? { ref: v } : v);
      o += size;
    }
  }
  return { kind: 'instance', id, classId, values };
}

export function decodePrimitiveArray(id: number, type: number, data: Buffer): HeapObject {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const size = basicTypeSize(type, 8);
  const n = size === 0 ? 0 : Math.floor(data.length / size);
  const values: Array<number | bigint | boolean> = new Array(n);
  for (let i = 0; i < n; i++) values[i] = readValue(data, dv, 0, i * size, type, 8) as number | bigint | boolean;
  const elementType = BASIC_TYPES[type] ?? 'byte';
  return { kind: 'primitive-array', id, elementType: elementType === 'object' ? 'byte' : elementType, values };
}

/** Reads only the index blocks that may hold the wanted ids (adjacent blocks in one read). */
function readIndexedBlocks(path: string, header: HprofHeader, index: ObjectIndex, wanted: Iterable<number>, visitor: HprofVisitor): void {
  const blocks = new Set<number>();
  for (const id of wanted) for (const b of index.blocksFor(id)) blocks.add(b);
  const sorted = [...blocks].sort((a, b) => a - b);
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
      const first = index.block(sorted[i]!);
      const last = index.block(sorted[j]!);
      const end = Math.min(last.end ?? size, size);
      const buf = Buffer.allocUnsafe(end - first.offset);
      const n = readSync(fd, buf, 0, buf.length, first.offset);
      const parser = new HprofParser(visitor);
      parser.resumeAt(header, first.offset, first.segmentLeft);
      parser.push(buf, 0, n);
      i = j + 1;
    }
  } finally {
    closeSync(fd);
  }
}
