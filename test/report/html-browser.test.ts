/**
 * The HTML report in a real headless browser (Debian's chromium through playwright-core): findings
 * visible, a stack opens on click, no console errors, and no request leaves the file.
 * Needs /usr/bin/chromium (`.ci/run` installs it); outside CI the test is skipped without it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { renderHtml } from '../../src/report/html.js';
import { analyseIncident, INCIDENTS, scratchDir, TEST_TOOL } from '../helpers.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const mustRun = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';

describe.skipIf(CHROMIUM === undefined && !mustRun)('HTML report in headless chromium', { timeout: 120_000 }, () => {
  it('shows findings, opens a stack on click, logs no error and loads nothing from outside', async () => {
    if (CHROMIUM === undefined) throw new Error('chromium is not installed (apt-get install chromium); CI must have it');
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'http-pool-starvation'));
    const html = renderHtml({ tool: TEST_TOOL, model, findings });
    const dir = scratchDir('html');
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const fileUrl = pathToFileURL(file).href;

    // --no-sandbox: CI runs as root, where chromium's sandbox refuses to start. The other flags stop
    // chromium's own background connections, which a closed network refuses.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    });
    try {
      const page = await browser.newPage();
      const consoleErrors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(fileUrl, { waitUntil: 'load' });

      // The summary first (each root cause, what it causes, what to do first), then the findings, each visible with its subject.
      expect(await page.locator('h2').allTextContents()).toEqual(expect.arrayContaining(['Summary']));
      expect(await page.locator('h2').first().textContent()).toBe('Summary');
      expect(await page.locator('h2').nth(1).textContent()).toMatch(/^Findings \(\d+\)$/);
      expect(await page.locator('.causes .first').innerText()).toMatch(/^First: /);
      for (const f of findings) {
        const block = page.locator(`[id="${f.id}"]`);
        expect(await block.isVisible()).toBe(true);
        expect(await block.innerText()).toContain(f.subject);
      }

      // A thread group's stack is collapsed, and opens on a click on its summary.
      const group = page.locator('details:has(pre)').first();
      const stack = group.locator('pre');
      expect(await stack.isVisible()).toBe(false);
      await group.locator('summary').click();
      expect(await stack.isVisible()).toBe(true);
      expect(await stack.innerText()).toMatch(/^at /);

      // The states chart drew.
      expect(await page.locator('svg rect').count()).toBeGreaterThan(0);

      expect(consoleErrors).toEqual([]);
      expect(requests.filter((u) => u !== fileUrl && !u.startsWith('data:'))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('fits the page at 1400 and 800 px with JavaScript off: summary, timeline and flame graph drawn (screenshots kept in test-artifacts/)', async () => {
    if (CHROMIUM === undefined) throw new Error('chromium is not installed (apt-get install chromium); CI must have it');
    // A series with stuck threads: every picture of the report has something to draw.
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'tomcat-stuck-requests'));
    const html = renderHtml({ tool: TEST_TOOL, model, findings });
    const dir = scratchDir('html');
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const artifacts = 'test-artifacts';
    mkdirSync(artifacts, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    });
    try {
      for (const width of [1400, 800]) {
        const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
        const page = await context.newPage();
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        // Nothing wider than the window: no sideways scrolling at either width.
        const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
        expect(Number(scrollWidth)).toBeLessThanOrEqual(width);
        // The summary links each finding to its block.
        const links = page.locator('.causes a');
        expect(await links.count()).toBe(findings.length);
        for (const f of findings) expect(await page.locator(`.causes a[href="#${f.id}"]`).count()).toBe(1);
        for (const svg of ['svg.states', 'svg.timeline', 'svg.flame']) {
          const box = await page.locator(svg).first().boundingBox();
          expect(box, svg).not.toBeNull();
          expect(box!.width).toBeGreaterThan(width / 3);
          expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        }
        // The stuck threads lead the timeline, marked.
        expect(await page.locator('svg.timeline .mark').count()).toBe(
          new Set(findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.evidence.flatMap((e) => (e.kind === 'thread' ? [e.thread] : [])))).size,
        );
        await page.screenshot({ path: join(artifacts, `tomcat-stuck-requests-${width}.png`), fullPage: true });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});
