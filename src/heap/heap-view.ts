/**
 * Questions over a loaded heap, whatever it was loaded from: classes by name with their hierarchy,
 * instances of a class, field values resolved through the class hierarchy, statics, arrays and
 * strings. Collection walkers live in collections.ts.
 *
 * Only loaded objects can be answered for. `object(id)` is undefined both for null and for an object
 * the load did not reach; `isLoaded` tells them apart where it matters.
 */
import type { HeapClass, HeapInstance, HeapObject, HeapRef, HeapStore, HeapValue } from './heap-model.js';

export class HeapView {
  private readonly byName = new Map<string, HeapClass[]>();
  private readonly subclasses = new Map<number, number[]>();
  private readonly instancesByClass = new Map<number, HeapObject[]>();
  /** Per class id, where each field name sits in an instance's values (own class first, then up). */
  private readonly layouts = new Map<number, Array<{ declaringClassId: number; name: string; index: number }>>();

  constructor(readonly store: HeapStore) {
    for (const c of store.classes.values()) {
      let list = this.byName.get(c.name);
      if (!list) this.byName.set(c.name, (list = []));
      list.push(c);
      if (c.superId !== 0) {
        let subs = this.subclasses.get(c.superId);
        if (!subs) this.subclasses.set(c.superId, (subs = []));
        subs.push(c.id);
      }
    }
    for (const o of store.objects.values()) {
      const classId = o.kind === 'primitive-array' ? -1 : o.classId;
      let list = this.instancesByClass.get(classId);
      if (!list) this.instancesByClass.set(classId, (list = []));
      list.push(o);
    }
  }

  /** Every class of that name (several class loaders can each load one). */
  classesNamed(name: string): readonly HeapClass[] {
    return this.byName.get(name) ?? [];
  }

  classById(id: number): HeapClass | undefined {
    return this.store.classes.get(id);
  }

  superclass(c: HeapClass): HeapClass | undefined {
    return c.superId === 0 ? undefined : this.store.classes.get(c.superId);
  }

  /** The class and its superclasses, nearest first (cycle-safe against corrupt data). */
  hierarchy(c: HeapClass): HeapClass[] {
    const out: HeapClass[] = [];
    const seen = new Set<number>();
    for (let k: HeapClass | undefined = c; k !== undefined && !seen.has(k.id); k = this.superclass(k)) {
      seen.add(k.id);
      out.push(k);
    }
    return out;
  }

  /** True when the class is `name` or extends it. */
  isA(c: HeapClass, name: string): boolean {
    return this.hierarchy(c).some((k) => k.name === name);
  }

