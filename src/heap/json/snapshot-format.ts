/**
 * dumpsleuth's JSON heap snapshot (`dumpsleuth.heap/1`, documented in docs/heap-snapshot-format.md):
 * how values of each Java type are written, shared by the writer and the reader.
 *
 * Values are written by the type their field declares, so no value needs a tag: references are ids
 * (0 for null), longs are decimal strings (JSON numbers lose precision past 2^53), floats and doubles
 * are numbers or "NaN"/"Infinity"/"-Infinity", chars are UTF-16 code units.
 */
import type { BasicType, HeapValue } from '../heap-model.js';

export const HEAP_SNAPSHOT_FORMAT = 'dumpsleuth.heap/1';

export type JsonValue = null | boolean | number | string;

export function encodeValue(type: BasicType, v: HeapValue): JsonValue {
  switch (type) {
    case 'object':
      return v !== null && typeof v === 'object' ? v.ref : 0;
    case 'long':
      return typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? String(v) : '0';
    case 'float':
    case 'double':
      return typeof v === 'number' && !Number.isFinite(v) ? String(v) : (v as number);
    default:
      return v as JsonValue;
  }
}

export function decodeValue(type: BasicType, j: unknown): HeapValue {
  switch (type) {
    case 'object':
      return typeof j === 'number' && j !== 0 ? { ref: j } : null;
    case 'long':
      return typeof j === 'string' || typeof j === 'number' ? BigInt(j) : 0n;
    case 'float':
    case 'double':
      return typeof j === 'string' ? Number(j) : typeof j === 'number' ? j : 0;
    case 'boolean':
      return j === true;
    default:
      return typeof j === 'number' ? j : 0;
  }
}
