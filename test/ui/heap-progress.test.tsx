/**
 * Issue 46: `ui` on a heap dump showed a blank screen, then an empty progress bar, while `memory`
 * showed real progress on the same file: the heap's reading reported every 32 or 64 MiB (never, for
 * a heap under that) and the memory analysis's progress reached no one. A real heap dump through the
 * real loader and the real loading screen: its frames show the bar advance while the file is read,
 * and the memory analysis's phases by name, as `memory` shows them. A thread dump is the control.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';

import { type LoadMessage, startLoading } from '../../src/ui/loader.js';
import { Root } from '../../src/ui/screen.js';

const HEAP = 'fixtures/incidents/healthy-light-load/heap.hprof.gz';

/** The loader's messages and the loading screen's frames until the load is done. */
async function load(path: string): Promise<{ messages: LoadMessage[]; frames: string[] }> {
  const loader = startLoading({ paths: [path], memory: 'always' });
  const messages: LoadMessage[] = [];
  const finished = new Promise<void>((resolve) =>
    loader.on('message', (m) => {
      messages.push(m);
      if (m.type !== 'progress') resolve();
    }),
  );
  const ui = render(<Root loader={loader} onExit={() => undefined} />);
  await finished;
  const frames = [...ui.frames];
  ui.unmount();
  return { messages, frames };
}

describe('the loading screen of a heap dump', { timeout: 120_000 }, () => {
  it('shows the reading advance, then the memory analysis by its phases', async () => {
    const { messages, frames } = await load(HEAP);
    const read = messages.flatMap((m) => (m.type === 'progress' && m.bytesRead > 0 ? [m] : []));
    expect(read.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < read.length; i++) if (read[i]!.phase === read[i - 1]!.phase) expect(read[i]!.bytesRead).toBeGreaterThan(read[i - 1]!.bytesRead);
    // The frames: percentages that grow, with the bar filled as far, while the file is read.
    const shown = frames.flatMap((f) => {
      const m = /reading \S+heap\.hprof\.gz [\d.]+ MB (\d+)%\n(█*)░*/.exec(f);
      return m !== null ? [{ pct: Number(m[1]), filled: m[2]!.length }] : [];
    });
    expect(shown.length, frames.join('\n---\n')).toBeGreaterThanOrEqual(2);
    expect(shown[shown.length - 1]!.pct).toBeGreaterThan(shown[0]!.pct);
    expect(shown[shown.length - 1]!.filled).toBeGreaterThan(0);
    const phases = new Set(messages.flatMap((m) => (m.type === 'progress' ? [m.phase] : [])));
    for (const p of ['memory', 'dominators', 'summary']) expect(phases, p).toContain(p);
    // The memory analysis's phases are drawn, each before its work holds the thread.
    const said = frames.map((f) => f.split('\n')[1] ?? '');
    for (const words of ['the dominator tree of', 'the leak suspects of'])
      expect(
        said.some((l) => l.startsWith(`${words} `)),
        `${words}\n${said.join('\n')}`,
      ).toBe(true);
  });

  it('control: a thread dump names no memory phase', async () => {
    const { messages } = await load('fixtures/threads/deadlock/dump-1.txt');
    const phases = messages.flatMap((m) => (m.type === 'progress' ? [m.phase] : []));
    expect(phases).not.toContain('dominators');
    expect(phases).toContain('rules');
  });
});
