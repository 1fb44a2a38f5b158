/**
 * Reading plain values out of heap objects the way reconstructors need them: numbers through
 * atomics and boxes, text through Strings and char[], sizes of collections, dotted field paths.
 */
import { atomicValue, collectionElements, mapEntries } from './collections.js';
import type { HeapObject, HeapValue } from './heap-model.js';
import { type HeapView, isRef } from './heap-view.js';

const BOXES = new Set(['java.lang.Integer', 'java.lang.Long', 'java.lang.Short', 'java.lang.Byte', 'java.lang.Double', 'java.lang.Float']);

/** A number from a primitive, a box (Integer, Long, ...), an atomic or a LongAdder; undefined otherwise. */
export function numberOf(view: HeapView, v: HeapValue | HeapObject | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  const o = objectOf(view, v);
  if (o === undefined || o.kind !== 'instance') return undefined;
  const name = view.classNameOf(o);
  if (BOXES.has(name)) return numberOf(view, view.field(o, 'value'));
  const a = atomicValue(view, o);
  if (a === undefined || isRef(a)) return undefined;
  return numberOf(view, a);
}

/** Text from a String, a char[] (JDK 8 thread names), or a boxed number; undefined otherwise. */
export function textOf(view: HeapView, v: HeapValue | HeapObject | undefined): string | undefined {
  const o = objectOf(view, v);
  if (o === undefined) return undefined;
  if (o.kind === 'primitive-array' && o.elementType === 'char') return String.fromCharCode(...(o.values as number[]).slice(0, 65536));
  const s = view.string(o);
  if (s !== undefined) return s;
  const n = numberOf(view, o);
  return n === undefined ? undefined : String(n);
}

/** A java.lang.Thread's name (a String since JDK 9, a char[] before). */
export function threadNameOf(view: HeapView, thread: HeapObject | undefined): string | undefined {
  return textOf(view, view.field(thread, 'name') ?? undefined);
}

/** The size a collection says it has (or the number of elements walked); maps too. */
export function sizeOf(view: HeapView, v: HeapValue | HeapObject | undefined): number | undefined {
  const o = objectOf(view, v);
  if (o === undefined) return undefined;
  if (o.kind !== 'instance') return view.arrayValues(o).length;
  const c = collectionElements(view, o);
  if (c.declaredSize !== undefined) return c.declaredSize;
  if (c.complete) return c.items.length;
  const m = mapEntries(view, o);
  if (m.declaredSize !== undefined) return m.declaredSize;
  return m.complete ? m.items.length : undefined;
}

/** A string-to-string map (URL parameters and the like), read as far as it was loaded. */
export function stringMap(view: HeapView, v: HeapValue | HeapObject | undefined): Map<string, HeapValue> {
  const out = new Map<string, HeapValue>();
  const o = objectOf(view, v);
  if (o === undefined) return out;
  for (const [k, val] of mapEntries(view, o).items) {
    const key = textOf(view, k);
    if (key !== undefined) out.set(key, val);
  }
  return out;
}

/**
 * Follows a dotted path of fields (`pool.connectionBag.waiters`); a last step `size` gives a
 * collection's size. Atomics and boxes along the way are read through.
 */
export function valueAt(view: HeapView, start: HeapObject, path: string): HeapValue | number | undefined {
  let cur: HeapValue | HeapObject | undefined = start;
  const steps = path.split('.').filter((s) => s.length > 0);
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const o = objectOf(view, cur);
    if (o === undefined) return undefined;
    if (step === 'size' && i === steps.length - 1 && view.field(o, 'size') === undefined) return sizeOf(view, o);
    cur = view.field(o, step);
    if (cur === undefined) return undefined;
  }
  return cur === undefined || (typeof cur === 'object' && cur !== null && 'kind' in cur) ? undefined : (cur as HeapValue);
}

function objectOf(view: HeapView, v: HeapValue | HeapObject | undefined): HeapObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && 'kind' in v) return v;
  return isRef(v) ? view.object(v) : undefined;
}

/** `0x` + hex of a heap id, the way tools print object addresses. */
export function hexId(id: number): string {
  return '0x' + id.toString(16);
}
