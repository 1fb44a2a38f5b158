/**
 * Batch lines read back and joined (`batch --summary`): lines of a sharded sweep go back to their
 * places, whatever the order of the files; what is not a batch line, an incident in two lines and
 * sweeps cut differently are errors; a shard with no line and incidents with no line are said, the
 * second making the sweep incomplete. Plain batch outputs keep the order given.
 */
import { describe, expect, test } from 'vitest';

import { joinBatchLines, readBatchLines } from '../../src/batch/batch-lines.js';
import type { IncidentLine } from '../../src/batch/incident-summary.js';
import { InputError } from '../../src/errors.js';

function line(path: string, shard?: { index: number; count: number; position: number }): IncidentLine {
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
      .map((i) => line(`incidents/${String(i).padStart(2, '0')}`, { index: k + 1, count, position: i })),
  );
}

const ndjson = (lines: readonly IncidentLine[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('batch lines read back', () => {
  test('lines as batch writes them read back whole, blank lines skipped', () => {
    const lines = shards(5, 1)[0]!;
    expect(readBatchLines(ndjson(lines) + '\n\n', 'all.ndjson')).toEqual(lines);
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
    ];
    for (const [bad, message] of cases) {
      expect(() => readBatchLines(`${good}\n${bad}\n`, 'x.ndjson'), bad).toThrow(InputError);
      expect(() => readBatchLines(`${good}\n${bad}\n`, 'x.ndjson'), bad).toThrow(message);
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
      expect(joined.incomplete).toBe(false);
      // More shards than incidents: the empty ones are named, and the sweep is whole.
      expect(joined.notes).toEqual(count > 10 ? [expect.stringMatching(/^no line from shards 11, 12 of 12: a shard with no incident writes none/)] : []);
    }
  });

  test('a shard missing from the middle leaves incidents with no line: said, and the sweep is incomplete', () => {
    const [first, , third] = shards(9, 3);
    const joined = joinBatchLines([
      { source: 's1', lines: first! },
      { source: 's3', lines: third! },
    ]);
    expect(joined.notes).toEqual([
      expect.stringMatching(/^no line from shard 2 of 3/),
      expect.stringMatching(/^3 incidents of the sweep before its last line have no line/),
    ]);
    expect(joined.incomplete).toBe(true);
  });

  test('an incident in two lines, and sweeps cut in different counts, are errors', () => {
    const [a] = shards(4, 2);
    expect(() =>
      joinBatchLines([
        { source: 'one.ndjson', lines: a! },
        { source: 'two.ndjson', lines: a! },
      ]),
    ).toThrow(/the incident incidents\/00 has a line in one.ndjson and in two.ndjson/);
    expect(() =>
      joinBatchLines([
        { source: 'a', lines: shards(4, 2)[0]! },
        { source: 'b', lines: shards(4, 3)[1]! },
      ]),
    ).toThrow(/different numbers of shards \(2, 3\)/);
  });

  test('negative control: lines of plain runs (no shard) keep the order given, with nothing to say', () => {
    const joined = joinBatchLines([
      { source: 'b', lines: [line('z'), line('y')] },
      { source: 'a', lines: [line('x')] },
    ]);
    expect(joined).toEqual({ lines: [line('z'), line('y'), line('x')], notes: [], incomplete: false });
  });
});
