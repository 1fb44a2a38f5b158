/** A batch's share of the incidents (src/batch/shard.ts): N shards cover the list once, in its order. */
import { describe, expect, it } from 'vitest';

import { parseShard, shareOf } from '../../src/batch/shard.js';

describe('shards of a batch', () => {
  it('N shards together are the list, each item in one shard, in the list order', () => {
    for (const length of [0, 1, 5, 31, 100])
      for (const n of [1, 2, 3, 7, 40]) {
        const list = Array.from({ length }, (_, i) => `incident-${i}`);
        const shares = Array.from({ length: n }, (_, k) => shareOf(list, { index: k + 1, count: n }));
        expect(shares.flat().sort()).toEqual([...list].sort());
        for (const share of shares) expect(share).toEqual(list.filter((x) => share.includes(x)));
        // As even as can be: no two shards differ by more than one item.
        expect(Math.max(...shares.map((s) => s.length)) - Math.min(...shares.map((s) => s.length))).toBeLessThanOrEqual(1);
      }
  });

  it('reads K/N, and N with K from JOB_COMPLETION_INDEX (from 0)', () => {
    expect(parseShard('2/4', {})).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ', {})).toEqual({ index: 1, count: 1 });
    expect(parseShard('4', { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 4, count: 4 });
    expect(() => parseShard('4', { JOB_COMPLETION_INDEX: '4' })).toThrow(/must be from 1 to 4/);
    expect(() => parseShard('4', { JOB_COMPLETION_INDEX: '-1' })).toThrow(/JOB_COMPLETION_INDEX is "-1"/);
    for (const bad of ['', '1/', '/3', '1/2/3', '2x3', '0/0']) expect(() => parseShard(bad, {}), bad).toThrow(/--shard/);
  });
});
