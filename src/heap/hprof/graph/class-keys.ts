/**
 * The graph's class keys: classNames[key] names the class of every object with that key. Each class
 * id gets a key of its own when its first object is met; its name is filled in after the pass,
 * because a dump may write a class's objects before the records that name it.
 */
import type { ClassMetadata } from '../class-metadata.js';
import { primitiveArrayClassName } from '../format.js';
import { IdSlots } from '../id-slots.js';

export class ClassKeys {
  /** The class name of each key ('' for a class id until nameClassIds). */
  readonly names: string[] = [];
  /** The key of java.lang.Class, which class objects (the class dumps themselves) have. */
  readonly classObjectKey: number;
  private readonly byName = new Map<string, number>();
  private readonly byClassId = new IdSlots(4096);
  private readonly unnamedClassIds: number[] = [];
  // Objects of one class often come in runs: the last answer is kept.
  private lastClassId = -1;
  private lastClassKey = -1;
  // Primitive array classes by element type, looked up once per type rather than per array.
  private readonly primitiveKeys = new Int32Array(32).fill(-1);

  constructor() {
    this.classObjectKey = this.forName('java.lang.Class');
  }

  forName(name: string): number {
    let k = this.byName.get(name);
    if (k === undefined) this.byName.set(name, (k = this.names.push(name) - 1));
    return k;
  }

  forClassId(classId: number): number {
    if (classId === this.lastClassId) return this.lastClassKey;
    let k = this.byClassId.get(classId);
    if (k < 0) {
      k = this.names.push('') - 1;
      this.byClassId.set(classId, k);
      this.unnamedClassIds.push(classId);
    }
    this.lastClassId = classId;
    this.lastClassKey = k;
    return k;
  }

  /** The key of the array class of an HPROF element type (`int[]`). */
  forPrimitiveArray(type: number): number {
    const known = this.primitiveKeys[type]!;
    return known !== -1 ? known : (this.primitiveKeys[type] = this.forName(primitiveArrayClassName(type)));
  }

  /** Names the keys of class ids, once the pass has read every class name. */
  nameClassIds(meta: ClassMetadata): void {
    for (const classId of this.unnamedClassIds) this.names[this.byClassId.get(classId)] = meta.className(classId);
  }
}
