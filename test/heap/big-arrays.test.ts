/**
 * Object arrays too big to hand over whole (over 64 MiB of ids: a map's table of millions of entries)
 * are read all the same: in pieces as their bytes arrive, or gathered whole for a reader of whole
 * arrays, across every chunk boundary of the byte source.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { feedHprof } from '../../src/heap/hprof/byte-source.js';
import { HprofParser, MAX_DELIVERED_BODY } from '../../src/heap/hprof/parser.js';
import { visitorPair } from '../../src/heap/hprof/visitor-pair.js';
import { scratchDir } from '../helpers.js';
import { chainHeap } from './hand-hprof.js';

const NODES = [0x1000, 0x1010, 0x1020, 0x1030];
const LENGTH = MAX_DELIVERED_BODY / 8 + 1000;

describe('object arrays over 64 MiB', { timeout: 120_000 }, () => {
  const file = join(scratchDir('big-arrays'), 'heap.hprof');
  writeFileSync(file, chainHeap(NODES, LENGTH));

  it('a reader of pieces gets every element once, in order, and the objects after the array are read', async () => {
    let next = 0;
    const seen: number[] = [];
    let pieces = 0;
    const parser = new HprofParser({
      objectArrayHeader: () => true,
      objectArrayPiece: (_id, _cls, view, at, count, first, length) => {
        expect(first).toBe(next);
        expect(length).toBe(LENGTH);
        next += count;
        pieces++;
        for (let i = 0; i < count; i++) {
          const hi = view.getUint32(at + 8 * i);
          const lo = view.getUint32(at + 8 * i + 4);
          if (hi !== 0 || lo !== 0) seen.push(first + i, lo);
        }
      },
    });
    await feedHprof(file, parser, {});
    expect(next).toBe(LENGTH);
    expect(pieces).toBeGreaterThan(1);
    expect(seen).toEqual([0, NODES[3], LENGTH - 1, NODES[1]]);
    expect(parser.warningReport()).toEqual([]);
    expect(parser.atRecordBoundary).toBe(true);
  });

  it('a reader of whole arrays gets it gathered, alone and beside a reader of pieces', async () => {
    const whole: Float64Array[] = [];
    const wholeReader = { objectArrayHeader: () => true, objectArrayData: (_id: number, _c: number, e: Float64Array) => void whole.push(e) };
    await feedHprof(file, new HprofParser(wholeReader), {});
    let counted = 0;
    const piecesReader = { objectArrayHeader: () => true, objectArrayPiece: (...a: number[]) => void (counted += a[4]!) };
    await feedHprof(
      file,
      new HprofParser(
        visitorPair(wholeReader, piecesReader as never, (e) => {
          throw e;
        }),
      ),
      {},
    );
    expect(whole).toHaveLength(2);
    for (const e of whole) {
      expect(e.length).toBe(LENGTH);
      expect([e[0], e[1], e[LENGTH - 1]]).toEqual([NODES[3], 0, NODES[1]]);
    }
    expect(counted).toBe(LENGTH);
  });
});
