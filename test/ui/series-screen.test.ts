/** The UI's Series screen: deadlocked and stuck threads first, marked, as the HTML timeline lists them. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { defaultConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { RULES } from '../../src/rules/index.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { fit } from '../../src/ui/state/layout.js';
import { analyseIncident, INCIDENTS } from '../helpers.js';
import { modelOf, type ThreadSpec } from '../rules/build.js';

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

  it('cuts a long thread name to its column: the mark and the states stay on an 80-column screen, the whole name in the detail', () => {
    const name = `order-processing-worker-for-tenant-${'x'.repeat(80)}-7`;
    const worker: ThreadSpec = {
      name,
      state: 'BLOCKED',
      frames: ['com.acme.Orders.save', 'com.acme.Api.handle'],
      locks: [{ at: 0, kind: 'waiting-to-lock', ...LOCK }],
    };
    const holder: ThreadSpec = {
      name: 'holder',
      state: 'RUNNABLE',
      frames: ['java.net.SocketInputStream.socketRead0', 'com.acme.Orders.flush'],
      locks: [{ at: 1, kind: 'locked', ...LOCK }],
    };
    const model = modelOf(['10:00:00', '10:00:05'].map((t) => ({ at: `2026-12-03T${t}`, threads: [worker, holder] })));
    const findings = runRules(model, RULES, defaultConfig(RULES));
    const row = buildUiData(model, findings, 't')
      .screens.find((s) => s.id === 'series')!
      .rows.find((r) => r.key.endsWith(name) || r.detail[0]?.text === name)!;
    const onScreen = fit(row.text, 79);
    expect(onScreen).toMatch(/^order-processing-worker-for-tenant-x+… STUCK +BLOC BLOC$/);
    expect(row.detail[0]!.text).toBe(name);
    expect(row.search).toContain(name.toLowerCase());
  });
});

const LOCK = { id: '0x10', className: 'com.acme.Orders' };
