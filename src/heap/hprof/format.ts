/**
 * HPROF constants (HotSpot's heapDumper.cpp format, checked against real dumps; see
 * ../shared/docs/heap-formats.md section 1). All multi-byte fields are big-endian.
 */

import type { BasicType } from '../heap-model.js';

export const TAG = {
  UTF8: 0x01,
  LOAD_CLASS: 0x02,
  UNLOAD_CLASS: 0x03,
  FRAME: 0x04,
  TRACE: 0x05,
  ALLOC_SITES: 0x06,
  HEAP_SUMMARY: 0x07,
  START_THREAD: 0x0a,
  END_THREAD: 0x0b,
  HEAP_DUMP: 0x0c,
  CPU_SAMPLES: 0x0d,
  CONTROL_SETTINGS: 0x0e,
  HEAP_DUMP_SEGMENT: 0x1c,
  HEAP_DUMP_END: 0x2c,
} as const;

export const SUB = {
  ROOT_UNKNOWN: 0xff,
  ROOT_JNI_GLOBAL: 0x01,
  ROOT_JNI_LOCAL: 0x02,
  ROOT_JAVA_FRAME: 0x03,
  ROOT_NATIVE_STACK: 0x04,
  ROOT_STICKY_CLASS: 0x05,
  ROOT_THREAD_BLOCK: 0x06,
  ROOT_MONITOR_USED: 0x07,
  ROOT_THREAD_OBJ: 0x08,
  CLASS_DUMP: 0x20,
  INSTANCE_DUMP: 0x21,
  OBJ_ARRAY_DUMP: 0x22,
  PRIM_ARRAY_DUMP: 0x23,
  // Android / ART (HPROF 1.0.3) extensions; they must be skippable even though HotSpot never writes them.
  ROOT_INTERNED_STRING: 0x89,
  ROOT_FINALIZING: 0x8a,
  ROOT_DEBUGGER: 0x8b,
  ROOT_REFERENCE_CLEANUP: 0x8c,
  ROOT_VM_INTERNAL: 0x8d,
  ROOT_JNI_MONITOR: 0x8e,
  UNREACHABLE: 0x90,
  PRIM_ARRAY_NODATA: 0xc3,
  HEAP_DUMP_INFO: 0xfe,
} as const;

/** Size of a root sub-record after its tag, as a multiple of the id size plus fixed bytes. */
export function rootRecordSize(subTag: number, idSize: number): number {
  switch (subTag) {
    case SUB.ROOT_UNKNOWN:
    case SUB.ROOT_STICKY_CLASS:
    case SUB.ROOT_MONITOR_USED:
    case SUB.ROOT_INTERNED_STRING:
    case SUB.ROOT_FINALIZING:
    case SUB.ROOT_DEBUGGER:
    case SUB.ROOT_REFERENCE_CLEANUP:
    case SUB.ROOT_VM_INTERNAL:
    case SUB.UNREACHABLE:
      return idSize;
    case SUB.ROOT_JNI_GLOBAL:
      return 2 * idSize;
    case SUB.ROOT_JNI_LOCAL:
    case SUB.ROOT_JAVA_FRAME:
    case SUB.ROOT_THREAD_OBJ:
    case SUB.ROOT_JNI_MONITOR:
      return idSize + 8;
    case SUB.ROOT_NATIVE_STACK:
    case SUB.ROOT_THREAD_BLOCK:
    case SUB.HEAP_DUMP_INFO:
      return idSize + 4;
    default:
      return -1;
  }
}

/**
 * HPROF basic type codes: the byte that says what a field, a static or an array element is.
 * ARRAY_OBJECT (1) is in the old hprof agent's type list; HotSpot writes every reference, array or not, as OBJECT (2),
 * but a dump that does use 1 still means a reference, so the readers treat both codes as one (see isReferenceType).
 */
export const HprofType = {
  ARRAY_OBJECT: 1,
  OBJECT: 2,
  BOOLEAN: 4,
  CHAR: 5,
  FLOAT: 6,
  DOUBLE: 7,
  BYTE: 8,
  SHORT: 9,
  INT: 10,
  LONG: 11,
} as const;

/** True when a value of this type code is an object id (a reference), not a primitive. */
export function isReferenceType(code: number): boolean {
  return code === HprofType.OBJECT || code === HprofType.ARRAY_OBJECT;
}

/** The model's name for each HPROF basic type code. */
export const BASIC_TYPES: Readonly<Record<number, BasicType>> = {
  [HprofType.ARRAY_OBJECT]: 'object',
  [HprofType.OBJECT]: 'object',
  [HprofType.BOOLEAN]: 'boolean',
  [HprofType.CHAR]: 'char',
  [HprofType.FLOAT]: 'float',
  [HprofType.DOUBLE]: 'double',
  [HprofType.BYTE]: 'byte',
  [HprofType.SHORT]: 'short',
  [HprofType.INT]: 'int',
  [HprofType.LONG]: 'long',
};

/** An id (an address, up to 2^53) at `at` in an object's data: 4 or 8 bytes, big-endian. */
export function readIdAt(data: Buffer, at: number, idSize: number): number {
  return idSize === 8 ? data.readUInt32BE(at) * 4294967296 + data.readUInt32BE(at + 4) : data.readUInt32BE(at);
}

/** Bytes a value of this type code takes in the file (0 for an unknown code). */
export function basicTypeSize(code: number, idSize: number): number {
  switch (code) {
    case HprofType.ARRAY_OBJECT:
    case HprofType.OBJECT:
      return idSize;
    case HprofType.BOOLEAN:
    case HprofType.BYTE:
      return 1;
    case HprofType.CHAR:
    case HprofType.SHORT:
      return 2;
    case HprofType.FLOAT:
    case HprofType.INT:
      return 4;
    case HprofType.DOUBLE:
    case HprofType.LONG:
      return 8;
    default:
      return 0;
  }
}

/** Java's name for a primitive array class of this element type: `int[]`. */
export function primitiveArrayClassName(code: number): string {
  return `${BASIC_TYPES[code] ?? `type${code}`}[]`;
}

/**
 * Java's way of writing a class name from the JVM's internal form:
 * `java/lang/String` -> `java.lang.String`, `[B` -> `byte[]`, `[[Ljava/lang/Object;` -> `java.lang.Object[][]`.
 */
export function javaClassName(internal: string): string {
  let dims = 0;
  while (internal.charCodeAt(dims) === 91 /* [ */) dims++;
  // Hidden classes (lambdas) are written `Cls$$Lambda$18+0x800000028`; Java and jmap name them `Cls$$Lambda$18/0x800000028`.
  if (dims === 0) return internal.replace(/\//g, '.').replace(/\+(0x[0-9a-fA-F]+)$/, '/$1');
  const rest = internal.slice(dims);
  const base =
    rest.startsWith('L') && rest.endsWith(';')
      ? rest.slice(1, -1).replace(/\//g, '.')
      : (({ Z: 'boolean', C: 'char', F: 'float', D: 'double', B: 'byte', S: 'short', I: 'int', J: 'long' } as Record<string, string>)[rest] ??
        rest.replace(/\//g, '.'));
  return base + '[]'.repeat(dims);
}