  /** Ids of the classes that extend c, directly or not. */
  subclassIds(classId: number): number[] {
    const out: number[] = [];
    const stack = [...(this.subclasses.get(classId) ?? [])];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
      stack.push(...(this.subclasses.get(id) ?? []));
    }
    return out;
  }

  /** Loaded instances of the named class (and of its subclasses unless told otherwise), in id order. */
  instancesOf(name: string, options: { subclasses?: boolean } = {}): HeapObject[] {
    const ids = new Set<number>();
    for (const c of this.classesNamed(name)) {
      ids.add(c.id);
      if (options.subclasses !== false) for (const s of this.subclassIds(c.id)) ids.add(s);
    }
    const out: HeapObject[] = [];
    for (const id of ids) out.push(...(this.instancesByClass.get(id) ?? []));
    return out.sort((a, b) => a.id - b.id);
  }

  /** True when every instance of the named class was loaded, so an empty answer means none exist. */
  isComplete(name: string): boolean {
    return this.store.completeClasses.has(name);
  }

  object(id: number | HeapRef | HeapValue): HeapObject | undefined {
    const n = typeof id === 'number' ? id : isRef(id) ? id.ref : 0;
    return n === 0 ? undefined : this.store.objects.get(n);
  }

  isLoaded(id: number): boolean {
    return this.store.objects.has(id);
  }

  classOf(o: HeapObject): HeapClass | undefined {
    return o.kind === 'primitive-array' ? undefined : this.store.classes.get(o.classId);
  }

  /** Java name of the object's class (`int[]` for primitive arrays). */
  classNameOf(o: HeapObject): string {
    return o.kind === 'primitive-array' ? `${o.elementType}[]` : (this.classOf(o)?.name ?? `(class 0x${o.classId.toString(16)})`);
  }

  private layout(classId: number): Array<{ declaringClassId: number; name: string; index: number }> {
    let l = this.layouts.get(classId);
    if (l === undefined) {
      l = [];
      const c = this.store.classes.get(classId);
      let index = 0;
      if (c) for (const k of this.hierarchy(c)) for (const f of k.fields) l.push({ declaringClassId: k.id, name: f.name, index: index++ });
      this.layouts.set(classId, l);
    }
    return l;
  }

  /**
   * The value of a field, looked up from the object's own class upwards, so a field that shadows a
   * superclass field of the same name wins; `declaringClass` picks a specific class's field instead.
   * Undefined when the object has no such field (or is not an instance).
   */
  field(o: HeapObject | undefined, name: string, declaringClass?: string): HeapValue | undefined {
    if (o === undefined || o.kind !== 'instance') return undefined;
    for (const slot of this.layout(o.classId)) {
      if (slot.name !== name) continue;
      if (declaringClass !== undefined && this.store.classes.get(slot.declaringClassId)?.name !== declaringClass) continue;
      return o.values[slot.index];
    }
    return undefined;
  }

  /** Every field of an instance with its declaring class, nearest class first. */
  fields(o: HeapInstance): Array<{ declaringClass: string; name: string; value: HeapValue }> {
    return this.layout(o.classId).map((s) => ({
      declaringClass: this.store.classes.get(s.declaringClassId)?.name ?? '?',
      name: s.name,
      value: o.values[s.index] ?? null,
    }));
  }

  /** Follows a reference field: the object it points to, when loaded. */
  follow(o: HeapObject | undefined, name: string, declaringClass?: string): HeapObject | undefined {
    return this.object(this.field(o, name, declaringClass) ?? null);
  }

  /** A static field's value (from the first class of that name that declares it). */
  staticValue(className: string, name: string): HeapValue | undefined {
    for (const c of this.classesNamed(className)) {
      const f = c.statics.find((s) => s.name === name);
      if (f) return f.value;
    }
    return undefined;
  }

  /** Elements of an array as values (references as HeapRef). */
  arrayValues(o: HeapObject): HeapValue[] {
    if (o.kind === 'object-array') return o.elements.map((e) => (e === 0 ? null : { ref: e }));
    if (o.kind === 'primitive-array') return [...o.values];
    return [];
  }

  /** The text of a java.lang.String (JDK 6-8 char[]; JDK 9+ byte[] with its coder), or undefined. */
  string(v: HeapObject | HeapValue | undefined): string | undefined {
    const o = v !== undefined && v !== null && typeof v === 'object' && 'kind' in v ? v : this.object(v ?? null);
    if (o === undefined || o.kind !== 'instance') return undefined;
    const cls = this.classOf(o);
    if (cls?.name !== 'java.lang.String') return undefined;
    const value = this.follow(o, 'value');
    if (value === undefined || value.kind !== 'primitive-array') return undefined;
    if (value.elementType === 'char') {
      // JDK 6 strings may share a char[] and say which part is theirs.
      const offset = this.field(o, 'offset');
      const count = this.field(o, 'count');
      const chars = value.values as number[];
      const from = typeof offset === 'number' ? offset : 0;
      const to = typeof count === 'number' ? from + count : chars.length;
      return charsToString(chars, from, to);
    }
    if (value.elementType === 'byte') {
      const bytes = value.values as number[];
      const coder = this.field(o, 'coder');
      if (coder === 1) return utf16FromBytes(bytes);
      let s = '';
      for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]! & 0xff);
      return s;
    }
    return undefined;
  }
}

export function isRef(v: unknown): v is HeapRef {
  return typeof v === 'object' && v !== null && 'ref' in v;
}

function charsToString(chars: readonly number[], from: number, to: number): string {
  let s = '';
  for (let i = Math.max(0, from); i < Math.min(to, chars.length); i += 4096) {
    s += String.fromCharCode(...chars.slice(i, Math.min(i + 4096, to, chars.length)));
  }
  return s;
}

/**
 * JDK 9+ UTF-16 strings: the dumper copies the byte[] raw, so the code units are in the dumping
 * machine's byte order: little-endian on x86-64 and aarch64, the platforms JVMs run on today.
 */
function utf16FromBytes(bytes: readonly number[]): string {
  const units: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) units.push((bytes[i]! & 0xff) | ((bytes[i + 1]! & 0xff) << 8));
  return charsToString(units, 0, units.length);
}
