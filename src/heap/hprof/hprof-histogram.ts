/**
 * The class histogram of an HPROF file in one sequential pass: per class, instances and shallow
 * bytes. Object bodies are skipped, never decoded.
 *
 * HPROF does not record the JVM's object layout, so shallow sizes are estimated the way HotSpot lays
 * objects out on a 64-bit JVM with compressed class pointers and compressed oops (heaps under 32 GB):
 * a 12-byte header (16 for arrays, with the length), 4-byte references, 8-byte alignment.
 */
import type { ProgressListener } from '../../model/progress.js';
import { type Histogram, type HistogramRow, sortHistogramRows } from '../histogram.js';
import { feedHprof } from './byte-source.js';
import { ClassMetadata } from './class-metadata.js';
import { basicTypeSize, isReferenceType, primitiveArrayClassName } from './format.js';
import { truncationWarning } from './hprof-warnings.js';
import { HprofFormatError, HprofParser } from './parser.js';

const HPROF_SIZE_MODEL =
  'shallow sizes are estimates for a 64-bit HotSpot JVM with compressed oops and class pointers (12-byte ' +
  'header, 16 for arrays, 4-byte references, 8-byte alignment); HPROF does not record the real layout';

const align8 = (n: number) => (n + 7) & ~7;

/** Shallow size of an instance whose class and superclasses declare these fields (references count 4 bytes). */
export function instanceShallowSize(fieldsUpTheHierarchy: Iterable<{ readonly type: number }>, idSize: number): number {
  let bytes = 12;
  for (const f of fieldsUpTheHierarchy) bytes += isReferenceType(f.type) ? 4 : basicTypeSize(f.type, idSize);
  return align8(bytes);
}

export function objectArrayShallowSize(length: number): number {
  return align8(16 + 4 * length);
}

export function primitiveArrayShallowSize(elementType: number, length: number): number {
  return align8(16 + basicTypeSize(elementType, 8) * length);
}

/** Shallow size of a class object: an instance of java.lang.Class, or 96 bytes when the dump lacks that class. */
export function classObjectShallowSize(meta: ClassMetadata, idSize: number): number {
  const classClass = meta.classIdNamed('java/lang/Class');
  return classClass !== undefined ? instanceShallowSize(fieldsUpTheHierarchy(meta, classClass), idSize) : 96;
}

/** The fields of a class and its superclasses, as far as the dump has their class dumps. */
function* fieldsUpTheHierarchy(meta: ClassMetadata, classId: number): Generator<{ readonly type: number; readonly nameId: number }> {
  const seen = new Set<number>();
  for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
    seen.add(c.id);
    yield* c.fields;
  }
}

interface Tally {
  count: number;
  bytes: number;
}

/**
 * Counts objects as the parser reports them, and turns the counts into a Histogram at the end, when
 * every class dump (and so every instance size) is known. Shared by the histogram pass and the loader.
 */
export class HistogramTally {
  private readonly instances = new Map<number, Tally>();
  private readonly objectArrays = new Map<number, Tally>();
  private readonly primitiveArrays = new Map<number, Tally>();
  private lastClass = -1;
  private lastTally: Tally = { count: 0, bytes: 0 };

  instance(classId: number): void {
    if (classId !== this.lastClass) {
      let t = this.instances.get(classId);
      if (t === undefined) this.instances.set(classId, (t = { count: 0, bytes: 0 }));
      this.lastClass = classId;
      this.lastTally = t;
    }
    this.lastTally.count++;
  }

  objectArray(classId: number, length: number): void {
    let t = this.objectArrays.get(classId);
    if (t === undefined) this.objectArrays.set(classId, (t = { count: 0, bytes: 0 }));
    t.count++;
    t.bytes += objectArrayShallowSize(length);
  }

  primitiveArray(type: number, length: number): void {
    let t = this.primitiveArrays.get(type);
    if (t === undefined) this.primitiveArrays.set(type, (t = { count: 0, bytes: 0 }));
    t.count++;
    t.bytes += primitiveArrayShallowSize(type, length);
  }

  histogram(source: string, meta: ClassMetadata, idSize: number, warnings: string[]): Histogram {
    const instanceSize = (classId: number): number => instanceShallowSize(fieldsUpTheHierarchy(meta, classId), idSize);
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
      add(meta.className(classId), t.count, t.count * instanceSize(classId));
      if (!meta.classDumps.has(classId)) undumped += t.count;
    }
    if (undumped > 0)
      warnings.push(`${undumped} instances of classes the dump has no class record for: their sizes are unknown, each counted as a bare object header`);
    for (const [classId, t] of this.objectArrays) add(meta.className(classId), t.count, t.bytes);
    for (const [type, t] of this.primitiveArrays) add(primitiveArrayClassName(type), t.count, t.bytes);
    // Classes are java.lang.Class objects too (jmap -histo counts them); their mirrors are the CLASS_DUMPs.
    if (meta.classDumps.size > 0) add('java.lang.Class', meta.classDumps.size, meta.classDumps.size * classObjectShallowSize(meta, idSize));
    const out: HistogramRow[] = [...rows].map(([name, r]) => ({ className: name, instances: r.instances, shallowBytes: r.shallowBytes }));
    return {
      source,
      format: 'hprof',
      rows: sortHistogramRows(out),
      totalInstances: out.reduce((n, r) => n + r.instances, 0),
      totalBytes: out.reduce((n, r) => n + r.shallowBytes, 0),
      sizeModel: HPROF_SIZE_MODEL,
      warnings,
    };
  }
}

/** `heapDump`: which heap dump of the file to count, from 1 (`--dump N`). */
export async function hprofHistogram(path: string, onProgress?: ProgressListener, heapDump?: number): Promise<Histogram> {
  const meta = new ClassMetadata();
  const tally = new HistogramTally();
  const parser = new HprofParser({
    ...meta.visitor(),
    instanceHeader: (_id, classId) => {
      tally.instance(classId);
      return false;
    },
    objectArrayHeader: (_id, classId, length) => {
      tally.objectArray(classId, length);
      return false;
    },
    primitiveArrayHeader: (_id, type, length) => {
      tally.primitiveArray(type, length);
      return false;
    },
  });
  const fed = await feedHprof(path, parser, { ...(onProgress !== undefined ? { onProgress } : {}), ...(heapDump !== undefined ? { heapDump } : {}) });
  if (parser.header === undefined) throw new HprofFormatError(`the file ends before the HPROF header does`);
  const warnings = parser.warningReport();
  if (fed.truncatedAt !== undefined) warnings.push(truncationWarning(fed));
  return tally.histogram(path, meta, parser.header.idSize, warnings);
}
