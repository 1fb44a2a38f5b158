/** The UI's Series screen: deadlocked and stuck threads first, marked, as the HTML timeline lists them. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildUiData } from '../../src/ui/build-view.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';

describe('Series screen', () => {
  it('lists the deadlocked threads first, each marked DEADLOCKED', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'heap-deadlock'));
    const series = buildUiData(model, findings, 't').screens.find((s) => s.id === 'series')!;
    const deadlocked = new Set(model.locks.deadlocks.flatMap((d) => d.threads.map((t) => t.name)));
    const first = series.rows.slice(0, deadlocked.size);
    expect(first.every((r) => r.text.includes('DEADLOCKED') && r.tone === 'error')).toBe(true);
    expect(series.rows.slice(deadlocked.size).some((r) => r.text.includes('DEADLOCKED'))).toBe(false);
  });

  it('lists the stuck threads next, marked STUCK', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'tomcat-stuck-requests'));
    const series = buildUiData(model, findings, 't').screens.find((s) => s.id === 'series')!;
    const stuck = new Set(
      findings.filter((f) => f.rule === 'stuck-threads').flatMap((f) => f.evidence.flatMap((e) => (e.kind === 'thread' ? [e.thread] : []))),
    );
    expect(stuck.size).toBeGreaterThan(0);
    const marked = series.rows.filter((r) => r.text.includes('STUCK'));
    expect(marked.length).toBe(stuck.size);
    expect(series.rows.slice(0, stuck.size)).toEqual(marked);
  });
});
