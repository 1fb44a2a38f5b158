/**
 * Markdown and HTML reports: golden files on the incident fixtures, the size cap, and a hostile dump
 * (names carrying HTML, Markdown and terminal escapes) that must stay inert in every format.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';

import { defaultConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { buildModel } from '../../src/reconstruct/build-model.js';
import { esc } from '../../src/report/html.js';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/report/markdown.js';
import { RENDERERS, REPORT_FORMATS, type ReportFormat } from '../../src/report/renderers.js';
import type { Report } from '../../src/report/report.js';
import { RULES } from '../../src/rules/index.js';
import { TextDumpParser } from '../../src/threads/text-parser.js';
import { analyseIncident, INCIDENTS, TEST_TOOL } from '../helpers.js';

/** The report in every format of the registry, without colour. */
function renderAll(report: Report): Record<ReportFormat, string> {
  const context = { chalk: new Chalk({ level: 0 }) };
  return Object.fromEntries(REPORT_FORMATS.map((f) => [f, RENDERERS[f].render(report, context)])) as Record<ReportFormat, string>;
}

// Every fixture incident, so a change to any report shows in review as a diff of what users read.
const ALL_INCIDENTS = readdirSync(INCIDENTS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe('text, markdown and html reports (golden)', { timeout: 60_000 }, () => {
  for (const incident of ALL_INCIDENTS) {
    it(incident, async () => {
      const { model, findings } = await analyseIncident(join(INCIDENTS, incident));
      const report: Report = { tool: TEST_TOOL, model, findings };
      const out = renderAll(report);
      const md = out.markdown;
      const html = out.html;
      expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
      // Findings come first, each with its remedy.
      for (const f of findings) {
        expect(md).toContain(`· ${f.rule} ·`);
        expect(html).toContain(`id="${esc(f.id)}"`);
      }
      // The summary, then the findings, come before the other sections.
      if (findings.length > 0) expect(md.indexOf('### ')).toBeLessThan(md.indexOf('#### ') === -1 ? Infinity : md.indexOf('#### '));
      // Self-contained: no script, no remote resource.
      expect(html).not.toMatch(/<script|\bsrc=|<link\b|href="https?:|@import|url\(/);
      // A golden file per format, named with its usual extension; JSON's shape is held by its schema (json-schema.test.ts).
      for (const f of REPORT_FORMATS) {
        if (f !== 'json') await expect(out[f], f).toMatchFileSnapshot(`../golden/reports/${incident}${RENDERERS[f].extensions[0]}`);
      }
    });
  }

  it('stays under 65,536 characters by cutting evidence, never findings', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'http-pool-starvation'));
    // Many findings with long evidence lists: far past the limit at full length.
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...findings[0]!,
      id: `x:${i}`,
      subject: `pool ${i}`,
      evidence: Array.from({ length: 300 }, () => findings[0]!.evidence[1]!),
    }));
    const md = renderMarkdown({ tool: TEST_TOOL, model, findings: many });
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    for (let i = 0; i < 60; i++) expect(md).toContain(`pool ${i}`);
    expect(md).toMatch(/more of \d+ evidence lines cut to keep the report under 65536 characters/);
  });
});

describe('a hostile dump', () => {
  // Hand-written: names carrying markup and escape sequences (a format edge case, not a JVM's output).
  const names = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '**bold** [link](http://evil) | pipe `code`',
    'visit https://evil.example.com/x or www.evil.example.com',
    '\u001b[2J\u001b]8;;http://evil\u0007click\u001b]8;;\u0007',
  ];
  const lines = ['Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):', ''];
  names.forEach((n, i) => {
    for (let k = 0; k < 6; k++) {
      lines.push(
        `"${n}-${k}" #${i * 10 + k} prio=5 os_prio=0 tid=0x${i}${k} nid=0x${i}${k} waiting for monitor entry  [0x1]`,
        '   java.lang.Thread.State: BLOCKED (on object monitor)',
        '\tat evil.Cls.m(Cls.java:1)',
        `\t- waiting to lock <0x0000000000000abc> (a evil.<b>Lock</b>)`,
        '',
      );
    }
  });
  const p = new TextDumpParser('hostile.txt');
  for (const l of lines) p.push(l);
  const model = buildModel([{ path: 'hostile.txt', format: 'hotspot', gzip: false, encoding: 'utf-8', file: p.finish() }]);
  const findings = runRules(model, RULES, defaultConfig(RULES));
  const report: Report = { tool: TEST_TOOL, model, findings };

  it('is inert in every format', () => {
    expect(findings.length).toBeGreaterThan(0);
    const out = renderAll(report);
    const html = out.html;
    expect(html).not.toMatch(/<script>|<img |<b>Lock/);
    expect(html).toContain('&lt;script&gt;');
    const md = out.markdown;
    // Stacks are fenced: inside a fence nothing is markup, and no line of it closes the fence.
    const fences = [...md.matchAll(/^(`{3,})text\n([\s\S]*?)\n\1$/gm)];
    expect(fences.length).toBeGreaterThan(0);
    for (const [, fence, inside] of fences) expect(inside).not.toMatch(new RegExp(`^${fence}`, 'm'));
    const outsideFences = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '');
    // Outside them, markup characters arrive backslash-escaped: no link, no emphasis, no tag.
    expect(outsideFences).not.toMatch(/<script>|<img |(?<!\\)\]\(http:\/\/evil\)|(?<!\\)\*\*bold/);
    // Bare URLs and `www.` hosts are spelled so that GitHub does not autolink them.
    expect(outsideFences).toContain('https\\://evil.example.com/x or www\\.evil.example.com');
    expect(outsideFences).not.toMatch(/(?<!\\)https?:\/\/evil\.example|(?<!\\)\bwww\.evil/);
    for (const f of REPORT_FORMATS) expect(out[f], f).not.toMatch(/\u001b|\u0007/);
  });
});
