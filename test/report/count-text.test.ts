/** countText writes counts as toLocaleString('en-US') does for integers, without loading ICU. */
import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';

import { countOf, countText } from '../../src/model/count-text.js';
import { compareText } from '../../src/model/text-order.js';
import { renderHtml } from '../../src/report/html.js';
import { renderText } from '../../src/report/text.js';
import { TEST_TOOL } from '../helpers.js';
import { modelOf } from '../rules/build.js';

describe('countText', () => {
  test('equals en-US grouping for every digit count, both signs, and the safe-integer limits', () => {
    const values = [0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (let digits = 1; digits <= 20; digits++) values.push(Number('9'.repeat(digits)), 10 ** (digits - 1), -(10 ** (digits - 1)) - 7);
    for (const n of values) expect(countText(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  test('leaves what is not an integer as JavaScript writes it', () => {
    expect(countText(1.5)).toBe('1.5');
    expect(countText(Number.NaN)).toBe('NaN');
  });
});

describe('countOf', () => {
  test('a count and what it counts, singular for one only', () => {
    expect(countOf(1, 'dump')).toBe('1 dump');
    expect(countOf(0, 'dump')).toBe('0 dumps');
    expect(countOf(1200, 'object')).toBe('1,200 objects');
    expect(countOf(2, 'thread sample')).toBe('2 thread samples');
    expect(countOf(3, 'index', 'indexes')).toBe('3 indexes');
  });
});

describe('a dump of one thread in the reports', () => {
  test('reads "1 thread", in the dumps list and the flame graph', () => {
    const model = modelOf([{ threads: [{ name: 'main', state: 'RUNNABLE', frames: ['com.acme.Main.main'] }] }]);
    const report = { tool: TEST_TOOL, model, findings: [] };
    expect(renderText(report, new Chalk({ level: 0 }))).toMatch(/#0 \(no timestamp\) {2}1 thread: RUNNABLE 1/);
    const html = renderHtml(report);
    expect(html).toContain('1 thread</text>');
    expect(html).not.toMatch(/\b1 threads\b/);
  });
});

describe('compareText', () => {
  test('orders by code units: upper case before lower case, the same on any locale', () => {
    expect(['b', 'B', 'a', 'A', 'a2', 'a10'].sort(compareText)).toEqual(['A', 'B', 'a', 'a10', 'a2', 'b']);
    expect(compareText('x', 'x')).toBe(0);
  });
});
