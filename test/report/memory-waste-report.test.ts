/**
 * The memory-waste section (issue 49) in every format that draws it: the memory report's text,
 * Markdown and HTML, and the Memory part of analyze's text, Markdown and HTML. The waste drawn is a
 * real analysis of fixtures/heap/memory-beyond/waste, saved as test/report/fixtures/memory-waste.json
 * (the file says how it was made). Negative controls: no waste looked for draws no section; a waste of
 * zero bytes says there is none, with no table. Values from the dump are untrusted: a hostile one is
 * escaped and cut in each format.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { beforeAll, describe, expect, test } from 'vitest';

import type { MemorySummary } from '../../src/model/memory.js';
import type { MemoryWaste } from '../../src/model/memory-waste.js';
import { esc } from '../../src/report/html-escape.js';
import { mdText } from '../../src/report/md-escape.js';
import { renderMemoryHtml } from '../../src/report/memory-html.js';
import { renderMemoryMarkdown } from '../../src/report/memory-markdown.js';
import { type MemoryReport, renderMemoryText } from '../../src/report/memory-text.js';
import { RENDERERS } from '../../src/report/renderers.js';
import type { Report } from '../../src/report/report.js';
import { analyseIncident, INCIDENTS, TEST_TOOL } from '../helpers.js';

const WASTE: MemoryWaste = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'memory-waste.json'), 'utf8')).waste;

/** A waste in which nothing was found, with the notes of what the analysis did not see. */
const NO_WASTE: MemoryWaste = {
  ...WASTE,
  wastedBytes: 0,
  shareOfHeap: 0,
  duplicateStrings: {
    ...WASTE.duplicateStrings,
    valuesHeldMoreThanOnce: 0,
    extraCopies: 0,
    wastedBytes: 0,
    jdkWastedBytes: 0,
    shareOfHeap: 0,
    values: [],
    holders: [],
  },
  emptyCollections: { count: 0, wastedBytes: 0, jdkWastedBytes: 0, shareOfHeap: 0, byClass: [], groups: [] },
  sparseCollections: { ...WASTE.sparseCollections, count: 0, wastedBytes: 0, jdkWastedBytes: 0, shareOfHeap: 0, groups: [] },
  boxedInCollections: { count: 0, wastedBytes: 0, jdkWastedBytes: 0, shareOfHeap: 0, groups: [], inJdkCaches: 0 },
  zeroArrays: { count: 0, wastedBytes: 0, jdkWastedBytes: 0, shareOfHeap: 0, byShape: [], holders: [] },
};

const SUMMARY: MemorySummary = {
  objects: 71_082,
  reachableObjects: 70_078,
  shallowBytes: WASTE.heapBytes,
  retainedBytes: WASTE.heapBytes,
  unreachable: { objects: 0, bytes: 0 },
  roots: { 'system-class': 900 },
  missingReferences: 0,
  dominators: [],
  classes: [{ className: 'java.lang.String', instances: 15_850, shallow: 380_400, retained: 900_000 }],
  suspects: [],
};

const memoryReport = (waste?: MemoryWaste): MemoryReport => ({
  source: 'fixtures/heap/memory-beyond/waste/heap.hprof.gz',
  summary: { ...SUMMARY, ...(waste !== undefined ? { waste } : {}) },
  tree: [],
  warnings: [],
});

const FORMATS = {
  txt: renderMemoryText,
  md: renderMemoryMarkdown,
  html: renderMemoryHtml,
} as const;

/** How each format spells a plain string of the report (Markdown escapes `_`, HTML the apostrophe). */
const SPELLED: Record<keyof typeof FORMATS, (s: string) => string> = { txt: (s) => s, md: mdText, html: esc };

/** A value a program could hold: markup, a Markdown link, a terminal escape, a line break, and more characters than a cell shows. */
const HOSTILE = `<script>alert(1)</script> [x](http://evil) **b** | \u001b[2J\nnext line ${'z'.repeat(200)}`;

const hostileWaste = (): MemoryWaste => {
  const [first, ...rest] = WASTE.duplicateStrings.values;
  const holders = [{ ...first!.holders[0]!, holder: 'com.evil.<b>Holder</b>.f' }];
  return {
    ...WASTE,
    duplicateStrings: { ...WASTE.duplicateStrings, values: [{ ...first!, value: HOSTILE.slice(0, 200), length: HOSTILE.length, holders }, ...rest] },
  };
};

