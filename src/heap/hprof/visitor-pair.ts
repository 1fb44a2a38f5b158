/**
 * Two readers of one pass over a dump: a visitor that calls both, so the dump is parsed once for
 * both (the heap loader's first pass and the object graph's builder). Each sees exactly the records
 * it would see alone, in the form it asks for: a body either of them wants is read, and handed only
 * to those whose header callback said yes, as field bytes where they lie or as a copy of its own.
 * The second rides on the first: when it throws, it is told no more, `onSecondFailed` hears why, and
 * the first reads on as if alone (a failure of what rides on a load must not fail the load).
 */
import { ArrayAssembly, type HprofVisitor, MAX_GATHERED_ELEMENTS, readId } from './parser.js';

export function visitorPair(first: HprofVisitor, second: HprofVisitor, onSecondFailed: (e: unknown) => void): HprofVisitor {
  let idSize = 8;
  // What each said of the object whose body comes next (the parser asks once per record).
  let firstWants = false;
  let secondWants = false;
  let secondFailed = false;
  // The second's calls are each wrapped in a try of their own, written out: a closure per call (a
  // helper taking the call) cost about 10 ms on a heap of 200,000 objects.
  const fail = (e: unknown): false => {
    secondFailed = true;
    secondWants = false;
    onSecondFailed(e);
    return false;
  };
  const instanceTo = (v: HprofVisitor, id: number, classId: number, view: DataView, at: number, length: number): void => {
    if (v.instanceFields !== undefined) v.instanceFields(id, classId, view, at, length);
    else v.instanceData?.(id, classId, Buffer.from(view.buffer, view.byteOffset + at, length));
  };
  const elementsTo = (v: HprofVisitor, id: number, classId: number, view: DataView, at: number, length: number): void => {
    if (v.objectArrayElements !== undefined) return v.objectArrayElements(id, classId, view, at, length);
    if (v.objectArrayData === undefined) return;
    const elements = new Float64Array(length);
    for (let i = 0, o = at; i < length; i++, o += idSize) elements[i] = readId(view, o, idSize);
    v.objectArrayData(id, classId, elements);
  };
  /** A header callback asking both: what each said is kept for the body that follows. */
  type Header = (id: number, classOrType: number, size: number) => boolean;
  const header =
    (a: Header | undefined, b: Header | undefined): Header =>
    (id, classOrType, size) => {
      firstWants = a?.call(first, id, classOrType, size) === true;
      secondWants = false;
      if (!secondFailed) {
        try {
          secondWants = b?.call(second, id, classOrType, size) === true;
        } catch (e) {
          fail(e);
        }
      }
      return firstWants || secondWants;
    };
  const takesInstances = (v: HprofVisitor) => v.instanceFields !== undefined || v.instanceData !== undefined;
  const takesObjectArrays = (v: HprofVisitor) => v.objectArrayElements !== undefined || v.objectArrayData !== undefined;
  const pair: HprofVisitor = {
    header: (h) => {
      idSize = h.idSize;
      first.header?.(h);
      if (secondFailed) return;
      try {
        second.header?.(h);
      } catch (e) {
        fail(e);
      }
    },
    instanceHeader: header(first.instanceHeader, second.instanceHeader),
    objectArrayHeader: header(first.objectArrayHeader, second.objectArrayHeader),
    primitiveArrayHeader: header(first.primitiveArrayHeader, second.primitiveArrayHeader),
  };
  const records = ['utf8', 'loadClass', 'classDump', 'root', 'trace', 'frame'] as const;
  for (const name of records) {
    const a = first[name] as ((...args: unknown[]) => void) | undefined;
    const b = second[name] as ((...args: unknown[]) => void) | undefined;
    if (a === undefined && b === undefined) continue;
    (pair as Record<string, unknown>)[name] = (...args: unknown[]) => {
      a?.apply(first, args);
      if (b === undefined || secondFailed) return;
      try {
        b.apply(second, args);
      } catch (e) {
        fail(e);
      }
    };
  }
  /** A body's delivery: to each visitor that asked for it, by `to`, in the form that visitor takes. */
  type Deliver = (v: HprofVisitor, id: number, classId: number, view: DataView, at: number, length: number) => void;
  const bodies =
    (to: Deliver) =>
    (id: number, classId: number, view: DataView, at: number, length: number): void => {
      if (firstWants) to(first, id, classId, view, at, length);
      if (!secondWants) return;
      try {
        to(second, id, classId, view, at, length);
      } catch (e) {
        fail(e);
      }
    };
  if (takesInstances(first) || takesInstances(second)) pair.instanceFields = bodies(instanceTo);
  if (takesObjectArrays(first) || takesObjectArrays(second)) pair.objectArrayElements = bodies(elementsTo);
  const bytesTo = (v: HprofVisitor, id: number, type: number, view: DataView, at: number, length: number): void => {
    if (v.primitiveArrayBytes !== undefined) v.primitiveArrayBytes(id, type, view, at, length);
    else v.primitiveArrayData?.(id, type, Buffer.from(view.buffer, view.byteOffset + at, length));
  };
  const takesPrimitiveArrays = (v: HprofVisitor) => v.primitiveArrayBytes !== undefined || v.primitiveArrayData !== undefined;
  if (takesPrimitiveArrays(first) || takesPrimitiveArrays(second)) pair.primitiveArrayBytes = bodies(bytesTo);
  // A big object array's pieces: to a reader of pieces as they come, gathered whole for one that takes whole arrays.
  const piecesTo = (v: HprofVisitor, gather: ArrayAssembly) =>
    v.objectArrayPiece !== undefined
      ? v.objectArrayPiece.bind(v)
      : v.objectArrayData !== undefined
        ? (id: number, classId: number, view: DataView, at: number, count: number, firstIndex: number, length: number) => {
            if (length > MAX_GATHERED_ELEMENTS) return;
            const whole = gather.piece(view, at, count, firstIndex, length, idSize);
            if (whole !== undefined) v.objectArrayData!(id, classId, whole);
          }
        : undefined;
  const firstPieces = piecesTo(first, new ArrayAssembly());
  const secondPieces = piecesTo(second, new ArrayAssembly());
  if (firstPieces !== undefined || secondPieces !== undefined) {
    pair.objectArrayPiece = (id, classId, view, at, count, firstIndex, length) => {
      if (firstWants) firstPieces?.(id, classId, view, at, count, firstIndex, length);
      if (!secondWants || secondPieces === undefined) return;
      try {
        secondPieces(id, classId, view, at, count, firstIndex, length);
      } catch (e) {
        fail(e);
      }
    };
  }
  return pair;
}
