/** Quoted log lines keep their cause: URL parameters go first, then the middle, never the end. */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { quoteLogLine } from '../../src/report/log-quote.js';

// A real line of the limit-saturated fixture's Dubbo provider log, 800-odd characters long.
const LINE = readFileSync('fixtures/incidents/limit-saturated/app.log', 'utf8')
  .split('\n')
  .find((l) => l.includes('cause: The service using threads'))!;

describe('quoteLogLine', () => {
  it('drops a long URL query first, and keeps the cause', () => {
    expect(LINE.length).toBeGreaterThan(600);
    const wide = quoteLogLine(LINE, 600);
    expect(wide.length).toBeLessThanOrEqual(600);
    expect(wide).toContain('dubbo://127.0.0.1:20880/org.apache.dubbo.demo.DemoService?…');
    expect(wide).not.toContain('&generic=');
    expect(wide).toContain('cause: The service using threads greater than <dubbo:service executes="');
    // Narrower, the middle goes too; the cause stays.
    const q = quoteLogLine(LINE, 300);
    expect(q.length).toBeLessThanOrEqual(300);
    expect(q).toContain('cause: The service using threads greater than <dubbo:service executes="');
  });
  it('cuts the middle when that is not enough, keeping the start and the end', () => {
    const q = quoteLogLine(LINE, 160);
    expect(q.length).toBeLessThanOrEqual(160);
    expect(q.startsWith(LINE.slice(0, 20))).toBe(true);
    expect(q.endsWith(LINE.slice(-30))).toBe(true);
  });
  it('leaves a line that fits as it is', () => {
    expect(quoteLogLine('short line', 160)).toBe('short line');
  });
});
