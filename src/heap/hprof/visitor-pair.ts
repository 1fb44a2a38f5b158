/**
 * Two readers of one pass over a dump: a visitor that calls both, so the dump is parsed once for
 * both (the heap loader's first pass and the object graph's builder). Each sees exactly the records
 * it would see alone, in the form it asks for: a body either of them wants is read, and handed only
 * to those whose header callback said yes, as field bytes where they lie or as a copy of its own.
 * The second rides on the first: when it throws, it is told no more, `onSecondFailed` hears why, and
 * the first reads on as if alone (a failure of what rides on a load must not fail the load).
 */
import { readId, type HprofVisitor } from './parser.js';

export function visitorPair(first: HprofVisitor, second: HprofVisitor, onSecondFailed: (e: unknown) => void): HprofVisitor {
  let idSize = 8;
  // What each said of the object whose body comes next (the parser asks once per record).
  let firstWants = false;
  let secondWants = false;
  let secondFailed = false;
  const fail = (e: unknown): false => {
    secondFailed = true;
    secondWants = false;
    onSecondFailed(e);
    return false;
  };
  /** Runs a call of the second visitor, unless it has failed; false when it fails now. */
  const toSecond = (call: () => void): void => {
    if (secondFailed) return;
    try {
      call();
    } catch (e) {
      fail(e);
    }
  };
  const asksSecond = (ask: () => boolean | undefined): boolean => {
    if (secondFailed) return false;
    try {
      return ask() === true;
    } catch (e) {
      return fail(e);
    }
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
  const takesInstances = (v: HprofVisitor) => v.instanceFields !== undefined || v.instanceData !== undefined;
  const takesObjectArrays = (v: HprofVisitor) => v.objectArrayElements !== undefined || v.objectArrayData !== undefined;
  const pair: HprofVisitor = {
    header: (h) => {
      idSize = h.idSize;
      first.header?.(h);
      toSecond(() => second.header?.(h));
    },
    instanceHeader: (id, classId, byteLength) => {
      firstWants = first.instanceHeader?.(id, classId, byteLength) === true;
      secondWants = asksSecond(() => second.instanceHeader?.(id, classId, byteLength));
      return firstWants || secondWants;
    },
    objectArrayHeader: (id, classId, length) => {
      firstWants = first.objectArrayHeader?.(id, classId, length) === true;
      secondWants = asksSecond(() => second.objectArrayHeader?.(id, classId, length));
      return firstWants || secondWants;
    },
    primitiveArrayHeader: (id, type, length) => {
      firstWants = first.primitiveArrayHeader?.(id, type, length) === true;
      secondWants = asksSecond(() => second.primitiveArrayHeader?.(id, type, length));
      return firstWants || secondWants;
    },
  };
  const records = ['utf8', 'loadClass', 'classDump', 'root', 'trace', 'frame'] as const;
  for (const name of records) {
    const a = first[name] as ((...args: unknown[]) => void) | undefined;
    const b = second[name] as ((...args: unknown[]) => void) | undefined;
    if (a === undefined && b === undefined) continue;
    (pair as Record<string, unknown>)[name] = (...args: unknown[]) => {
      a?.(...args);
      if (b !== undefined) toSecond(() => b(...args));
    };
  }
  if (takesInstances(first) || takesInstances(second)) {
    pair.instanceFields = (id, classId, view, at, length) => {
      if (firstWants) instanceTo(first, id, classId, view, at, length);
      if (secondWants) toSecond(() => instanceTo(second, id, classId, view, at, length));
    };
  }
  if (takesObjectArrays(first) || takesObjectArrays(second)) {
    pair.objectArrayElements = (id, classId, view, at, length) => {
      if (firstWants) elementsTo(first, id, classId, view, at, length);
      if (secondWants) toSecond(() => elementsTo(second, id, classId, view, at, length));
    };
  }
  if (first.primitiveArrayData !== undefined || second.primitiveArrayData !== undefined) {
    pair.primitiveArrayData = (id, type, data) => {
      if (firstWants) first.primitiveArrayData?.(id, type, data);
      if (secondWants) toSecond(() => second.primitiveArrayData?.(id, type, data));
    };
  }
  return pair;
}
