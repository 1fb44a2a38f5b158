/**
 * Every format says the same about every finding of every fixture incident: the rule, the subject,
 * the message, the remedy, what caused it, each fact in words (a list by its first item), and its first
 * piece of evidence. Each format escapes in its own way; the text is compared after undoing that.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';

import type { Finding } from '../../src/model/findings.js';
import { factRows } from '../../src/report/fact-text.js';
import { renderJson } from '../../src/report/json.js';
import { RENDERERS, REPORT_FORMATS, type ReportFormat } from '../../src/report/renderers.js';
import { stripControl } from '../../src/report/sanitize.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { detailOf } from '../../src/ui/view-data.js';
import { analyseIncident, INCIDENTS, TEST_TOOL } from '../helpers.js';

const INCIDENT_DIRS = readdirSync(INCIDENTS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const fromHtml = (s: string) =>
  squash(
    s
      .replace(/<[^>]*>/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );
const fromMarkdown = (s: string) =>
  squash(
    s
      .replace(/\\([\\`*_[\]#|~!$:.])/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );

/**
 * Each format's report as plain text, its escaping undone (JSON's findings are compared field by field
 * below). A format added to the registry does not compile here until it says how to read it.
 */
const AS_PLAIN_TEXT: Readonly<Record<Exclude<ReportFormat, 'json'>, (out: string) => string>> = { text: squash, markdown: fromMarkdown, html: fromHtml };

/** What every format must say of a finding, as plain text. */
function sayings(f: Finding): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['rule', f.rule],
    ['subject', f.subject],
    ['message', f.message],
    ['remedy', f.remedy],
  ];
  // Each fact as a person reads it (fact-text.ts): its label and its value, a list by its first item.
  const scalars = Object.fromEntries(Object.entries(f.facts).filter(([, v]) => !Array.isArray(v)));
  const firsts = Object.fromEntries(Object.entries(f.facts).flatMap(([k, v]) => (Array.isArray(v) && v.length > 0 ? [[k, [v[0]]]] : [])));
  for (const row of [...factRows(scalars), ...factRows(firsts)]) out.push([`fact label ${row.label}`, row.label], [`fact ${row.label}`, row.value]);
  const thread = f.evidence.find((e) => e.kind === 'thread');
  if (thread !== undefined && thread.kind === 'thread') out.push(['first evidence thread', thread.thread]);
  return out.map(([what, text]) => [what, squash(stripControl(text))]);
}

describe('every format says the same about each finding', { timeout: 120_000 }, () => {
  for (const incident of INCIDENT_DIRS) {
    it(incident, async () => {
      const { model, findings } = await analyseIncident(join(INCIDENTS, incident));
      const report = { tool: TEST_TOOL, model, findings };
      const formats: Record<string, string> = {};
      for (const format of REPORT_FORMATS)
        if (format !== 'json') formats[format] = AS_PLAIN_TEXT[format](RENDERERS[format].render(report, { chalk: new Chalk({ level: 0 }) }));
      const json = JSON.parse(renderJson(report));
      const ui = buildUiData(model, findings, incident).screens.find((s) => s.id === 'findings')!;
      for (const f of findings) {
        const uiRow = ui.rows.find((r) => r.key === f.id);
        expect(uiRow, `${incident}: ${f.id} in the UI`).toBeDefined();
        formats['ui'] = squash(
          detailOf(uiRow!)
            .map((l) => l.text)
            .join(' '),
        );
        const inJson = json.findings.find((x: Finding) => x.id === f.id);
        expect(inJson, `${incident}: ${f.id} in JSON`).toBeDefined();
        expect(inJson.message).toBe(f.message);
        for (const [format, text] of Object.entries(formats)) {
          for (const [what, said] of sayings(f)) {
            if (format === 'ui' && what === 'rule') continue;
            expect(text.includes(said), `${incident}: ${format} does not say the ${what} of ${f.id}: "${said.slice(0, 120)}"`).toBe(true);
          }
          // The causes, by their subject (each format links or names them its own way).
          for (const c of f.causedBy) {
            const cause = findings.find((x) => x.id === c);
            if (cause !== undefined)
              expect(text.includes(squash(stripControl(cause.subject))), `${incident}: ${format} does not name the cause ${c} of ${f.id}`).toBe(true);
          }
        }
      }
    });
  }
});
