/** The HTML report's pictures: the flame graph's widths and escaping, the series timeline's order and marks. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { flameGraph } from '../../src/report/html-flame.js';
import { seriesTimeline, TIMELINE_ROWS } from '../../src/report/html-timeline.js';
import { seriesRows } from '../../src/report/series-rows.js';
import { callTree } from '../../src/threads/call-tree.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

const COLOURS = { RUNNABLE: '#0f0', BLOCKED: '#f00', WAITING: '#ff0', TIMED_WAITING: '#fa0', NEW: '#ccc', TERMINATED: '#999', UNKNOWN: '#eee' } as const;
const frame = (qualified: string) => ({
  className: qualified.slice(0, qualified.lastIndexOf('.')),
  method: qualified.slice(qualified.lastIndexOf('.') + 1),
  location: '',
  qualified,
});
const th = (state: 'BLOCKED' | 'RUNNABLE', ...frames: string[]) => ({ name: 't', state, frames: frames.map(frame), locks: [] });

/** Each drawn box: its tooltip title and width. */
function boxes(svg: string): Array<{ title: string; width: number }> {
  return [...svg.matchAll(/<g><title>([^<]*)<\/title><rect x="[\d.]+" y="\d+" width="([\d.]+)"/g)].map((m) => ({ title: m[1]!, width: Number(m[2]) }));
}

describe('flame graph', () => {
  it('draws each frame as wide as its threads, and escapes frame names', () => {
    const dump = {
      threads: [th('BLOCKED', 'a.<b>.c', 'a.Main.run'), th('BLOCKED', 'a.<b>.c', 'a.Main.run'), th('RUNNABLE', 'a.X.y', 'a.Main.run'), th('RUNNABLE', 'a.Z.w')],
    } as never;
    const svg = flameGraph(callTree([dump]), COLOURS, '4 threads');
    expect(svg).not.toContain('<b>');
    const drawn = boxes(svg);
    const width = (prefix: string) => drawn.find((b) => b.title.startsWith(prefix))!.width;
    // 1200 units for 4 threads: 3 under Main.run, 2 in the <b> frame, 1 each for the others (less the gap of half a unit).
    expect(width('a.Main.run')).toBeCloseTo(900 - 0.5, 0);
    expect(width('a.&lt;b&gt;.c')).toBeCloseTo(600 - 0.5, 0);
    expect(width('a.X.y')).toBeCloseTo(300 - 0.5, 0);
    // The blocked frame takes BLOCKED's colour; its tooltip gives the counts per state.
    expect(svg).toMatch(/a\.&lt;b&gt;\.c: 2 \(BLOCKED 2\); top frame of 2<\/title><rect [^>]*fill="#f00"/);
  });

  it('leaves out frames too narrow to see, and says how many', () => {
    const threads = [...Array.from({ length: 2000 }, () => th('RUNNABLE', 'a.Busy.loop')), th('BLOCKED', 'a.Rare.once', 'a.Rare.caller')];
    const svg = flameGraph(callTree([{ threads } as never]), COLOURS, 'many');
    expect(boxes(svg).some((b) => b.title.startsWith('a.Rare'))).toBe(false);
    expect(svg).toContain('Not drawn: 1 frames too narrow to draw');
  });

  it('labels the threads with no frames where they would stand, and draws none when every thread has frames', () => {
    const svg = flameGraph(callTree([{ threads: [th('RUNNABLE', 'a.Main.run'), th('RUNNABLE'), th('RUNNABLE')] } as never]), COLOURS, '3 threads');
    const box = boxes(svg).find((b) => b.title === '2 threads with no frames in their stack');
    expect(box?.width).toBeCloseTo(800 - 0.5, 0);
    expect(svg).toContain('>no frames: 2</text>');
    expect(flameGraph(callTree([{ threads: [th('RUNNABLE', 'a.Main.run')] } as never]), COLOURS, '1 thread')).not.toContain('no frames');
    // Only threads with no frames: the box stands on the root, inside the picture.
    const bare = flameGraph(callTree([{ threads: [th('RUNNABLE')] } as never]), COLOURS, '1 thread');
    expect(bare).toMatch(/viewBox="0 0 1200 34"/);
    expect(bare).toMatch(/<rect x="0\.0" y="0" width="1199\.5"[^>]*fill="#eaeef2"/);
  });

  it('is at most 60 frames tall, and says how many frames it cut', () => {
    const deep = Array.from({ length: 100 }, (_, i) => `a.Deep.f${i}`);
    const svg = flameGraph(callTree([{ threads: [th('RUNNABLE', ...deep)] } as never]), COLOURS, 'deep');
    expect(svg).toMatch(/viewBox="0 0 1200 1020"/);
    expect(svg).toContain('stacks cut at 60 frames deep (41 frames above)');
  });
});

describe('series timeline', () => {
  it('lists deadlocked threads first and marks them', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'heap-deadlock'));
    const rows = seriesRows(model, findings);
    const deadlocked = new Set(model.locks.deadlocks.flatMap((d) => d.threads.map((t) => t.name)));
    expect(deadlocked.size).toBeGreaterThan(0);
    const marks = rows.map((r) => r.mark);
    expect(marks.slice(0, deadlocked.size).every((m) => m === 'deadlocked')).toBe(true);
    expect(new Set(rows.filter((r) => r.mark === 'deadlocked').map((r) => r.thread.name))).toEqual(deadlocked);
    const svg = seriesTimeline(model, rows, COLOURS);
    expect(svg.match(/>DEADLOCKED</g)?.length).toBe(deadlocked.size);
  });

  it('puts the stuck threads before the others, and cuts a long series with a count', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'tomcat-stuck-requests'));
    const stuck = new Set(
      findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.evidence.flatMap((e) => (e.kind === 'thread' ? [e.thread] : []))),
    );
    expect(stuck.size).toBeGreaterThan(0);
    const rows = seriesRows(model, findings);
    const firstOther = rows.findIndex((r) => r.mark !== 'deadlocked' && r.mark !== 'stuck');
    expect(
      rows
        .slice(0, firstOther)
        .map((r) => r.thread.name)
        .sort(),
    ).toEqual([...stuck].sort());
    const svg = seriesTimeline(model, rows, COLOURS);
    const drawn = Math.min(TIMELINE_ROWS, model.series[0]!.threads.length);
    expect(svg.match(/text-anchor="end"/g)?.length).toBe(drawn);
  });

  it('cuts a long series at its first rows, and counts what it leaves out', async () => {
    // The thread-leak incident's series has hundreds of threads (the leaked executors' workers).
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'thread-leak'));
    const rows = seriesRows(model, findings);
    expect(rows.length).toBeGreaterThan(TIMELINE_ROWS);
    const svg = seriesTimeline(model, rows, COLOURS);
    expect(svg.match(/text-anchor="end"/g)?.length).toBe(TIMELINE_ROWS);
    const cut = rows.slice(TIMELINE_ROWS);
    expect(svg).toContain(`… ${cut.length} more threads, ${cut.filter((r) => r.mark === 'steady').length} of them in one state throughout`);
  });
});
