/**
 * Every format says the same about each input: the parts of its line (dumps and threads, or for a
 * log what was found in it) appear in the text, Markdown and UI outputs alike, on an incident with
 * thread dumps, a server log and top -H files (a real Tomcat's, fixtures/generate-runtime-incidents.sh).
 */
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';

import { inputLineParts } from '../../src/report/input-line.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { analyseIncident, INCIDENTS, TEST_TOOL } from '../helpers.js';

describe('input lines', { timeout: 60_000 }, () => {
  test('text, Markdown and the UI name the same parts for every input', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'tomcat-stuck-requests'));
    const report = { tool: TEST_TOOL, model, findings };
    const text = renderText(report, new Chalk({ level: 0 }));
    const markdown = renderMarkdown(report);
    const ui = buildUiData(model, findings, 't')
      .screens.find((s) => s.id === 'overview')!
      .rows.map((r) => r.text)
      .join('\n');
    const log = model.inputs.find((i) => i.path.endsWith('catalina.out'))!;
    expect(inputLineParts(log).map((p) => p.text)).toEqual(['3 hung-thread reports', '1 recovery of a reported thread']);
    for (const i of model.inputs) {
      for (const p of inputLineParts(i)) {
        expect(text, `${i.path} text`).toContain(p.text);
        expect(markdown, `${i.path} markdown`).toContain(p.text);
        expect(ui, `${i.path} ui`).toContain(p.text);
      }
    }
    expect(text).not.toMatch(/catalina\.out: .*0 dumps/);
  });
});
