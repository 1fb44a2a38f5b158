/**
 * What an incident directory's capture.json adds to its analysis: a failed step of dumpsleuth's
 * capture is a note of the report (the heap dump asked for first), a capture whose every step went
 * well adds nothing, and another tool's capture.json is skipped like any file that is not an input.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analyseIncident } from '../../src/analysis/analyse.js';
import { scratchDir } from '../helpers.js';

const step = (what: string, ok: boolean, error?: string) => ({ what, startedAt: '2026-12-01T10:00:00.000Z', seconds: 0.5, ok, ...(error ? { error } : {}) });

/** An incident directory with a real thread dump and this capture.json. */
function incident(manifest: unknown): string {
  const dir = scratchDir('manifest');
  copyFileSync('fixtures/threads/deadlock/dump-1.txt', join(dir, 'threads-1.txt'));
  writeFileSync(join(dir, 'capture.json'), JSON.stringify(manifest));
  return dir;
}

async function analysed(dir: string): Promise<{ notes: string[]; skipped: string[] }> {
  const skipped: string[] = [];
  const r = await analyseIncident({ paths: [dir] }, { onSkipped: (path) => skipped.push(path) });
  if (r.outcome !== 'analysed') throw new Error('nothing analysed');
  return { notes: r.model.notes, skipped };
}

describe("a capture directory's manifest", () => {
  it('a failed heap step is a note, before the other failed steps; a step that went well is not', async () => {
    const dir = incident({
      schema: 'dumpsleuth.capture/1',
      steps: [
        step('thread dump 1 of 1', true),
        step('log /var/log/app.log', false, 'there is no such file'),
        step('heap dump (live objects, gzip)', false, 'jcmd GC.heap_dump says: Dump file is incomplete: File too large'),
      ],
    });
    const { notes, skipped } = await analysed(dir);
    const manifest = join(dir, 'capture.json');
    expect(notes.filter((n) => n.startsWith(manifest))).toEqual([
      `${manifest}: the heap dump asked for (capture --heap) is missing: jcmd GC.heap_dump says: Dump file is incomplete: File too large; ` +
        'no heap dump of this capture was read',
      `${manifest}: the capture's step "log /var/log/app.log" failed: there is no such file`,
    ]);
    expect(skipped).toEqual([]);
  });

  it('negative control: a capture whose every step went well adds no note', async () => {
    const dir = incident({ schema: 'dumpsleuth.capture/1', steps: [step('thread dump 1 of 1', true), step('heap dump (live objects, gzip)', true)] });
    const { notes, skipped } = await analysed(dir);
    expect(notes.filter((n) => n.includes('capture.json'))).toEqual([]);
    expect(skipped).toEqual([]);
  });

  it("another tool's capture.json is skipped like any file that is not an input, and says nothing of a heap", async () => {
    const dir = incident({ steps: [{ what: 'heap dump', ok: false }] });
    const { notes, skipped } = await analysed(dir);
    expect(notes.filter((n) => n.includes('capture.json'))).toEqual([]);
    expect(skipped).toEqual([join(dir, 'capture.json')]);
  });

  it("a capture.json far bigger than a manifest is not read whole: another tool's, skipped", async () => {
    // dumpsleuth's own schema, a failed heap step, and 5 MB of padding: read whole, it would be a note.
    const dir = incident({
      schema: 'dumpsleuth.capture/1',
      steps: [step('heap dump (live objects, gzip)', false, 'jcmd GC.heap_dump failed')],
      padding: 'x'.repeat(5 * 1024 * 1024),
    });
    const { notes, skipped } = await analysed(dir);
    expect(notes.filter((n) => n.includes('capture.json'))).toEqual([]);
    expect(skipped).toEqual([join(dir, 'capture.json')]);
  });

  it('many failed steps: the first eight listed, the rest counted', async () => {
    const dir = incident({
      schema: 'dumpsleuth.capture/1',
      steps: Array.from({ length: 11 }, (_, k) => step(`log /l/${k}.log`, false, 'there is no such file')),
    });
    const { notes } = await analysed(dir);
    const ofManifest = notes.filter((n) => n.includes('capture.json'));
    expect(ofManifest).toHaveLength(9);
    expect(ofManifest[8]).toMatch(/: 3 more steps of the capture failed \(listed there\)$/);
  });
});