describe('memory report: the waste section (golden)', () => {
  for (const [ext, render] of Object.entries(FORMATS))
    test(`${ext}: the whole waste, each kind with its biggest rows, the JDK's part and the notes`, async () => {
      const out = render(memoryReport(WASTE));
      const spelled = SPELLED[ext as keyof typeof FORMATS];
      await expect(out).toMatchFileSnapshot(`../golden/memory/waste.${ext}`);
      // Between the suspects and the class table: the answer first, the tables after it.
      const at = (s: string) => out.indexOf(s);
      expect(at('Memory waste')).toBeGreaterThan(at('Leak suspects'));
      expect(at('Memory waste')).toBeLessThan(at('Classes by retained size'));
      // The figures the fixture's program made: its duplicate value, its empty HashMaps, its zero buffers.
      for (const s of ['order-status:ACTIVE', 'com.example.catalog.Product.attributes', 'com.example.catalog.Catalog.THUMBNAIL_BUFFERS (static)'])
        expect(out).toContain(spelled(s));
      // The JDK's own part said apart, and what was not seen said.
      expect(out).toContain(spelled("49.8 KiB of it is held by the JDK's own fields"));
      expect(out).toContain(spelled('java.io.BufferedWriter.cb (JDK)'));
      expect(out).toContain(spelled('waste was looked for in the 70078 objects the load read'));
    });

  test('text and Markdown keep 5 rows a kind, the HTML page more', () => {
    const sixth = WASTE.duplicateStrings.values[5]!.value;
    expect(renderMemoryText(memoryReport(WASTE))).not.toContain(JSON.stringify(sixth));
    expect(renderMemoryMarkdown(memoryReport(WASTE))).toMatch(/… 243 more values held more than once/);
    expect(renderMemoryHtml(memoryReport(WASTE))).toContain(JSON.stringify(sixth).replace(/"/g, '&quot;'));
  });

  for (const [ext, render] of Object.entries(FORMATS)) {
    test(`${ext}, control: no waste looked for, no section`, () => {
      expect(render(memoryReport())).not.toMatch(/Memory waste|Duplicate strings|all-zero/i);
    });

    test(`${ext}, control: a waste of zero bytes says there is none, without a table`, () => {
      const out = render(memoryReport(NO_WASTE));
      const section = out.slice(out.indexOf('Memory waste'), out.indexOf('Classes by retained size'));
      expect(section).toMatch(/none found in the 5\.6 MiB heap/);
      expect(section).not.toMatch(/<table|\| ---|copies|Duplicate strings:/);
      // The notes stay: an unread part is said, never taken as clean.
      expect(section).toContain('waste was looked for in the 70078 objects the load read');
    });
  }

  test('a hostile value is cut and inert in every format', () => {
    const r = memoryReport(hostileWaste());
    const text = renderMemoryText(r);
    expect(text).not.toMatch(/\u001b|\nnext line/);
    // Cut to 60 characters, quoted: the escape and the line break spelled, not sent.
    expect(text).toContain('"<script>alert(1)</script> [x](http://evil) **b** | \\u001b[2J\\nnex…" (266 chars)');
    expect(text).not.toContain('zzz');
    const md = renderMemoryMarkdown(r);
    expect(md).not.toMatch(/<script>|<b>|(?<!\\)\]\(http|(?<!\\)\*\*b|\u001b/);
    expect(md).toContain('&lt;script&gt;');
    // The cell stays one cell: its pipe is escaped.
    expect(md).toContain('\\*\\*b\\*\\* \\| ');
    const html = renderMemoryHtml(r);
    expect(html).not.toMatch(/<script>|<b>Holder|\u001b/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('com.evil.&lt;b&gt;Holder&lt;/b&gt;.f');
  });
});

describe("analyze's Memory part: the waste section of each heap", { timeout: 60_000 }, () => {
  let base: Report;
  beforeAll(async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'queue-backlog-memory'));
    base = { tool: TEST_TOOL, model, findings };
  });
  const withWaste = (waste: MemoryWaste | undefined): Report => ({
    ...base,
    model: {
      ...base.model,
      // The analysis finds the heap's own waste: it is taken out first, and the one given (if any) put in.
      memory: base.model.memory.map((m) => {
        if (m.summary === undefined) return m;
        const { waste: _own, ...summary } = m.summary;
        return { ...m, summary: { ...summary, ...(waste !== undefined ? { waste } : {}) } };
      }),
    },
  });
  const render = (format: 'text' | 'markdown' | 'html', r: Report) => RENDERERS[format].render(r, { chalk: new Chalk({ level: 0 }) });

  for (const format of ['text', 'markdown', 'html'] as const) {
    test(`${format}: drawn in the heap's Memory part, as the memory report draws it`, () => {
      expect(base.model.memory.some((m) => m.summary !== undefined)).toBe(true);
      const out = render(format, withWaste(WASTE));
      const memory = out.indexOf('Memory of ');
      expect(memory).toBeGreaterThan(0);
      expect(out.indexOf('Memory waste')).toBeGreaterThan(memory);
      expect(out).toContain('order-status:ACTIVE');
      expect(out).toContain('waste was looked for in the 70078 objects the load read');
      // The same rows as the memory report's: text and Markdown 5 a kind, HTML more.
      const sixth = JSON.stringify(WASTE.duplicateStrings.values[5]!.value);
      if (format === 'html') expect(out).toContain(sixth.replace(/"/g, '&quot;'));
      else expect(out).not.toContain(sixth);
    });

    test(`${format}, control: no waste, no section; zero waste, no table`, () => {
      expect(render(format, withWaste(undefined))).not.toMatch(/Memory waste/);
      const none = render(format, withWaste(NO_WASTE));
      expect(none).toMatch(/none found in the 5\.6 MiB heap/);
      expect(none).not.toContain('Duplicate strings:');
    });
  }

  test('pages without a waste keep their style as it was (the goldens of every incident hold it)', () => {
    expect(render('html', withWaste(undefined))).not.toContain('table.doc');
    expect(render('html', withWaste(WASTE))).toContain('table.doc');
  });
});
