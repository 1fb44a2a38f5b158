/**
 * The memory-waste analysis on small heaps built by hand (a HeapStore, no file): the decisions the
 * real-JVM fixtures of memory-waste.test.ts do not reach, each beside its look-alike that must not
 * count: a holder found up a chain of list nodes, JDK 8 strings (char[]) sharing their array, an
 * ArrayList's own array against one two lists share, sparse against merely half-used, boxes of the
 * JDK's cache, zeros of every primitive type against one non-zero element.
 */
import { describe, expect, test } from 'vitest';

import type { BasicType, HeapClass, HeapObject, HeapStore, HeapValue } from '../../src/heap/heap-model.js';
import { HeapView } from '../../src/heap/heap-view.js';
import { isJdkHolder, NO_REFERRER } from '../../src/heap/waste/holders.js';
import { memoryWaste } from '../../src/heap/waste/memory-waste.js';
import type { ShallowSizes } from '../../src/heap/waste/shallow-sizes.js';

/** Builds a store: classes by name with their fields (and superclass), objects by id, each with a shallow size. */
class HandHeap {
  private readonly classes = new Map<number, HeapClass>();
  private readonly ids = new Map<string, number>();
  private readonly objects = new Map<number, HeapObject>();
  private readonly sizes = new Map<number, number>();
  private next = 0x1000;

  cls(name: string, fields: string[], superName = 'java.lang.Object', statics: Array<{ name: string; value: HeapValue }> = []): this {
    const id = this.next++;
    const superId = name === 'java.lang.Object' ? 0 : this.ids.get(superName)!;
    this.ids.set(name, id);
    this.classes.set(id, {
      id,
      name,
      superId,
      fields: fields.map((f) => ({ name: f, type: 'object' as BasicType })),
      statics: statics.map((s) => ({ ...s, type: 'object' as BasicType })),
    });
    return this;
  }

  obj(className: string, values: HeapValue[], size: number): number {
    const id = this.next++;
    this.objects.set(id, { kind: 'instance', id, classId: this.ids.get(className)!, values });
    this.sizes.set(id, size);
    return id;
  }

  arr(className: string, elements: number[], size: number): number {
    const id = this.next++;
    this.objects.set(id, { kind: 'object-array', id, classId: this.ids.get(className)!, elements });
    this.sizes.set(id, size);
    return id;
  }

  prim(elementType: Exclude<BasicType, 'object'>, values: Array<number | bigint | boolean>, size: number): number {
    const id = this.next++;
    this.objects.set(id, { kind: 'primitive-array', id, elementType, values });
    this.sizes.set(id, size);
    return id;
  }

  /** Sets a field of an instance made before the object it is to refer to. */
  set(id: number, index: number, value: HeapValue): void {
    const o = this.objects.get(id);
    if (o?.kind !== 'instance') throw new Error(`0x${id.toString(16)} is not an instance`);
    const values = [...o.values];
    values[index] = value;
    this.objects.set(id, { ...o, values });
  }

  view(): { view: HeapView; sizes: ShallowSizes } {
    const store: HeapStore = {
      source: { path: 'hand', format: 'hprof', hprofVersion: 'JAVA PROFILE 1.0.2', idSize: 8, timestampMs: 0, gzip: false },
      classes: this.classes,
      objects: this.objects,
      completeClasses: new Set(),
      threads: [],
      histogram: undefined,
      warnings: [],
    };
    let heapBytes = 0;
    for (const s of this.sizes.values()) heapBytes += s;
    return { view: new HeapView(store), sizes: { of: (id) => this.sizes.get(id), heapBytes, objects: this.objects.size } };
  }
}

const ref = (id: number): HeapValue => ({ ref: id });

/** The JDK classes the cases use, with their real field names. */
function jdk(h: HandHeap): HandHeap {
  return h
    .cls('java.lang.Object', [])
    .cls('java.lang.Object[]', [])
    .cls('java.lang.String', ['value', 'offset', 'count'])
    .cls('java.lang.Integer', ['value'])
    .cls('java.util.AbstractCollection', [])
    .cls('java.util.AbstractList', [], 'java.util.AbstractCollection')
    .cls('java.util.ArrayList', ['elementData', 'size'], 'java.util.AbstractList')
    .cls('java.util.LinkedList', ['first', 'last', 'size'], 'java.util.AbstractList')
    .cls('java.util.LinkedList$Node', ['item', 'next', 'prev']);
}

