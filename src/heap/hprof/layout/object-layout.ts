/**
 * The object layout of the JVM that wrote a dump, and the shallow sizes it gives objects. HPROF
 * records no layout, so it is told from the dump itself, as `jmap -histo` of that JVM would size its
 * objects:
 * - the identifier size: 4 bytes is a 32-bit JVM (8-byte header, 4-byte references);
 * - how closely objects sit in memory (see LayoutEvidence): the array header, compressed references,
 *   the object alignment;
 * - the JDK generation, from classes and fields that exist only from some release on: how HotSpot
 *   places fields (up to JDK 14 each class's fields after its superclass's, from a reference boundary;
 *   from JDK 15 in the holes a superclass left), whether class objects hold the static fields (from
 *   JDK 7), and which hidden fields it adds (see hidden-fields.ts).
 */
import type { ClassMetadata } from '../class-metadata.js';
import { basicTypeSize, isReferenceType } from '../format.js';
import type { ClassDumpRecord } from '../parser.js';
import { CONTENDED_PADDING_BYTES, HIDDEN_FIELD_ROWS, type HiddenFieldRow, type InjectedKind } from './hidden-fields.js';
import type { LayoutEvidence } from './layout-evidence.js';

/** How HotSpot places a class's fields: after its superclass's (up to JDK 14), or in their holes (from JDK 15). */
type FieldPlacement = 'by-class' | 'fill-holes';

export interface ObjectLayout {
  /** A native pointer: 8 bytes on a 64-bit JVM, 4 on a 32-bit one. */
  readonly wordBytes: number;
  readonly referenceBytes: number;
  /** Where an instance's first field may go: the mark word and the class pointer. */
  readonly headerBytes: number;
  /** Where a byte array's elements start (the header and the length); wider elements start at the next multiple of their size. */
  readonly arrayBaseBytes: number;
  readonly alignment: number;
  readonly placement: FieldPlacement;
  /** Whether a class object holds its class's static fields (from JDK 7). */
  readonly staticsInClassObject: boolean;
  /** One line for people: the layout assumed. */
  readonly summary: string;
  /** Why each part of it was assumed. */
  readonly reasons: readonly string[];
}

/** Measurements below this many are too few to say anything. */
const MIN_MEASURED = 16;
/** Array base offsets HotSpot has had: 12 (32-bit, compact headers), 16 (compressed class pointers), 20 and 24 (wide class pointers). */
const KNOWN_ARRAY_BASES = new Set([12, 16, 20, 24]);

const alignUp = (n: number, a: number) => Math.ceil(n / a) * a;

/** Whether the dump's class of this name declares a field of this name. */
function declares(meta: ClassMetadata, className: string, fieldName: string): boolean {
  const id = meta.classIdNamed(className);
  const c = id === undefined ? undefined : meta.classDumps.get(id);
  return c !== undefined && c.fields.some((f) => meta.fieldName(f.nameId) === fieldName);
}

const hasClass = (meta: ClassMetadata, name: string) => meta.classIdNamed(name) !== undefined;

/** The JDK generation, as far as the dump's classes tell it, with the reason. */
function generation(meta: ClassMetadata): { placement: FieldPlacement; staticsInClassObject: boolean; name: string; reason: string } {
  if (declares(meta, 'java/lang/Class', 'classData'))
    return {
      placement: 'fill-holes',
      staticsInClassObject: true,
      name: 'JDK 15 and later',
      reason: 'java.lang.Class declares classData (JDK 15 and later): fields fill the holes their superclasses left',
    };
  if (hasClass(meta, 'java/lang/AutoCloseable'))
    return {
      placement: 'by-class',
      staticsInClassObject: true,
      name: 'JDK 7 to 14',
      reason: "java.lang.AutoCloseable is there and java.lang.Class has no classData (JDK 7 to 14): each class's fields follow its superclass's",
    };
  if (hasClass(meta, 'java/lang/Object'))
    return {
      placement: 'by-class',
      staticsInClassObject: false,
      name: 'JDK 6 or older',
      reason: "no java.lang.AutoCloseable (JDK 6 or older): each class's fields follow its superclass's, and statics are not in class objects",
    };
  return {
    placement: 'fill-holes',
    staticsInClassObject: true,
    name: 'JDK 15 and later',
    reason: "no JDK classes tell the JVM's release: fields placed as JDK 15 and later place them",
  };
}

