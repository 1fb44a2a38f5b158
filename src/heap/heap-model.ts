/**
 * The in-memory heap that every source loads into: the classes of the dump, and the objects that
 * were loaded (the instances of the classes the analyses ask for, and what those reach, to a bounded
 * depth). HPROF files, dumpsleuth's JSON heap snapshot and tests all produce a HeapStore; HeapView
 * answers questions over it.
 */
import type { MemorySummary } from '../model/memory.js';
import type { Histogram } from './histogram.js';

export type BasicType = 'object' | 'boolean' | 'char' | 'float' | 'double' | 'byte' | 'short' | 'int' | 'long';

/** A reference to another object, by heap id. */
export interface HeapRef {
  readonly ref: number;
}

/** A field or element value: null, a primitive (long as bigint, char as its UTF-16 code unit), or a reference. */
export type HeapValue = null | boolean | number | bigint | HeapRef;

interface HeapField {
  readonly name: string;
  readonly type: BasicType;
}

export interface HeapStaticField extends HeapField {
  readonly value: HeapValue;
}

export interface HeapClass {
  readonly id: number;
  /** Java form: `java.util.HashMap$Node`, `int[]`, `java.lang.Object[]`. */
  readonly name: string;
  /** 0 for java.lang.Object. */
  readonly superId: number;
  /** Declared instance fields, in the dump's order (not the source order). */
  readonly fields: readonly HeapField[];
  readonly statics: readonly HeapStaticField[];
}

export interface HeapInstance {
  readonly kind: 'instance';
  readonly id: number;
  readonly classId: number;
  /** Values of every instance field: the object's own class's fields first, then its superclass's, and so on up. */
  readonly values: readonly HeapValue[];
}

interface HeapObjectArray {
  readonly kind: 'object-array';
  readonly id: number;
  readonly classId: number;
  /** Element ids; 0 is null. */
  readonly elements: readonly number[];
}

interface HeapPrimitiveArray {
  readonly kind: 'primitive-array';
  readonly id: number;
  readonly elementType: Exclude<BasicType, 'object'>;
  readonly values: ReadonlyArray<number | bigint | boolean>;
}

export type HeapObject = HeapInstance | HeapObjectArray | HeapPrimitiveArray;

interface HeapSourceInfo {
  readonly path: string;
  /** `hprof` or `dumpsleuth-heap` (an extract), with the HPROF version and id size it came from. */
  readonly format: 'hprof' | 'dumpsleuth-heap';
  readonly hprofVersion: string;
  readonly idSize: 4 | 8;
  readonly timestampMs: number;
  readonly gzip: boolean;
}

export interface HeapThreadRoot {
  readonly objectId: number;
  readonly threadSerial: number;
  /**
   * The thread's stack as the dump recorded it (HPROF TRACE and FRAME records), top first, each frame
   * written as a thread dump writes it: `java.lang.Thread.sleep(Native Method)`. Absent when the dump
   * has no trace for the thread; HotSpot writes one per live thread, without lock lines.
   */
  readonly frames?: readonly string[];
}

export interface HeapStore {
  readonly source: HeapSourceInfo;
  readonly classes: ReadonlyMap<number, HeapClass>;
  readonly objects: ReadonlyMap<number, HeapObject>;
  /** Class names whose instances were all loaded (the plan's roots): for them, "not found" means "not there". */
  readonly completeClasses: ReadonlySet<string>;
  /** Threads as GC roots: thread object id and the serial HPROF stack traces use. */
  readonly threads: ReadonlyArray<HeapThreadRoot>;
  readonly histogram: Histogram | undefined;
  /** What holds the memory, when an extract carries it (computed from the HPROF it came from). */
  readonly memory?: MemorySummary;
  readonly warnings: readonly string[];
  /** Why the dump was not read whole (it ends mid-record, a size limit stopped it); also among the warnings. */
  readonly cut?: string;
}