describe('memory waste on hand-built heaps', () => {
  test('a holder is the field above the nodes of a list, however deep the element sits', () => {
    const h = jdk(new HandHeap()).cls('com.example.Queue', ['pending']);
    const chars = [...'job'].map((c) => c.charCodeAt(0));
    const strings = [0, 1, 2, 3].map(() => h.obj('java.lang.String', [ref(h.prim('char', chars, 24)), 0, 3], 24));
    // A LinkedList of four nodes, each holding a copy of "job".
    const nodes: number[] = [];
    for (let i = 3; i >= 0; i--) nodes.unshift(h.obj('java.util.LinkedList$Node', [ref(strings[i]!), nodes[0] !== undefined ? ref(nodes[0]) : null, null], 24));
    const list = h.obj('java.util.LinkedList', [ref(nodes[0]!), ref(nodes[3]!), 4], 32);
    h.obj('com.example.Queue', [ref(list)], 16);
    const { view, sizes } = h.view();
    const w = memoryWaste(view, sizes);
    expect(w.duplicateStrings.values).toEqual([
      {
        value: 'job',
        length: 3,
        copies: 4,
        valueArrays: 4,
        wastedBytes: 3 * (24 + 24),
        holders: [{ holder: 'com.example.Queue.pending', objects: 4, wastedBytes: 144, jdk: false }],
      },
    ]);
  });

  test('a doubly linked list met from its far end, and a tree of entries, still lead to their field', () => {
    const h = jdk(new HandHeap()).cls('java.util.TreeMap', ['root', 'size'], 'java.util.AbstractCollection');
    h.cls('java.util.TreeMap$Entry', ['key', 'value', 'left', 'right', 'parent']).cls('com.example.Registry', ['recent', 'byName']);
    const zeros = () => h.prim('int', [0, 0, 0, 0], 32);
    // Nodes made last to first, so each node's lowest referrer is the node after it (a copying GC can leave them so).
    const items = [0, 1, 2, 3, 4].map(() => zeros());
    const nodes = items.map(() => 0);
    for (let i = 4; i >= 0; i--) nodes[i] = h.obj('java.util.LinkedList$Node', [ref(items[i]!), null, null], 24);
    nodes.forEach((n, i) => {
      if (i < 4) h.set(n, 1, ref(nodes[i + 1]!));
      if (i > 0) h.set(n, 2, ref(nodes[i - 1]!));
    });
    const list = h.obj('java.util.LinkedList', [ref(nodes[0]!), ref(nodes[4]!), 5], 32);
    // A tree: the root's children refer back to it by `parent`, the leaves' values are zero arrays.
    const leafValues = [zeros(), zeros()];
    const root = h.obj('java.util.TreeMap$Entry', [null, null, null, null, null], 40);
    const left = h.obj('java.util.TreeMap$Entry', [null, ref(leafValues[0]!), null, null, ref(root)], 40);
    const right = h.obj('java.util.TreeMap$Entry', [null, ref(leafValues[1]!), null, null, ref(root)], 40);
    h.set(root, 2, ref(left));
    h.set(root, 3, ref(right));
    const tree = h.obj('java.util.TreeMap', [ref(root), 3], 48);
    h.obj('com.example.Registry', [ref(list), ref(tree)], 16);
    const { view, sizes } = h.view();
    const z = memoryWaste(view, sizes).zeroArrays;
    expect(z.holders).toEqual([
      { holder: 'com.example.Registry.recent', objects: 5, wastedBytes: 160, jdk: false },
      { holder: 'com.example.Registry.byName', objects: 2, wastedBytes: 64, jdk: false },
    ]);
  });

  test('JDK 8 strings sharing one char[] save only their String objects; a String nothing loaded refers to has no holder', () => {
    const h = jdk(new HandHeap());
    const shared = h.prim(
      'char',
      [...'abcdef'].map((c) => c.charCodeAt(0)),
      32,
    );
    // "abc" twice over one array (offset 0), and "def" from the same array (offset 3): not a copy of "abc".
    h.obj('java.lang.String', [ref(shared), 0, 3], 32);
    h.obj('java.lang.String', [ref(shared), 0, 3], 32);
    h.obj('java.lang.String', [ref(shared), 3, 3], 32);
    const { view, sizes } = h.view();
    const d = memoryWaste(view, sizes).duplicateStrings;
    expect(d).toMatchObject({ strings: 3, distinctValues: 2, valuesHeldMoreThanOnce: 1, extraCopies: 1, wastedBytes: 32 });
    expect(d.values[0]).toMatchObject({ value: 'abc', copies: 2, valueArrays: 1, holders: [{ holder: NO_REFERRER, objects: 2 }] });
  });

  test('an empty ArrayList counts its own array, not one it shares; sparse is a big table at most a quarter used', () => {
    const h = jdk(new HandHeap()).cls('com.example.Owner', ['own', 'sharedA', 'sharedB', 'sparse', 'half']);
    const item = h.obj('java.lang.Object', [], 16);
    const own = h.obj('java.util.ArrayList', [ref(h.arr('java.lang.Object[]', Array(10).fill(0), 56)), 0], 24);
    const sharedArray = h.arr('java.lang.Object[]', Array(10).fill(0), 56);
    const sharedA = h.obj('java.util.ArrayList', [ref(sharedArray), 0], 24);
    const sharedB = h.obj('java.util.ArrayList', [ref(sharedArray), 0], 24);
    const sparse = h.obj('java.util.ArrayList', [ref(h.arr('java.lang.Object[]', [item, item, ...Array(98).fill(0)], 416)), 2], 24);
    const half = h.obj('java.util.ArrayList', [ref(h.arr('java.lang.Object[]', [...Array(30).fill(item), ...Array(70).fill(0)], 416)), 30], 24);
    h.obj('com.example.Owner', [own, sharedA, sharedB, sparse, half].map(ref), 32);
    const { view, sizes } = h.view();
    const w = memoryWaste(view, sizes);
    const group = (holder: string) => w.emptyCollections.groups.find((g) => g.holder === holder);
    expect(group('com.example.Owner.own')).toMatchObject({ count: 1, wastedBytes: 24 + 56, slots: 10 });
    expect(group('com.example.Owner.sharedA')).toMatchObject({ count: 1, wastedBytes: 24, slots: 0 });
    expect(group('com.example.Owner.sharedB')).toMatchObject({ count: 1, wastedBytes: 24, slots: 0 });
    expect(w.sparseCollections.groups).toEqual([
      {
        className: 'java.util.ArrayList',
        holder: 'com.example.Owner.sparse',
        jdk: false,
        count: 1,
        entries: 2,
        slots: 100,
        fillRatio: 0.02,
        wastedBytes: Math.round((416 * 98) / 100),
      },
    ]);
  });

  test("boxes of the JDK's cache are said apart; a box in two lists counts once", () => {
    const h = jdk(new HandHeap());
    const cached = h.obj('java.lang.Integer', [7], 16);
    const own = h.obj('java.lang.Integer', [100_000], 16);
    const cacheArray = h.arr('java.lang.Object[]', [cached], 24);
    h.cls('java.lang.Integer$IntegerCache', [], 'java.lang.Object', [{ name: 'cache', value: ref(cacheArray) }]);
    const listA = h.obj('java.util.ArrayList', [ref(h.arr('java.lang.Object[]', [cached, own], 24)), 2], 24);
    const listB = h.obj('java.util.ArrayList', [ref(h.arr('java.lang.Object[]', [own], 24)), 1], 24);
    h.cls('com.example.Stats', [], 'java.lang.Object', [
      { name: 'A', value: ref(listA) },
      { name: 'B', value: ref(listB) },
    ]);
    const { view, sizes } = h.view();
    const b = memoryWaste(view, sizes).boxedInCollections;
    expect(b).toMatchObject({ count: 1, wastedBytes: 16 - 4, inJdkCaches: 1 });
    expect(b.groups).toEqual([
      {
        holder: 'com.example.Stats.A (static)',
        jdk: false,
        collectionClass: 'java.util.ArrayList',
        boxedClass: 'java.lang.Integer',
        count: 1,
        wastedBytes: 12,
      },
    ]);
  });

  test('zeros of every primitive type count; one non-zero element, or no element, does not', () => {
    const h = jdk(new HandHeap());
    h.prim('boolean', [false, false], 24);
    h.prim('long', [0n, 0n, 0n], 40);
    h.prim('double', [0, 0], 32);
    h.prim('float', [0, 0, 1.5], 32);
    h.prim('byte', [], 16);
    const { view, sizes } = h.view();
    const z = memoryWaste(view, sizes).zeroArrays;
    expect(z).toMatchObject({ count: 3, wastedBytes: 24 + 40 + 32 });
    expect(z.byShape.map((s) => s.shape).sort()).toEqual(['boolean[2]', 'double[2]', 'long[3]']);
  });

  test("a class's constant pool holds the interned literal: its holder is the JVM's", () => {
    expect(isJdkHolder('com.example.Main.<resolved_references> (static)')).toBe(true);
    expect(isJdkHolder('java.lang.invoke.MemberName.name')).toBe(true);
    expect(isJdkHolder('com.example.Main.NAMES (static)')).toBe(false);
    expect(isJdkHolder(NO_REFERRER)).toBe(false);
  });
});