/** The layout of the JVM that wrote the dump: see the module comment. */
export function chooseLayout(idSize: number, evidence: LayoutEvidence | undefined, meta: ClassMetadata): ObjectLayout {
  const reasons: string[] = [];
  const jdk = generation(meta);
  const addresses = evidence !== undefined && evidence.objects >= MIN_MEASURED && evidence.impossibleDistances === 0 && evidence.sharedAlignment() >= 8;
  if (evidence !== undefined && evidence.objects >= MIN_MEASURED && !addresses)
    reasons.push('the object ids are not addresses (objects closer than 8 bytes or ids not 8-aligned): nothing measured from them');

  const wordBytes = idSize === 4 ? 4 : 8;
  let referenceBytes: number;
  if (idSize === 4) {
    referenceBytes = 4;
    reasons.push('4-byte identifiers: a 32-bit JVM (4-byte references and class pointers)');
  } else if (addresses && evidence.objectArraysMeasured >= MIN_MEASURED) {
    referenceBytes = evidence.packedObjectArrays > 0 ? 4 : 8;
    reasons.push(
      evidence.packedObjectArrays > 0
        ? `${evidence.packedObjectArrays} of ${evidence.objectArraysMeasured} object arrays measured sit closer than 8 bytes per element: compressed references`
        : `none of ${evidence.objectArraysMeasured} object arrays measured sits closer than 8 bytes per element: 8-byte references`,
    );
  } else {
    referenceBytes = 4;
    reasons.push('too few object arrays to measure: compressed references assumed, as a 64-bit JVM uses them for heaps under 32 GB');
  }

  let arrayBaseBytes: number;
  const measuredBase = addresses && evidence.byteArraysMeasured >= MIN_MEASURED ? evidence.byteArrayBase : undefined;
  if (measuredBase !== undefined && KNOWN_ARRAY_BASES.has(measuredBase) && (referenceBytes === 4 || measuredBase >= 16)) {
    arrayBaseBytes = measuredBase;
    reasons.push(`byte arrays measured: their elements start ${measuredBase} bytes in`);
  } else {
    arrayBaseBytes = idSize === 4 ? 12 : referenceBytes === 4 || jdk.placement === 'fill-holes' ? 16 : 24;
    reasons.push(`byte arrays' elements taken to start ${arrayBaseBytes} bytes in (too few measured)`);
  }
  const headerBytes = arrayBaseBytes >= 20 ? 16 : arrayBaseBytes - 4;

  let alignment = 8;
  if (addresses && evidence.sharedAlignment() > 8) {
    alignment = evidence.sharedAlignment();
    reasons.push(`every object id is a multiple of ${alignment}: objects aligned to ${alignment} bytes`);
  }
  reasons.push(jdk.reason);

  const bits = wordBytes === 4 ? '32-bit' : '64-bit';
  const refs = referenceBytes === 4 && wordBytes === 8 ? 'compressed references' : `${referenceBytes}-byte references`;
  const summary =
    `${bits} HotSpot, ${refs}, ${headerBytes}-byte object header (${arrayBaseBytes} for arrays), ${alignment}-byte alignment, ` +
    `fields placed as ${jdk.name}`;
  const { placement, staticsInClassObject } = jdk;
  return { wordBytes, referenceBytes, headerBytes, arrayBaseBytes, alignment, placement, staticsInClassObject, summary, reasons };
}

/** A field to place: its size and alignment in bytes. */
interface Slot {
  readonly size: number;
}

/** A class level's fields to place, the hidden ones included. */
interface LevelFields {
  readonly primitive: Slot[];
  readonly references: number;
  readonly contended: Slot[][];
  /** Placed in HotSpot's fixed order up to JDK 14 (see HiddenFieldRow.referencesFirst). */
  readonly referencesFirst: boolean;
}

/**
 * Shallow sizes under one layout. Instance sizes are worked out once per class, as HotSpot places
 * the fields of each class of the chain in turn.
 */
export class ObjectSizes {
  private readonly instanceSizes = new Map<number, number>();
  private readonly rowsByClass = new Map<number, HiddenFieldRow[]>();

  constructor(
    readonly layout: ObjectLayout,
    private readonly meta: ClassMetadata,
  ) {
    for (const row of HIDDEN_FIELD_ROWS) {
      const id = meta.classIdNamed(row.className);
      if (id === undefined || !this.holds(row)) continue;
      const rows = this.rowsByClass.get(id) ?? [];
      rows.push(row);
      this.rowsByClass.set(id, rows);
    }
  }

