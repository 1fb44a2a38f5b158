/**
 * Per class, the instances and shallow bytes of the objects an HPROF pass reports: kept as counts
 * while the pass runs, sized at the end. Fed by the histogram's pass and by the loader's.
 *
 * HPROF does not record the JVM's object layout: sizes are worked out after the pass under the layout
 * the dump itself shows (see layout/object-layout.ts), so array lengths are kept in a form that any
 * alignment up to 256 bytes can size exactly.
 */
import { type Histogram, type HistogramRow, sortHistogramRows } from '../histogram.js';
import { type ClassMetadata } from './class-metadata.js';
import { basicTypeSize, isReferenceType, primitiveArrayClassName } from './format.js';
import { IdSlots } from './id-slots.js';
import { LayoutEvidence, type LayoutEvidenceState } from './layout/layout-evidence.js';
import { chooseLayout, type ObjectLayout, ObjectSizes } from './layout/object-layout.js';

/** What the histogram says about the sizes it gives. */
export function sizeModelOf(layout: Pick<ObjectLayout, 'summary' | 'reasons'>): string {
  return `shallow sizes under the layout of a ${layout.summary} (${layout.reasons.join('; ')})`;
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

interface ArrayTallyState {
  readonly count: number;
  readonly lengths: number;
  readonly byLowByte: Uint32Array;
}

/** A tally as data that crosses to another thread (see HistogramTally.append). */
export interface HistogramTallyState {
  readonly instances: ReadonlyMap<number, number>;
  readonly objectArrays: ReadonlyMap<number, ArrayTallyState>;
  readonly primitiveArrays: ReadonlyMap<number, ArrayTallyState>;
  readonly evidence: LayoutEvidenceState;
}

/**
 * Arrays of one class: their count, the sum of their lengths, and how many have each length modulo
 * 256, which is all an alignment of up to 256 bytes needs to size them all once the layout is known.
 */
class ArrayTally implements ArrayTallyState {
  count = 0;
  lengths = 0;
  readonly byLowByte = new Uint32Array(256);

  append(more: ArrayTallyState): void {
    this.count += more.count;
    this.lengths += more.lengths;
    for (let r = 0; r < 256; r++) this.byLowByte[r]! += more.byLowByte[r]!;
  }

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
  /** Instances by class: the class's slot in classIds and counts (a Map keyed by ids this size hashes slowly, and it is per object). */
  private readonly instanceSlots = new IdSlots(1024);
  private readonly classIds: number[] = [];
  private readonly counts: number[] = [];
  private readonly objectArrays = new Map<number, ArrayTally>();
  /** By element type code (4 to 11). */
  private readonly primitiveArrays: Array<ArrayTally | undefined> = [];
  private readonly evidence = new LayoutEvidence();
  private lastClass = -1;
  private lastSlot = -1;

  instance(id: number, classId: number): void {
    this.evidence.other(id);
    if (classId !== this.lastClass) this.lastSlot = this.slotOf(classId);
    this.counts[this.lastSlot]!++;
  }

  private slotOf(classId: number): number {
    let slot = this.instanceSlots.get(classId);
    if (slot < 0) {
      slot = this.classIds.length;
      this.instanceSlots.set(classId, slot);
      this.classIds.push(classId);
      this.counts.push(0);
    }
    this.lastClass = classId;
    return slot;
  }

  objectArray(id: number, classId: number, length: number): void {
    this.evidence.objectArray(id, length);
    let t = this.objectArrays.get(classId);
    if (t === undefined) this.objectArrays.set(classId, (t = new ArrayTally()));
    t.add(length);
  }

  primitiveArray(id: number, type: number, length: number): void {
    this.evidence.primitiveArray(id, basicTypeSize(type, 8), length);
    (this.primitiveArrays[type] ??= new ArrayTally()).add(length);
  }

  /** Instances by class id, in the order their classes were first met. */
  private instanceCounts(): Map<number, number> {
    return new Map(this.classIds.map((classId, slot) => [classId, this.counts[slot]!]));
  }

  private primitiveArrayTallies(): Map<number, ArrayTally> {
    const byType = new Map<number, ArrayTally>();
    this.primitiveArrays.forEach((t, type) => t !== undefined && byType.set(type, t));
    return byType;
  }

  /** What append needs, as data that crosses to another thread. */
  state(): HistogramTallyState {
    return {
      instances: this.instanceCounts(),
      objectArrays: this.objectArrays,
      primitiveArrays: this.primitiveArrayTallies(),
      evidence: this.evidence.state(),
    };
  }

  /** Adds the tally of the objects right after these (the next part of the file, read at the same time). */
  append(next: HistogramTallyState): void {
    for (const [classId, count] of next.instances) this.counts[this.slotOf(classId)]! += count;
    for (const [classId, more] of next.objectArrays) {
      let t = this.objectArrays.get(classId);
      if (t === undefined) this.objectArrays.set(classId, (t = new ArrayTally()));
      t.append(more);
    }
    for (const [type, more] of next.primitiveArrays) (this.primitiveArrays[type] ??= new ArrayTally()).append(more);
    this.evidence.append(next.evidence);
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
    for (const [classId, count] of this.instanceCounts()) {
      objects += count;
      references += count * (1 + referenceFields(meta, classId, fieldsOf));
    }
    for (const t of this.objectArrays.values()) {
      objects += t.count;
      references += t.count + t.lengths;
    }
    for (const t of this.primitiveArrayTallies().values()) {
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
    for (const [classId, count] of this.instanceCounts()) {
      add(meta.className(classId), count, count * sizes.instance(classId));
      if (!meta.classDumps.has(classId)) undumped += count;
    }
    if (undumped > 0)
      warnings.push(`${undumped} instances of classes the dump has no class record for: their sizes are unknown, each counted as a bare object header`);
    for (const [classId, t] of this.objectArrays) add(meta.className(classId), t.count, t.bytes(sizes, layout.referenceBytes));
    for (const [type, t] of this.primitiveArrayTallies()) add(primitiveArrayClassName(type), t.count, t.bytes(sizes, basicTypeSize(type, 8)));
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
