/**
 * Issue 46: `ui` on a heap dump showed a blank screen, then an empty progress bar, while `memory`
 * showed real progress on the same file: the heap's reading reported every 32 or 64 MiB (never, for
 * a heap under that) and the memory analysis's progress reached no one. A real heap dump through the
 * real loader and the real loading screen: its frames show the bar advance while the file is read,
 * and the memory analysis's phases by name, as `memory` shows them. A thread dump is the control.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';

import type { ProgressEvent } from '../../src/model/progress.js';
import { loadIncidentData } from '../../src/ui/load-incident-data.js';
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
  it('the analysis reports its reading as it advances, and the memory analysis by its phases', async () => {
    // What the loader hears, before it throttles what it draws (a busy machine draws fewer frames).
    const events: ProgressEvent[] = [];
    await loadIncidentData({ paths: [HEAP], memory: 'always' }, (p) => events.push(p.event));
    const read = events.filter((e) => e.bytesRead > 0 && e.totalBytes !== undefined);
    expect(read.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < read.length; i++) if (read[i]!.phase === read[i - 1]!.phase) expect(read[i]!.bytesRead).toBeGreaterThan(read[i - 1]!.bytesRead);
    const phases = events.map((e) => e.phase);
    for (const p of ['memory', 'dominators', 'summary']) expect(phases, p).toContain(p);
  });

  it('the loading screen draws how far the reading got, and the memory phases by name', async () => {
    const { frames } = await load(HEAP);
    const shown = frames.flatMap((f) => {
      const m = /reading \S+heap\.hprof\.gz [\d.]+ MB (\d+)%\n(█*)░*/.exec(f);
      return m !== null ? [{ pct: Number(m[1]), filled: m[2]!.length }] : [];
    });
    expect(shown.length, frames.join('\n---\n')).toBeGreaterThanOrEqual(1);
    expect(shown[shown.length - 1]!.pct).toBeGreaterThan(0);
    expect(shown[shown.length - 1]!.filled).toBeGreaterThan(0);
    // Each memory phase gives the screen a turn as it starts (a busy machine may still skip a frame).
    const said = frames.map((f) => f.split('\n')[1] ?? '');
    expect(
      said.some((l) => /^the (dominator tree|leak suspects|paths from GC roots) of /.test(l)),
      said.join('\n'),
    ).toBe(true);
  });

  it('control: a thread dump names no memory phase', async () => {
    const { messages } = await load('fixtures/threads/deadlock/dump-1.txt');
    const phases = messages.flatMap((m) => (m.type === 'progress' ? [m.phase] : []));
    expect(phases).not.toContain('dominators');
    expect(phases).toContain('rules');
  });
});