  /** Bytes of an array of `length` elements of `elementBytes` each. */
  array(elementBytes: number, length: number): number {
    const base = alignUp(this.layout.arrayBaseBytes, Math.min(elementBytes, 8));
    return alignUp(base + elementBytes * length, this.layout.alignment);
  }

  objectArray(length: number): number {
    return this.array(this.layout.referenceBytes, length);
  }

  primitiveArray(type: number, length: number): number {
    return this.array(basicTypeSize(type, 8), length);
  }

  /** Bytes of an instance of the class; a bare header when the dump has no class dump for it. */
  instance(classId: number): number {
    let size = this.instanceSizes.get(classId);
    if (size === undefined) {
      size = alignUp(this.fieldsEnd(classId), this.layout.alignment);
      this.instanceSizes.set(classId, size);
    }
    return size;
  }

  /**
   * Bytes of a class object (a java.lang.Class instance): from JDK 7 on, HotSpot keeps a class's static
   * fields in it, after java.lang.Class's own fields.
   */
  classObject(c: ClassDumpRecord): number {
    const classClass = this.meta.classIdNamed('java/lang/Class');
    const classFieldsEnd = classClass !== undefined ? this.fieldsEnd(classClass) : this.layout.headerBytes + 10 * this.layout.referenceBytes;
    if (!this.layout.staticsInClassObject) return alignUp(classFieldsEnd, this.layout.alignment);
    const primitive: Slot[] = [];
    let references = 0;
    for (const s of c.statics) {
      // The heap dumper adds statics a class object does not hold: the constant pool's `<resolved_references>` and the `<init_lock>` (JDK 8: `init_lock`).
      const name = this.meta.fieldName(s.nameId);
      if (name.startsWith('<') || name === 'init_lock') continue;
      if (isReferenceType(s.type)) references++;
      else if (basicTypeSize(s.type, 8) > 0) primitive.push({ size: basicTypeSize(s.type, 8) });
    }
    const statics: LevelFields = { primitive, references, contended: [], referencesFirst: true };
    // The statics start where an instance of java.lang.Class would end.
    const start = { ...this.layout, headerBytes: alignUp(classFieldsEnd, this.layout.alignment) };
    // Static references come first, in one run (the collector visits them as one block), then the
    // primitives from the widest, no hole filled (measured: fixtures/heap/layouts, JDK 8 to 25).
    const end = byLevel([statics], start);
    return alignUp(end, this.layout.alignment);
  }

  private holds(row: HiddenFieldRow): boolean {
    const w = row.when;
    if (w === undefined) return true;
    if (w.hasClass !== undefined && !hasClass(this.meta, w.hasClass)) return false;
    if (w.lacksClass !== undefined && hasClass(this.meta, w.lacksClass)) return false;
    if (w.hasField !== undefined && !declares(this.meta, row.className, w.hasField)) return false;
    if (w.lacksField !== undefined && declares(this.meta, row.className, w.lacksField)) return false;
    return true;
  }

  /** The class chain from java.lang.Object down to the class (as far as the dump has class dumps). */
  private chain(classId: number): ClassDumpRecord[] {
    const chain: ClassDumpRecord[] = [];
    const seen = new Set<number>();
    for (let c = this.meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = this.meta.classDumps.get(c.superId)) {
      seen.add(c.id);
      chain.push(c);
    }
    return chain.reverse();
  }

  private levelFields(c: ClassDumpRecord): LevelFields {
    const rows = this.rowsByClass.get(c.id) ?? [];
    const contendedNames = new Set(rows.flatMap((r) => r.contendedGroup ?? []));
    const primitive: Slot[] = [];
    const group: Slot[] = [];
    let references = 0;
    for (const f of c.fields) {
      const ref = isReferenceType(f.type);
      const slot = { size: ref ? this.layout.referenceBytes : basicTypeSize(f.type, 8) };
      if (slot.size === 0) continue; // a type HPROF lacks (the parser warned)
      if (contendedNames.size > 0 && contendedNames.has(this.meta.fieldName(f.nameId))) group.push(slot);
      else if (ref) references++;
      else primitive.push(slot);
    }
    for (const row of rows)
      for (const kind of row.injected ?? []) {
        if (kind === 'reference') references++;
        else primitive.push({ size: injectedBytes(kind, this.layout.wordBytes) });
      }
    return { primitive, references, contended: group.length > 0 ? [group] : [], referencesFirst: rows.some((r) => r.referencesFirst === true) };
  }

