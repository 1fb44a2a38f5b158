/**
 * What an HPROF file says about classes before any object: names (UTF8 records), class ids
 * (LOAD_CLASS) and layouts (CLASS_DUMP). Collected by every pass from the parser's callbacks.
 */
import type { HeapClass, HeapStaticField } from '../heap-model.js';
import { BASIC_TYPES, isReferenceType, javaClassName } from './format.js';
import { IdSlots } from './id-slots.js';
import type { ClassDumpRecord, HprofVisitor } from './parser.js';

/**
 * The UTF8 records, kept as bytes and decoded when asked for. A heap holds tens of thousands of them
 * (every symbol: method names, signatures) and an analysis needs a few thousand class and field
 * names, so decoding them all was a fifth of loading a small heap and most of its garbage.
 */
class NameTable {
  private arena = Buffer.allocUnsafe(256 * 1024);
  private used = 0;
  private starts = new Uint32Array(4096);
  private lengths = new Uint32Array(4096);
  private count = 0;
  private readonly slotById = new IdSlots(65536);
  private readonly decoded = new Map<number, string>();

  add(id: number, bytes: Buffer): void {
    if (this.used + bytes.length > this.arena.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + bytes.length));
      this.arena.copy(bigger, 0, 0, this.used);
      this.arena = bigger;
    }
    if (this.count === this.starts.length) {
      const starts = new Uint32Array(this.count * 2);
      starts.set(this.starts);
      this.starts = starts;
      const lengths = new Uint32Array(this.count * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    // Names are short; a loop beats Buffer.copy's per-call cost for them.
    if (bytes.length <= 64) for (let i = 0; i < bytes.length; i++) this.arena[this.used + i] = bytes[i]!;
    else bytes.copy(this.arena, this.used);
    this.starts[this.count] = this.used;
    this.lengths[this.count] = bytes.length;
    this.used += bytes.length;
    this.slotById.set(id, this.count++);
    // A name decoded before its id was written again (a damaged dump) is decoded anew; names are
    // decoded once the UTF8 records are read, so this Map is nearly always empty here.
    if (this.decoded.size > 0) this.decoded.delete(id);
  }

  get(id: number): string | undefined {
    const known = this.decoded.get(id);
    if (known !== undefined) return known;
    const slot = this.slotById.get(id);
    if (slot < 0) return undefined;
    const start = this.starts[slot]!;
    const name = this.arena.toString('utf8', start, start + this.lengths[slot]!);
    this.decoded.set(id, name);
    return name;
  }
}

export class ClassMetadata {
  private readonly names = new NameTable();
  readonly classNameIds = new Map<number, number>();
  /** LOAD_CLASS serial -> class id: stack frames name their class by serial. */
  readonly classIdBySerial = new Map<number, number>();
  readonly classDumps = new Map<number, ClassDumpRecord>();
  private readonly javaNameSlots = new IdSlots();
  private readonly javaNames: string[] = [];

  visitor(): Pick<HprofVisitor, 'utf8' | 'loadClass' | 'classDump'> {
    return {
      utf8: (id, bytes) => this.name(id, bytes),
      loadClass: (serial, classId, nameId) => this.loadClass(serial, classId, nameId),
      classDump: (c) => this.classDumps.set(c.id, c),
    };
  }

  /** A UTF8 record. */
  name(id: number, bytes: Buffer): void {
    this.names.add(id, bytes);
  }

  /** A LOAD_CLASS record. */
  loadClass(serial: number, classId: number, nameId: number): void {
    this.classNameIds.set(classId, nameId);
    this.classIdBySerial.set(serial, classId);
  }

  /** Java form of a class's name, or a placeholder naming its id. Asked for per class many times: remembered. */
  className(classId: number): string {
    const slot = this.javaNameSlots.get(classId);
    if (slot >= 0) return this.javaNames[slot]!;
    const nameId = this.classNameIds.get(classId);
    const name = nameId === undefined ? undefined : this.names.get(nameId);
    const javaName = name === undefined ? `(class 0x${classId.toString(16)})` : javaClassName(name);
    if (name !== undefined) {
      this.javaNameSlots.set(classId, this.javaNames.length);
      this.javaNames.push(javaName);
    }
    return javaName;
  }

  /**
   * The id of the class with this internal name (`java/lang/Class`), if loaded. The old hprof agent
   * writes class names with dots (`java.lang.Class`): the same class, found either way.
   */
  classIdNamed(internalName: string): number | undefined {
    const dotted = internalName.replaceAll('/', '.');
    for (const [classId, nameId] of this.classNameIds) {
      const name = this.names.get(nameId);
      if (name === internalName || name === dotted) return classId;
    }
    return undefined;
  }

  /** A UTF8 record's text (method names, signatures, source files), if the dump has it. */
  symbol(nameId: number): string | undefined {
    return this.names.get(nameId);
  }

  fieldName(nameId: number): string {
    return this.names.get(nameId) ?? `(field 0x${nameId.toString(16)})`;
  }

  /** The classes as the heap model has them. */
  heapClasses(): Map<number, HeapClass> {
    const out = new Map<number, HeapClass>();
    for (const c of this.classDumps.values()) {
      const statics: HeapStaticField[] = c.statics.map((s) => ({
        name: this.fieldName(s.nameId),
        type: BASIC_TYPES[s.type] ?? 'object',
        value: isReferenceType(s.type) && typeof s.value === 'number' ? { ref: s.value } : s.value,
      }));
      out.set(c.id, {
        id: c.id,
        name: this.className(c.id),
        superId: c.superId,
        fields: c.fields.map((f) => ({ name: this.fieldName(f.nameId), type: BASIC_TYPES[f.type] ?? 'object' })),
        statics,
      });
    }
    return out;
  }
}
