/**
 * The sparse index of where objects lie (ObjectIndex): for ids met in a few ascending runs (a
 * parallel dump's, the class dumps first), each object is in one of the blocks blocksFor names, the
 * blocks ascend, and the runs cut anywhere (mid-block, on a boundary) keep it usable; past MAX_RUNS
 * it is not (each lookup would read one block a run). Checked against every object's true block.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { ObjectIndex } from '../../src/heap/hprof/object-index.js';

/** Objects of 24 bytes at distinct ids, in `runs` ascending runs of the given lengths, each run below the last. */
function objectsIn(runLengths: readonly number[]): number[] {
  const ids: number[] = [];
  runLengths.forEach((length, r) => {
    const base = 0x7_0000_0000 + (runLengths.length - r) * 0x1000_0000;
    for (let i = 0; i < length; i++) ids.push(base + 24 * i);
  });
  return ids;
}

function indexOf(ids: readonly number[]): ObjectIndex {
  const index = new ObjectIndex();
  // Each object's "record" starts at 100 times its place in the file.
  ids.forEach((id, i) => index.note(id, { recordOffset: 100 * i, recordSegmentRemaining: 1e9 - 100 * i }));
  return index;
}

describe('ObjectIndex', () => {
  test('every object lies in one of the blocks named for its id, runs cut anywhere', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 8 }), (runLengths) => {
        const ids = objectsIn(runLengths);
        const index = indexOf(ids);
        expect(index.usable).toBe(true);
        ids.forEach((id, i) => {
          const blocks = index.blocksFor(id).map((b) => index.block(b));
          expect(blocks.length).toBeLessThanOrEqual(runLengths.length);
          // The object's record (at 100 * i) is inside one of them.
          expect(
            blocks.some((b) => b.offset <= 100 * i && (b.end === undefined || 100 * i < b.end)),
            `object ${i}`,
          ).toBe(true);
        });
        return true;
      }),
      { numRuns: 60 },
    );
  });

  test('control: more ascending runs than a lookup should read blocks for: not usable', () => {
    expect(indexOf(objectsIn([300, 300, 300, 300, 300, 300, 300, 300, 300])).usable).toBe(false);
    expect(indexOf(objectsIn([300, 300, 300, 300, 300, 300, 300, 300])).usable).toBe(true);
  });
});
