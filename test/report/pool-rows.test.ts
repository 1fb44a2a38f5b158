/**
 * Pools are listed once per series, with their values across the dumps, in every format: on the
 * queue-backlog incident (a real JVM: 4 stuck workers, 20,000 queued tasks, three dumps and a heap).
 */
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';

import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { acrossDumps, dumpsText, poolRows } from '../../src/report/pool-rows.js';
import { renderText } from '../../src/report/text.js';
import { analyseIncident, INCIDENTS, TEST_TOOL } from '../helpers.js';

describe('pool rows', { timeout: 60_000 }, () => {
  test('values across dumps and dump ranges', () => {
    expect(acrossDumps([40, 40, 40])).toBe('40');
    expect(acrossDumps([3, 5, 8])).toBe('3 → 5 → 8');
    expect(acrossDumps([1, 2, 3, 4, 5, 6, 7])).toBe('1–7');
    expect([dumpsText([]), dumpsText([2]), dumpsText([0, 1, 2]), dumpsText([0, 2])]).toEqual(['heap', '#2', '#0–#2', '#0, #2']);
  });

  test('one row for the pool of three dumps, with its heap queue, the same in text, Markdown and HTML', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'queue-backlog-memory'));
    const rows = poolRows(model.executors);
    const render = rows.find((r) => r.name === 'report-render')!;
    expect(rows.filter((r) => r.name === 'report-render')).toHaveLength(1);
    expect(render).toMatchObject({ dumps: [0, 1, 2], workers: [4, 4, 4], busy: [4, 4, 4], saturatedIn: 3 });
    expect(render.queue).toMatch(/^queue 20000 \(LinkedBlockingQueue\) holding [\d.]+ MiB, max 4$/);
    const report = { tool: TEST_TOOL, model, findings };
    const text = renderText(report, new Chalk({ level: 0 }));
    expect(text.match(/report-render: /g)).toHaveLength(1);
    expect(text).toContain('report-render: 4 workers, 4 busy, all busy in 3 of 3 dumps');
    expect(renderMarkdown(report)).toContain('| report-render | #0–#2 | 4 | 4 | queue 20000 (LinkedBlockingQueue)');
    expect(renderHtml(report)).toContain('<tr><td>report-render</td><td>#0–#2</td><td>4</td><td>4</td><td>queue 20000 (LinkedBlockingQueue)');
  });
});