  /** Where the last field of an instance of the class ends. */
  private fieldsEnd(classId: number): number {
    const levels = this.chain(classId).map((c) => this.levelFields(c));
    return this.layout.placement === 'fill-holes' ? fillHoles(levels, this.layout) : byLevel(levels, this.layout);
  }
}

const INJECTED_BYTES: Readonly<Record<Exclude<InjectedKind, 'word' | 'reference'>, number>> = { long: 8, int: 4, short: 2, boolean: 1 };

function injectedBytes(kind: Exclude<InjectedKind, 'reference'>, wordBytes: number): number {
  return kind === 'word' ? wordBytes : INJECTED_BYTES[kind];
}

/**
 * HotSpot up to JDK 14: each class's fields start where its superclass's ended, rounded up to a
 * reference (measured on JDK 6, 8 and 11); longs and doubles first at an 8-byte boundary, the gap before them
 * filled with one int, else shorts and bytes, else one compressed reference; then ints, shorts, bytes,
 * and the references last; a @Contended group after them, padded on both sides.
 */
function byLevel(levels: readonly LevelFields[], layout: ObjectLayout): number {
  const R = layout.referenceBytes;
  let end = layout.headerBytes;
  for (const level of levels) {
    const count = (size: number) => level.primitive.filter((s) => s.size === size).length;
    const n8 = count(8);
    let n4 = count(4);
    let n2 = count(2);
    let n1 = count(1);
    let refs = level.references;
    if (n8 + n4 + n2 + n1 + refs + level.contended.length === 0) continue;
    let at = end;
    if (level.referencesFirst) {
      at += refs * R;
      refs = 0;
      if (n8 > 0) at = alignUp(at, 8);
    } else if (n8 > 0 && at % 8 !== 0) {
      let gap = alignUp(at, 8) - at;
      if (n4 > 0 && gap >= 4) {
        n4--;
        gap -= 4;
      }
      while (gap >= 2 && n2 > 0) {
        n2--;
        gap -= 2;
      }
      while (gap >= 1 && n1 > 0) {
        n1--;
        gap -= 1;
      }
      if (gap >= R && refs > 0) refs--;
      at = alignUp(at, 8);
    }
    at += 8 * n8 + 4 * n4 + 2 * n2 + n1;
    if (refs > 0) at = alignUp(at, R) + refs * R;
    for (const group of level.contended) at = placeContended(at, group, R);
    end = alignUp(at, R);
  }
  return end;
}

/** A @Contended group at `at`: padding, the group's fields from the widest, padding. */
function placeContended(at: number, group: readonly Slot[], referenceBytes: number): number {
  let end = at + CONTENDED_PADDING_BYTES;
  for (const s of [...group].sort((a, b) => b.size - a.size)) end = alignUp(end, Math.min(s.size, 8)) + s.size;
  return alignUp(end, referenceBytes) + CONTENDED_PADDING_BYTES;
}

/**
 * HotSpot from JDK 15: a class's primitive fields, widest first, then its references, each go into the
 * smallest hole left so far (by the header, by alignment, by a superclass) that holds it at its
 * alignment, else at the end; a @Contended group goes after everything, padded on both sides, and
 * the holes before it are no longer filled.
 */
function fillHoles(levels: readonly LevelFields[], layout: ObjectLayout): number {
  const holes: Array<{ at: number; size: number }> = [];
  let end = layout.headerBytes;
  let sealed = false;
  const place = (size: number, align: number) => {
    let best = -1;
    if (!sealed)
      for (let i = 0; i < holes.length; i++) {
        const h = holes[i]!;
        const start = alignUp(h.at, align);
        if (start + size <= h.at + h.size && (best < 0 || h.size < holes[best]!.size)) best = i;
      }
    if (best >= 0) {
      const h = holes[best]!;
      const start = alignUp(h.at, align);
      const after = { at: start + size, size: h.at + h.size - start - size };
      const before = { at: h.at, size: start - h.at };
      holes.splice(best, 1, ...[before, after].filter((x) => x.size > 0));
      return;
    }
    const start = alignUp(end, align);
    if (start > end) holes.push({ at: end, size: start - end });
    end = start + size;
  };
  for (const level of levels) {
    for (const s of [...level.primitive].sort((a, b) => b.size - a.size)) place(s.size, s.size);
    for (let i = 0; i < level.references; i++) place(layout.referenceBytes, layout.referenceBytes);
    for (const group of level.contended) {
      end = placeContended(end, group, layout.referenceBytes);
      sealed = true;
    }
  }
  return end;
}
