/** A line is kept up to a limit and the rest of it dropped and counted, however many chunks it spans. */
import { describe, expect, it } from 'vitest';

import { forEachLine } from '../../src/input/open.js';
import { LineCarry, linesCutWarning } from '../../src/model/line-carry.js';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  yield* parts;
}

describe('LineCarry', () => {
  it('keeps a line under the limit whole, across pieces', () => {
    const c = new LineCarry(10);
    c.add('abc');
    c.add('def');
    expect(c.close('gh')).toBe('abcdefgh');
    expect(c.cut).toBe(0);
    expect(c.isEmpty).toBe(true);
  });

  it('cuts a longer line at the limit, drops the rest, and counts it once', () => {
    const c = new LineCarry(5);
    c.add('abcd');
    c.add('efgh');
    c.add('ijkl');
    expect(c.isEmpty).toBe(false);
    expect(c.close('mn')).toBe('abcde');
    c.add('xy');
    expect(c.close()).toBe('xy');
    expect(c.cut).toBe(1);
  });

  it('forEachLine returns the lines it cut, and the lines after a cut one are whole', async () => {
    const lines: string[] = [];
    const long = 'x'.repeat(70 * 1024 * 1024);
    const cut = await forEachLine(chunks('first\n', long.slice(0, 40e6), long.slice(40e6), '\nlast'), (l) => lines.push(l));
    expect(cut).toBe(1);
    expect(lines.map((l) => l.length)).toEqual([5, 64 * 1024 * 1024, 4]);
    expect(linesCutWarning(cut)).toBe('1 line longer than 67108864 characters was cut at that length; the rest of it was not read');
  });
});
