/**
 * Two heap dumps handed to analyze are each analysed on their own; the report points to
 * `memory --baseline`, which says what grew between them. One heap dump says nothing of it.
 */
import { describe, expect, it } from 'vitest';

import { analyseIncident } from '../../src/analysis/analyse.js';

const GROWTH = 'fixtures/heap/memory-beyond/growth';

async function notesOf(paths: string[]): Promise<string[]> {
  const r = await analyseIncident({ paths });
  if (r.outcome !== 'analysed') throw new Error('nothing analysed');
  return r.model.notes;
}

describe('several heap dumps in one analysis', { timeout: 120_000 }, () => {
  it('two heap dumps of one program: a note names both and the command that compares them', async () => {
    const notes = await notesOf([`${GROWTH}/heap-1.hprof.gz`, `${GROWTH}/heap-3.hprof.gz`]);
    const note = notes.find((n) => n.includes('memory --baseline'));
    expect(note).toContain('2 heap dumps');
    expect(note).toContain('heap-1.hprof.gz');
    expect(note).toContain('heap-3.hprof.gz');
  });

  it('negative control: one heap dump, no such note', async () => {
    const notes = await notesOf([`${GROWTH}/heap-1.hprof.gz`]);
    expect(notes.filter((n) => n.includes('--baseline'))).toEqual([]);
  });
});
