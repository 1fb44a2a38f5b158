/**
 * HPROF files written by hand, for format edge cases no HotSpot heap of this machine has (ids that
 * are not 8-byte aligned or past 2^38, an object array too big to hand over, a heap that is mostly one
 * byte array): one class `Node { Node next; }`, so the answers are known.
 */
export const u4 = (n: number) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
export const id8 = (n: number) => Buffer.concat([u4(Math.floor(n / 4294967296)), u4(n % 4294967296)]);
export const record = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), u4(0), u4(body.length), body]);

/**
 * A heap of a root node holding a chain of three Node objects, with these four object ids; and, when
 * asked, an Object[] of `arrayLength` elements at id 0x9000 (held by nothing), null but for the first,
 * the last node, and the last, the second node; and a byte[] of `bytesLength` at id 0xa000 (held by nothing).
 */
export function chainHeap(ids: number[], arrayLength = 0, bytesLength = 0): Buffer {
  const CLASS = 0x100;
  const NAME = 1;
  const FIELD = 2;
  const classDump = Buffer.concat([
    Buffer.from([0x20]),
    id8(CLASS),
    u4(0),
    id8(0),
    id8(0),
    id8(0),
    id8(0),
    id8(0),
    id8(0),
    u4(16),
    Buffer.from([0, 0]), // constant pool
    Buffer.from([0, 0]), // statics
    Buffer.from([0, 1]),
    id8(FIELD),
    Buffer.from([2]), // one object field: next
  ]);
  const instance = (id: number, next: number) => Buffer.concat([Buffer.from([0x21]), id8(id), u4(0), id8(CLASS), u4(8), id8(next)]);
  const root = Buffer.concat([Buffer.from([0x01]), id8(ids[0]!), id8(0)]); // JNI global
  const elements = Buffer.alloc(arrayLength * 8);
  if (arrayLength > 1) {
    id8(ids[ids.length - 1]!).copy(elements, 0);
    id8(ids[1]!).copy(elements, (arrayLength - 1) * 8);
  }
  const array = arrayLength > 0 ? [Buffer.from([0x22]), id8(0x9000), u4(0), u4(arrayLength), id8(CLASS), elements] : [];
  const bytes = bytesLength > 0 ? [Buffer.from([0x23]), id8(0xa000), u4(0), u4(bytesLength), Buffer.from([8]), Buffer.alloc(bytesLength)] : [];
  const segment = Buffer.concat([classDump, ...ids.map((id, k) => instance(id, ids[k + 1] ?? 0)), root, ...array, ...bytes]);
  return Buffer.concat([
    Buffer.from('JAVA PROFILE 1.0.2\0'),
    u4(8),
    id8(0),
    record(0x01, Buffer.concat([id8(NAME), Buffer.from('Node')])),
    record(0x01, Buffer.concat([id8(FIELD), Buffer.from('next')])),
    record(0x02, Buffer.concat([u4(1), id8(CLASS), u4(0), id8(NAME)])),
    record(0x1c, segment),
    record(0x2c, Buffer.alloc(0)),
  ]);
}
