/**
 * The summary's `First:` step is what the user must do: every format gives it whole (it was the
 * remedy's first sentence cut at 240 characters with `…`). Real incidents whose top remedy's first
 * sentence is longer than that, and a control whose first sentence is short.
 */
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';

import { wholeFirstSentence } from '../../src/model/findings.js';
import { causalSummary } from '../../src/report/causal-summary.js';
import { renderJson } from '../../src/report/json.js';
import { RENDERERS, REPORT_FORMATS } from '../../src/report/renderers.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { detailOf } from '../../src/ui/view-data.js';
import { analyseIncident, INCIDENTS, TEST_TOOL } from '../helpers.js';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const unescape = (s: string) =>
  s
    .replace(/<[^>]*>/g, ' ')
    .replace(/\\([\\`*_[\]#|~!$:.])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe("the summary's first step is whole in every format", { timeout: 60_000 }, () => {
  for (const [incident, long] of [
    ['class-init-waits', true],
    ['netty-blocked-event-loops', true],
    ['druid-starvation', false],
  ] as const) {
    it(`${incident} (first sentence ${long ? 'over' : 'under'} 240 characters)`, async () => {
      const { model, findings } = await analyseIncident(join(INCIDENTS, incident));
      const first = causalSummary(findings).first;
      expect(first).toBeDefined();
      const whole = wholeFirstSentence(first!.finding.remedy);
      expect(whole.length > 240, 'the fixture still has a long first step').toBe(long);
      expect(first!.step).toBe(whole);
      const report = { tool: TEST_TOOL, model, findings };
      expect(JSON.parse(renderJson(report)).summary.first).toBe(whole);
      // From `First:` to the end of its line (text, Markdown) or of its paragraph (HTML).
      const firstLine = (text: string) => squash(unescape(/First:(?:<\/strong>)?(.*?)(?:<\/p>|\n)/.exec(text)?.[1] ?? ''));
      // Every format but JSON (checked above) writes the line.
      for (const format of REPORT_FORMATS.filter((f) => f !== 'json')) {
        const line = firstLine(RENDERERS[format].render(report, { chalk: new Chalk({ level: 0 }) }));
        expect(line, `${format}: ${line}`).toContain(squash(whole));
        expect(line, format).not.toContain('…');
      }
      // The UI's row is one line of a list; its detail pane (which wraps) gives the step whole.
      const row = buildUiData(model, findings, incident)
        .screens.flatMap((s) => s.rows)
        .find((r) => r.key === 'first');
      expect(
        squash(
          detailOf(row!)
            .map((l) => l.text)
            .join(' '),
        ),
      ).toContain(squash(whole));
    });
  }
});
