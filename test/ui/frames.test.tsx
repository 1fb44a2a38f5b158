/**
 * Frames of every screen on the shutdown-ordering incident, through ink-testing-library (golden files
 * in test/golden/ui). Colours off, 100 columns, one key per write with a yield after each.
 */
import { join } from 'node:path';

import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildUiData } from '../../src/ui/build-view.js';
import { App } from '../../src/ui/components/App.js';
import type { UiData } from '../../src/ui/view-data.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 0)));

describe('UI frames (golden)', { timeout: 60_000 }, () => {
  let data: UiData;
  const level = chalk.level;
  beforeAll(async () => {
    chalk.level = 0;
    const r = await analyseIncident(join(INCIDENTS, 'shutdown-ordering'));
    data = buildUiData(r.model, r.findings, 'shutdown-ordering');
  });
  afterAll(() => {
    chalk.level = level;
  });

  // Memory (8) has its own test (test/ui/memory-screen.test.tsx).
  const screens = ['overview', 'findings', 'threads', 'pools', 'counters', 'locks', 'series', undefined, 'calls'];
  screens.forEach((name, i) => {
    if (name === undefined) return;
    it(`${i + 1} ${name}`, async () => {
      const ui = render(<App data={data} />);
      await tick();
      ui.stdin.write(String(i + 1));
      await tick();
      const frame = ui.lastFrame() ?? '';
      ui.unmount();
      expect(frame).toContain(`${i + 1} ${data.screens[i]!.title}`);
      await expect(frame + '\n').toMatchFileSnapshot(`../golden/ui/${i + 1}-${name}.txt`);
    });
  });

  it('a finding opened, its evidence followed to a thread, and the help overlay', async () => {
    const ui = render(<App data={data} />);
    await tick();
    for (const key of ['2', '\r', '\r']) {
      ui.stdin.write(key);
      await tick();
    }
    const followed = ui.lastFrame() ?? '';
    ui.stdin.write('?');
    await tick();
    const help = ui.lastFrame() ?? '';
    ui.unmount();
    // The first evidence line of the shutdown finding is the Dubbo hook's thread.
    // A thread of a group of identical stacks: shown under its group, indented.
    expect(followed).toMatch(/› +#\d+ DubboShutdownHook/);
    expect(followed).toContain('HeaderExchangeServer.close');
    expect(help).toContain('filter by names and frames as you type');
    await expect(followed + '\n').toMatchFileSnapshot('../golden/ui/followed-evidence.txt');
  });
});
