/**
 * What an HTML report never draws, on every fixture incident's report (the goldens reports.test.ts
 * holds the renderer to): a table with no row under its header, an empty stack block, an empty name in
 * a list of names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

const DIR = 'test/golden/reports';
const reports = readdirSync(DIR).filter((f) => f.endsWith('.html'));

describe('HTML reports draw nothing empty', () => {
  test.each(reports)('%s', (file) => {
    const html = readFileSync(join(DIR, file), 'utf8');
    const tables = html.match(/<table[\s\S]*?<\/table>/g) ?? [];
    const headerOnly = tables.filter((t) => !/<td[\s>]/.test(t));
    expect(headerOnly, 'tables with no row').toEqual([]);
    expect(html).not.toMatch(/<pre><\/pre>/);
    expect(html).not.toMatch(/, , /);
    expect(html).not.toMatch(/<code><\/code>/);
  });

  test('the check finds them (negative control on a doctored report)', () => {
    const html = readFileSync(join(DIR, reports[0]!), 'utf8');
    const doctored = html.replace('</body>', '<table><tr><th>pool</th></tr></table><pre></pre><p>a, , b</p></body>');
    expect((doctored.match(/<table[\s\S]*?<\/table>/g) ?? []).some((t) => !/<td[\s>]/.test(t))).toBe(true);
    expect(doctored).toMatch(/<pre><\/pre>/);
  });
});
