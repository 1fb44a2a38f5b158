/**
 * The class histogram of an HPROF file in one sequential pass: per class, instances and shallow
 * bytes. Object bodies are skipped, never decoded.
 *
 * HPROF does not record the JVM's object layout: sizes are worked out after the pass under the layout
 * the dump itself shows (see layout/object-layout.ts), so array lengths are kept in a form that any
 * alignment up to 256 bytes can size exactly.
 */
import type { ProgressListener } from '../../model/progress.js';
import { type Histogram, type HistogramRow, sortHistogramRows } from '../histogram.js';
import { feedHprof } from './byte-source.js';
import { ClassMetadata } from './class-metadata.js';
import { basicTypeSize, isReferenceType, primitiveArrayClassName } from './format.js';
import { truncationWarning } from './hprof-warnings.js';
import { LayoutEvidence } from './layout/layout-evidence.js';
import { chooseLayout, type ObjectLayout, ObjectSizes } from './layout/object-layout.js';
import { HprofFormatError, HprofParser } from './parser.js';

/** What the histogram says about the sizes it gives. */
export function sizeModelOf(layout: Pick<ObjectLayout, 'summary' | 'reasons'>): string {
  return `shallow sizes under the layout of a ${layout.summary} (${layout.reasons.join('; ')})`;
}

interface Tally {
  count: number;
}

/** What the memory analysis of a dump is told from (see doesNotFitCounts). */
export interface GraphCounts {
  readonly objects: number;
  readonly references: number;
}

/** The reference fields of a class's instances, its superclasses' included (0 for a class the dump does not describe). */
function referenceFields(meta: ClassMetadata, classId: number, known: Map<number, number>): number {
  const cached = known.get(classId);
  if (cached !== undefined) return cached;
  let count = 0;
  const seen = new Set<number>();
  for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
    seen.add(c.id);
    for (const f of c.fields) if (isReferenceType(f.type)) count++;
  }
  known.set(classId, count);
  return count;
}

/**
 * Arrays of one class: their count, the sum of their lengths, and how many have each length modulo
 * 256, which is all an alignment of up to 256 bytes needs to size them all once the layout is known.
 */
class ArrayTally {
  count = 0;
  lengths = 0;
  readonly byLowByte = new Uint32Array(256);

  add(length: number): void {
    this.count++;
    this.lengths += length;
    this.byLowByte[length & 255]!++;
  }

  bytes(sizes: ObjectSizes, elementBytes: number): number {
    // Each array's size is its unpadded size rounded up; the rounding depends only on the length's low byte.
    let padding = 0;
    for (let r = 0; r < 256; r++) {
      const n = this.byLowByte[r]!;
      if (n > 0) padding += n * (sizes.array(elementBytes, r) - sizes.array(elementBytes, 0) - elementBytes * r);
    }
    return this.count * sizes.array(elementBytes, 0) + this.lengths * elementBytes + padding;
  }
}

/**
 * Counts objects as the parser reports them, and turns the counts into a Histogram at the end, when
 * every class dump (and so the layout and every instance size) is known. Shared by the histogram
 * pass and the loader.
 */
export class HistogramTally {
  private readonly instances = new Map<number, Tally>();
  private readonly objectArrays = new Map<number, ArrayTally>();
  private readonly primitiveArrays = new Map<number, ArrayTally>();
  private readonly evidence = new LayoutEvidence();
  private lastClass = -1;
  private lastTally: Tally = { count: 0 };

  instance(id: number, classId: number): void {
    this.evidence.other(id);
    if (classId !== this.lastClass) {
      let t = this.instances.get(classId);
      if (t === undefined) this.instances.set(classId, (t = { count: 0 }));
      this.lastClass = classId;
      this.lastTally = t;
    }
    this.lastTally.count++;
  }

  objectArray(id: number, classId: number, length: number): void {
    this.evidence.objectArray(id, length);
    let t = this.objectArrays.get(classId);
    if (t === undefined) this.objectArrays.set(classId, (t = new ArrayTally()));
    t.add(length);
  }

  primitiveArray(id: number, type: number, length: number): void {
    this.evidence.primitiveArray(id, basicTypeSize(type, 8), length);
    let t = this.primitiveArrays.get(type);
    if (t === undefined) this.primitiveArrays.set(type, (t = new ArrayTally()));
    t.add(length);
  }

