/**
 * The HTML report in a real headless browser (Debian's chromium through playwright-core): findings
 * visible, a stack opens on click, no console errors, and no request leaves the file.
 * Needs /usr/bin/chromium (`.ci/run` installs it); outside CI the test is skipped without it.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { renderHtml } from '../../src/report/html.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const mustRun = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';

describe.skipIf(CHROMIUM === undefined && !mustRun)('HTML report in headless chromium', { timeout: 120_000 }, () => {
  it('shows findings, opens a stack on click, logs no error and loads nothing from outside', async () => {
    if (CHROMIUM === undefined) throw new Error('chromium is not installed (apt-get install chromium); CI must have it');
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'http-pool-starvation'));
    const html = renderHtml({ tool: { name: 'dumpsleuth', version: '0.0.0-test' }, model, findings });
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const fileUrl = pathToFileURL(file).href;

    // --no-sandbox: CI runs as root, where chromium's sandbox refuses to start. The other flags stop
    // chromium's own background connections, which a closed network refuses.
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
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

      // Findings first, each visible with its subject.
      expect(await page.locator('h2').first().textContent()).toMatch(/^Findings \(\d+\)$/);
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
});
