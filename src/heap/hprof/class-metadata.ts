/**
 * What an HPROF file says about classes before any object: names (UTF8 records), class ids
 * (LOAD_CLASS) and layouts (CLASS_DUMP). Collected by every pass from the parser's callbacks.
 */
import type { HeapClass, HeapStaticField } from '../heap-model.js';
import { BASIC_TYPES, javaClassName } from './format.js';
import type { ClassDumpRecord, HprofVisitor } from './parser.js';

export class ClassMetadata {
  readonly names = new Map<number, string>();
  readonly classNameIds = new Map<number, number>();
  readonly classDumps = new Map<number, ClassDumpRecord>();

  visitor(): Pick<HprofVisitor, 'utf8' | 'loadClass' | 'classDump'> {
    return {
      utf8: (id, bytes) => this.names.set(id, bytes.toString('utf8')),
      loadClass: (_serial, classId, nameId) => this.classNameIds.set(classId, nameId),
      classDump: (c) => this.classDumps.set(c.id, c),
    };
  }

  /** Java form of a class's name, or a placeholder naming its id. */
  className(classId: number): string {
    const nameId = this.classNameIds.get(classId);
    const name = nameId === undefined ? undefined : this.names.get(nameId);
    return name === undefined ? `(class 0x${classId.toString(16)})` : javaClassName(name);
  }

  /** The id of the class with this internal name (`java/lang/Class`), if loaded. */
  classIdNamed(internalName: string): number | undefined {
    for (const [classId, nameId] of this.classNameIds) if (this.names.get(nameId) === internalName) return classId;
    return undefined;
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
        value: (s.type === 2 || s.type === 1) && typeof s.value === 'number' ? { ref: s.value } : s.value,
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
