/**
 * The loading screen answers keys at once: q and Esc quit (0) and Ctrl-C interrupts (130) without
 * waiting for a load that may take a minute; phases other than reading are named. A loader that
 * never finishes stands in for a big input.
 */
import { EventEmitter } from 'node:events';

import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';

import { loadIncidentData } from '../../src/ui/load-incident-data.js';
import type { Loader, LoadMessage } from '../../src/ui/loader.js';
import { Root } from '../../src/ui/screen.js';

const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 0)));

function endlessLoader(): Loader & { say(m: LoadMessage): void } {
  const events = new EventEmitter();
  return { on: (e, f) => events.on(e, f), off: (e, f) => events.off(e, f), busy: () => true, cancel: () => undefined, say: (m) => events.emit('message', m) };
}

describe('the loading screen', () => {
  for (const [key, code] of [
    ['q', 0],
    ['\u001b', 0],
    ['\u0003', 130],
  ] as const) {
    test(`${JSON.stringify(key)} ends it with ${code}, while the load goes on`, async () => {
      const exits: number[] = [];
      const loader = endlessLoader();
      const ui = render(<Root loader={loader} onExit={(c) => exits.push(c)} />);
      await tick();
      loader.say({ type: 'progress', file: 'big.hprof', phase: 'read', bytesRead: 64 << 20, totalBytes: 128 << 20 });
      await tick();
      expect(ui.lastFrame()).toMatch(/reading big\.hprof 64\.0 MB 50%/);
      ui.stdin.write(key);
      await tick();
      await tick();
      ui.unmount();
      expect(exits).toEqual([code]);
    });
  }

  test('a phase other than reading is named', async () => {
    const loader = endlessLoader();
    const ui = render(<Root loader={loader} onExit={() => undefined} />);
    await tick();
    loader.say({ type: 'progress', file: 'big.hprof', phase: 'memory', bytesRead: 0, totalBytes: null });
    await tick();
    expect(ui.lastFrame()).toMatch(/what holds the memory of big\.hprof/);
    ui.unmount();
  });

  test('the analysis names its phases after reading, each on a turn of the event loop of its own', async () => {
    const phases: Array<[string, number]> = [];
    // A chain of setImmediate callbacks runs once per turn of the event loop: its count tells turns apart.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    await loadIncidentData({ paths: ['fixtures/threads/deadlock/dump-1.txt'], memory: 'never' }, (p) => {
      if (p.event.phase !== 'read') phases.push([p.event.phase, turns]);
    });
    counting = false;
    expect(phases.map(([name]) => name)).toEqual(['model', 'rules', 'screens']);
    // Each phase was announced on a later turn than the one before: the screen had a turn to draw it.
    expect(phases[1]![1]).toBeGreaterThan(phases[0]![1]);
    expect(phases[2]![1]).toBeGreaterThan(phases[1]![1]);
  });
});
