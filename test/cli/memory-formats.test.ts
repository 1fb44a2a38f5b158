/**
 * `memory -f markdown|html` (and `-o report.md|report.html`, chosen through the renderer registry):
 * the whole memory report on the fixture heaps, as golden files: a thread's stack holding the leak
 * (frame-holder), classes defined by several loaders (classloader-leak), and `--baseline` over two and
 * three dumps of one leaking JVM (growth). Each is in the text's order, escaped, and the HTML a
 * standalone page (no script, nothing fetched).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { runCli, scratchDir } from '../helpers.js';

const BEYOND = 'fixtures/heap/memory-beyond';
const growth = (n: number) => join(BEYOND, 'growth', `heap-${n}.hprof.gz`);

const CASES: Record<string, string[]> = {
  'frame-holder': [join(BEYOND, 'frame-holder', 'heap.hprof.gz')],
  'classloader-leak': [join(BEYOND, 'classloader-leak', 'heap.hprof.gz')],
  'growth-1-3': ['--baseline', growth(1), growth(3)],
  'growth-1-2-3': ['--baseline', growth(1), '--baseline', growth(2), growth(3)],
};

/** The sections in the order the text has them (those a report has: growth only with --baseline). */
const ORDER = [
  'Leak suspects',
  'Growth over',
  'What holds the new objects',
  'Classes by growth',
  'Classes by retained size',
  'Biggest retainers',
  'Heap details',
];

async function memory(format: string, args: string[]): Promise<string> {
  const r = await runCli(['memory', '--no-progress', '-f', format, ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

function inOrder(out: string): void {
  const at = ORDER.map((s) => out.indexOf(s)).filter((i) => i >= 0);
  expect(at.length).toBeGreaterThanOrEqual(4);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
}

/**
 * The fixture heaps hold, as their programs' own Strings, the folder they were generated in (a
 * duplicate value the waste section lists): shown in the goldens as a placeholder, so that no golden
 * names a folder of the machine that made the dumps.
 */
const GENERATED_IN = /\/work\/wt-fix49\//g;
const asStored = (out: string) => out.replace(GENERATED_IN, '<generated in>/');

describe('memory -f markdown and -f html (golden)', { timeout: 120_000 }, () => {
  for (const [name, args] of Object.entries(CASES)) {
    test(`${name}: markdown`, async () => {
      const md = await memory('markdown', args);
      inOrder(md);
      expect(md.length).toBeLessThanOrEqual(65_536);
      await expect(asStored(md)).toMatchFileSnapshot(`../golden/memory/${name}.md`);
    });

    test(`${name}: html`, async () => {
      const html = await memory('html', args);
      inOrder(html);
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).not.toMatch(/<script|\bsrc=|<link\b|href="https?:|@import|url\(/);
      await expect(asStored(html)).toMatchFileSnapshot(`../golden/memory/${name}.html`);
    });
  }

  test('what the sections say of the fixtures: the frame, the loaders, the holder of the growth, the trend', async () => {
    const frame = await memory('markdown', CASES['frame-holder']!);
    expect(frame).toContain("held on a thread's stack");
    expect(frame).toContain('com.example.export.ReportExporter.exportAll(ReportExporter.java:23)');
    const loaders = await memory('html', CASES['classloader-leak']!);
    expect(loaders).toContain('<h2>Classes defined by several class loaders');
    const three = await memory('html', CASES['growth-1-2-3']!);
    expect(three).toContain('com.example.orders.OrderAuditTrail.ENTRIES (static)');
    expect(three).toMatch(/<th>instances at each dump<\/th>/);
    const two = await memory('markdown', CASES['growth-1-3']!);
    // Two dumps have no trend to show.
    expect(two).not.toContain('instances at each dump');
    expect(two).toContain('com.example.orders.OrderAuditTrail.ENTRIES (static)'.replace(/_/g, '\\_'));
  });

  test('--path: the shortest path from a GC root, one step a line, after the suspects and before the tables', async () => {
    const args = ['--path', '0xfd5da248', ...CASES['frame-holder']!];
    for (const format of ['markdown', 'html']) {
      const out = await memory(format, args);
      const at = out.indexOf('Shortest path from a GC root to 0xfd5da248');
      expect(at, format).toBeGreaterThan(out.indexOf('Leak suspects'));
      expect(at, format).toBeLessThan(out.indexOf('Classes by retained size'));
      expect(out.slice(at), format).toMatch(
        format === 'html' ? /<pre class="tree">GC root \(thread\): java\.lang\.Thread/ : /```text\nGC root \(thread\): java\.lang\.Thread/,
      );
      expect(out.slice(at), format).toMatch(/java\.util\.ArrayList 0xfd5da248 {2}retains 1\.4 MiB/);
    }
  });

  test('-o report.md and -o report.html choose the format by the registry, the same as -f', async () => {
    const dir = scratchDir('memory-formats');
    const args = CASES['frame-holder']!;
    for (const [ext, format] of [
      ['md', 'markdown'],
      ['html', 'html'],
    ] as const) {
      const file = join(dir, `report.${ext}`);
      const r = await runCli(['memory', '--no-progress', '-o', file, ...args]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(readFileSync(file, 'utf8')).toBe(await memory(format, args));
    }
  });

  test('control: an unknown format is refused, naming the four', async () => {
    const r = await runCli(['memory', '--no-progress', '-f', 'pdf', ...CASES['frame-holder']!]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/text, json, markdown, html/);
  });
});
