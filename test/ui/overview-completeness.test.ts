/**
 * The UI's first screen says, above the answer, what every report says at its top: an input read only
 * in part, or a file of the incident not read. A whole incident says nothing of the kind.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildUiData } from '../../src/ui/build-view.js';
import { analyseIncident, FIXTURES, scratchDir } from '../helpers.js';

describe('the Overview says what was not read', () => {
  it('a PNG saved as heap.hprof beside the dump: the first row, with each file in its detail', async () => {
    const dir = scratchDir('ui-left-out');
    copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), join(dir, 'dump-1.txt'));
    writeFileSync(join(dir, 'heap.hprof'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const { model, findings } = await analyseIncident(dir);
    const overview = buildUiData(model, findings, 't').screens.find((s) => s.id === 'overview')!;
    const first = overview.rows[0]!;
    expect(first.tone).toBe('warning');
    expect(first.text).toMatch(/^Incomplete: this report stands on part of the evidence: \S+heap\.hprof was not read: it is a PNG image/);
    expect(first.detail.map((d) => d.text).join('\n')).toMatch(/heap\.hprof was not read/);
  });

  it('stray files alone: listed after the answer, dim, which stays the first row', async () => {
    const dir = scratchDir('ui-stray');
    copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), join(dir, 'dump-1.txt'));
    writeFileSync(join(dir, 'notes.md'), 'what we saw\n');
    const { model, findings } = await analyseIncident(dir);
    const rows = buildUiData(model, findings, 't').screens.find((s) => s.id === 'overview')!.rows;
    expect(rows[0]!.key).toMatch(/^cause:/);
    const notRead = rows.find((r) => r.key === 'completeness')!;
    expect(notRead.tone).toBe('dim');
    expect(notRead.text).toMatch(/^Not read: \S+notes\.md was not read/);
  });

  it('negative control: a whole incident opens with its answer', async () => {
    const { model, findings } = await analyseIncident('fixtures/incidents/heap-deadlock');
    const overview = buildUiData(model, findings, 't').screens.find((s) => s.id === 'overview')!;
    expect(overview.rows.map((r) => r.key)).not.toContain('completeness');
  });
});
