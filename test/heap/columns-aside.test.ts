/**
 * ColumnsAside on columns of any holder: set aside and taken back as they were; lent as room to a
 * step (the same array, written over) and restored into it; a file that takes no write leaves the
 * column where it was. And the paths walk given such room finds the paths it finds with its own.
 */
import { tmpdir } from 'node:os';

import { describe, expect, test } from 'vitest';

import { ColumnsAside } from '../../src/heap/graph/columns-aside.js';
import { shortestStrongPaths } from '../../src/heap/graph/root-path.js';
import { hprofObjectGraph } from '../../src/heap/hprof/graph/hprof-graph.js';

const holder = () => ({ start: Int32Array.from({ length: 1000 }, (_, i) => i * 7 - 3), sizes: Float64Array.from({ length: 10 }, (_, i) => i / 3) });

describe('ColumnsAside', () => {
  test('columns set aside are empty meanwhile and come back as they were', () => {
    const h = holder();
    const before = structuredClone(h);
    const aside = new ColumnsAside<'start' | 'sizes'>(tmpdir());
    aside.putAside(h, ['start', 'sizes']);
    expect([h.start.length, h.sizes.length]).toEqual([0, 0]);
    aside.takeBack(h);
    aside.close();
    expect(h).toEqual(before);
  });

  test('a lent column is room for the borrower, then restored into the same array', () => {
    const h = holder();
    const original = h.start;
    const copy = Int32Array.from(original);
    const aside = new ColumnsAside<'start'>(tmpdir());
    const room = aside.lend(h, 'start');
    expect(room).toBe(original);
    expect(h.start.length).toBe(0);
    room!.fill(-2);
    aside.restore(h, 'start', room!);
    expect(h.start).toBe(original);
    expect(h.start).toEqual(copy);
    // Given back in another array: an error, not a column silently replaced.
    const again = aside.lend(h, 'start')!;
    expect(() => aside.restore(h, 'start', new Int32Array(again.length + 1))).toThrow(/another array/);
    aside.close();
  });

  test('a file that takes no write lends nothing and leaves the column in place', () => {
    const h = holder();
    const original = h.start;
    const broken = new ColumnsAside<'start'>(tmpdir());
    broken.close();
    expect(broken.lend(h, 'start')).toBeUndefined();
    expect(h.start).toBe(original);
  });
});

describe('shortestStrongPaths with room lent to it', () => {
  test('the same paths as with an array of its own; room too short is not used', async () => {
    const g = await hprofObjectGraph('fixtures/heap/retained/heap.hprof.gz');
    const targets = [...Array(300).keys()].map((k) => (k * 7919) % g.objects);
    const own = shortestStrongPaths(g, targets);
    expect(own.filter((p) => p !== undefined && p.length > 2).length).toBeGreaterThan(10);
    const room = new Int32Array(g.objects + 2).fill(12345);
    expect(shortestStrongPaths(g, targets, room)).toEqual(own);
    expect(room[0]).not.toBe(12345);
    const short = new Int32Array(g.objects - 1).fill(12345);
    expect(shortestStrongPaths(g, targets, short)).toEqual(own);
    expect(short.every((x) => x === 12345)).toBe(true);
  });
});