  /**
   * The objects and, at most, the references of the object graph this dump makes (see hprofObjectGraph):
   * every object references its class; an instance, each reference field of its class and
   * superclasses; an object array, each element (null ones are left out of the graph, counted here);
   * a class object, its superclass, loader and reference statics, and one more (for the locals a
   * thread's stack adds under its thread object: a few thousand in a heap).
   */
  graphCounts(meta: ClassMetadata): GraphCounts {
    let objects = 0;
    let references = 0;
    const fieldsOf = new Map<number, number>();
    for (const [classId, t] of this.instances) {
      objects += t.count;
      references += t.count * (1 + referenceFields(meta, classId, fieldsOf));
    }
    for (const t of this.objectArrays.values()) {
      objects += t.count;
      references += t.count + t.lengths;
    }
    for (const t of this.primitiveArrays.values()) {
      objects += t.count;
      references += t.count;
    }
    for (const c of meta.classDumps.values()) {
      objects++;
      references += 3 + c.statics.filter((s) => isReferenceType(s.type)).length;
    }
    return { objects, references };
  }

  histogram(source: string, meta: ClassMetadata, idSize: number, warnings: string[]): Histogram {
    const layout = chooseLayout(idSize, this.evidence, meta);
    const sizes = new ObjectSizes(layout, meta);
    const rows = new Map<string, { instances: number; shallowBytes: number }>();
    const add = (name: string, count: number, bytes: number) => {
      const r = rows.get(name);
      if (r) {
        r.instances += count;
        r.shallowBytes += bytes;
      } else rows.set(name, { instances: count, shallowBytes: bytes });
    };
    let undumped = 0;
    for (const [classId, t] of this.instances) {
      add(meta.className(classId), t.count, t.count * sizes.instance(classId));
      if (!meta.classDumps.has(classId)) undumped += t.count;
    }
    if (undumped > 0)
      warnings.push(`${undumped} instances of classes the dump has no class record for: their sizes are unknown, each counted as a bare object header`);
    for (const [classId, t] of this.objectArrays) add(meta.className(classId), t.count, t.bytes(sizes, layout.referenceBytes));
    for (const [type, t] of this.primitiveArrays) add(primitiveArrayClassName(type), t.count, t.bytes(sizes, basicTypeSize(type, 8)));
    // Classes are java.lang.Class objects too (jmap -histo counts them); their mirrors are the CLASS_DUMPs.
    if (meta.classDumps.size > 0) {
      let bytes = 0;
      for (const c of meta.classDumps.values()) bytes += sizes.classObject(c);
      add('java.lang.Class', meta.classDumps.size, bytes);
    }
    const out: HistogramRow[] = [...rows].map(([name, r]) => ({ className: name, instances: r.instances, shallowBytes: r.shallowBytes }));
    return {
      source,
      format: 'hprof',
      rows: sortHistogramRows(out),
      totalInstances: out.reduce((n, r) => n + r.instances, 0),
      totalBytes: out.reduce((n, r) => n + r.shallowBytes, 0),
      sizeModel: sizeModelOf(layout),
      warnings,
    };
  }
}

/** `heapDump`: which heap dump of the file to count, from 1 (`--dump N`). */
export async function hprofHistogram(path: string, onProgress?: ProgressListener, heapDump?: number): Promise<Histogram> {
  const { tally, meta, idSize, warnings } = await tallied(path, onProgress, heapDump);
  return tally.histogram(path, meta, idSize, warnings);
}

/** How many objects a dump's object graph has, and at most how many references (the histogram's pass). */
export async function hprofGraphCounts(path: string, onProgress?: ProgressListener, heapDump?: number): Promise<GraphCounts> {
  const { tally, meta } = await tallied(path, onProgress, heapDump);
  return tally.graphCounts(meta);
}

async function tallied(path: string, onProgress: ProgressListener | undefined, heapDump: number | undefined) {
  const meta = new ClassMetadata();
  const tally = new HistogramTally();
  const parser = new HprofParser({
    ...meta.visitor(),
    instanceHeader: (id, classId) => {
      tally.instance(id, classId);
      return false;
    },
    objectArrayHeader: (id, classId, length) => {
      tally.objectArray(id, classId, length);
      return false;
    },
    primitiveArrayHeader: (id, type, length) => {
      tally.primitiveArray(id, type, length);
      return false;
    },
  });
  const fed = await feedHprof(path, parser, { ...(onProgress !== undefined ? { onProgress } : {}), ...(heapDump !== undefined ? { heapDump } : {}) });
  if (parser.header === undefined) throw new HprofFormatError(`the file ends before the HPROF header does`);
  const warnings = parser.warningReport();
  if (fed.truncatedAt !== undefined) warnings.push(truncationWarning(fed));
  return { tally, meta, idSize: parser.header.idSize, warnings };
}
