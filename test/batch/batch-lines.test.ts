/**
 * Batch lines read back and joined (`batch --summary`): lines of a sharded sweep go back to their
 * places, whatever the order of the files; what is not a batch line, an incident or a place of the
 * sweep in two lines, and lines of different sweeps are errors; incidents with no line (a shard lost
 * in the middle or at the end, every file empty) make the join incomplete, and say so. Plain batch
 * outputs keep the order given; redacted lines are not compared by path.
 */
import { describe, expect, test } from 'vitest';

import { joinBatchLines, readBatchLines } from '../../src/batch/batch-lines.js';
import type { IncidentLine } from '../../src/batch/incident-summary.js';
import { InputError } from '../../src/errors.js';

function line(path: string, shard?: { index: number; count: number; position: number; total: number }): IncidentLine {
  return {
    path,
    status: 'ok',
    inputs: 1,
    counts: { info: 0, warning: 1, error: 0, critical: 0 },
    highest: 'warning',
    findings: [],
    seconds: 0.5,
    ...(shard !== undefined ? { shard } : {}),
  };
}

/** The lines of a sweep of `n` incidents cut in `count` shards, as batch --shard K/N writes them. */
function shards(n: number, count: number): IncidentLine[][] {
  return Array.from({ length: count }, (_, k) =>
    Array.from({ length: n }, (_, i) => i)
      .filter((i) => i % count === k)
      .map((i) => line(`incidents/${String(i).padStart(2, '0')}`, { index: k + 1, count, position: i, total: n })),
  );
}

const ndjson = (lines: readonly IncidentLine[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('batch lines read back', () => {
  test('lines as batch writes them read back whole, blank lines skipped', () => {
    const lines = shards(5, 1)[0]!;
    expect(readBatchLines((ndjson(lines) + '\n\n').split('\n'), 'all.ndjson')).toEqual(lines);
  });

  test('what is not a batch line is an error naming its file and line', () => {
    const good = JSON.stringify(line('a'));
    const cases: Array<[string, RegExp]> = [
      ['not json', /x\.ndjson:2 is not a line of dumpsleuth batch: it is not JSON/],
      ['[1,2]', /x\.ndjson:2 .*it is not an object/],
      ['{"status":"ok"}', /it has no "path"/],
      [JSON.stringify({ ...line('b'), status: 'fine' }), /"status" is neither/],
      [JSON.stringify({ ...line('b'), counts: { info: 0 } }), /"counts" lack a number/],
      [JSON.stringify({ ...line('b'), highest: 'fatal' }), /"highest" is not a severity/],
      [JSON.stringify({ ...line('b'), findings: 3 }), /no "findings" list/],
      [JSON.stringify({ ...line('b'), shard: { index: 1 } }), /its "shard" is not a shard K of N/],
      // Shard 2 of 3 takes places 1, 4, 7, ...: place 3 is shard 1's.
      [JSON.stringify(line('b', { index: 2, count: 3, position: 3, total: 9 })), /its "shard" is not/],
      [JSON.stringify(line('b', { index: 1, count: 3, position: 9, total: 9 })), /its "shard" is not/],
    ];
    for (const [bad, message] of cases) {
      expect(() => readBatchLines([good, bad, ''], 'x.ndjson'), bad).toThrow(InputError);
      expect(() => readBatchLines([good, bad, ''], 'x.ndjson'), bad).toThrow(message);
    }
  });
});

describe('batch lines joined', () => {
  test("the shards' lines, in any order of files, are one run's lines in one run's order", () => {
    for (const count of [1, 2, 3, 7, 12]) {
      const files = shards(10, count).map((lines, k) => ({ source: `shard-${k + 1}.ndjson`, lines }));
      const joined = joinBatchLines([...files].reverse());
      expect(
        joined.lines.map((l) => l.path),
        `${count} shards`,
      ).toEqual(shards(10, 1)[0]!.map((l) => l.path));
      // More shards than incidents: the extra ones had nothing to do; nothing to say.
      expect([joined.incomplete, joined.notes]).toEqual([false, []]);
    }
  });

  test('a shard missing from the middle leaves incidents with no line: said, and the sweep is incomplete', () => {
    const [first, , third] = shards(9, 3);
    const joined = joinBatchLines([
      { source: 's1', lines: first! },
      { source: 's3', lines: third! },
    ]);
    expect(joined.notes).toEqual([
      expect.stringMatching(/^no line from shard 2 of 3, which had incidents/),
      expect.stringMatching(/^3 of the sweep's 9 incidents have no line/),
    ]);
    expect(joined.incomplete).toBe(true);
  });

  test('a shard lost at the end of the sweep, or holding the only incidents, is seen too: each line says how many the sweep has', () => {
    // 31 incidents in 3 shards: shard 1 holds the last place (30); its file is lost.
    const [, second, third] = shards(31, 3);
    const tail = joinBatchLines([
      { source: 's2', lines: second! },
      { source: 's3', lines: third! },
    ]);
    expect([tail.incomplete, tail.notes[1]]).toEqual([true, expect.stringMatching(/^11 of the sweep's 31 incidents have no line/)]);
    // 3 incidents in 3 shards, shard 3's output lost.
    const [a, b] = shards(3, 3);
    const lost = joinBatchLines([
      { source: 'a', lines: a! },
      { source: 'b', lines: b! },
    ]);
    expect(lost.incomplete).toBe(true);
    // Every file empty.
    expect(joinBatchLines([{ source: 'a', lines: [] }])).toEqual({ lines: [], notes: ['the files given hold no incident line'], incomplete: true });
  });

  test('an incident or a place of the sweep in two lines, and lines of different sweeps, are errors', () => {
    const [a, b] = shards(4, 2);
    expect(() =>
      joinBatchLines([
        { source: 'one.ndjson', lines: a! },
        { source: 'two.ndjson', lines: a! },
      ]),
    ).toThrow(/the incident incidents\/00 has a line in one.ndjson and in two.ndjson/);
    expect(() =>
      joinBatchLines([
        { source: 'a', lines: a! },
        { source: 'b', lines: shards(4, 3)[1]! },
      ]),
    ).toThrow(/different sweeps \(2 shards of 4; 3 shards of 4\)/);
    // Two sweeps of other folders cut alike: the same place of the sweep twice.
    const other = b!.map((l) => ({ ...l, path: `elsewhere/${l.path}` }));
    expect(() =>
      joinBatchLines([
        { source: 'a/s1', lines: a! },
        { source: 'a/s2', lines: b! },
        { source: 'b/s2', lines: other },
      ]),
    ).toThrow(/two lines stand for incident 2 of the sweep, in a\/s2 and in b\/s2/);
  });

  test('redacted lines are not compared by path (two runs may give two incidents one token), and the join says why', () => {
    const [a, b] = shards(2, 2).map((ls) => ls.map((l) => ({ ...l, path: 'incidents/host-1', redacted: true })));
    const joined = joinBatchLines([
      { source: 'a', lines: a! },
      { source: 'b', lines: b! },
    ]);
    expect(joined.lines).toHaveLength(2);
    expect(joined.notes).toEqual([expect.stringMatching(/^lines redacted by their own runs: a token may stand for different values/)]);
  });

  test('negative control: lines of plain runs (no shard) keep the order given, with nothing to say', () => {
    const joined = joinBatchLines([
      { source: 'b', lines: [line('z'), line('y')] },
      { source: 'a', lines: [line('x')] },
    ]);
    expect(joined).toEqual({ lines: [line('z'), line('y'), line('x')], notes: [], incomplete: false });
  });
});
