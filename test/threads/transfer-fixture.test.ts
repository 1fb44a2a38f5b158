/**
 * Verdicts that must come from evidence any vendor's code gives (issue 47): the JDK's public API a
 * thread called, the CPU it used between dumps (cpu= of JDK 11+ headers), and silence where nothing
 * shows work. A real JVM (fixtures/programs/transfer/Transfer.java with a native library of
 * abbreviated names, truth.json written by the program), three dumps five seconds apart.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyse, FIXTURES, scratchDir, truth } from '../helpers.js';

const DUMPS = [1, 2, 3].map((n) => `${FIXTURES}/transfer/dump-${n}.txt`);

describe('transfer fixture (a real JVM, three dumps five seconds apart)', async () => {
  const t = await truth('transfer');
  const { model, findings } = await analyse(DUMPS);
  const verdict = (name: string, dump: number) => {
    const i = model.dumps[dump]!.threads.findIndex((th) => th.name === name);
    expect(i, `${name} in dump ${dump}`).toBeGreaterThanOrEqual(0);
    return model.activity[dump]![i]!;
  };

  test.each(Object.entries(t.threads as Record<string, { activity: string; why: string }>))('%s', (name, want) => {
    for (let d = 0; d < model.dumps.length; d++) {
      const v = verdict(name, d);
      expect(v.activity, `${name} in dump ${d}: ${v.reason} (truth: ${want.why})`).toBe(want.activity);
    }
  });

  test('each verdict says what decided it: the API called, the CPU measured, or that nothing shows work', () => {
    expect(verdict('shell-session-1', 1).reason).toMatch(/through java\.io\.InputStreamReader\.read \(waiting in java\.lang\.Object\.wait above it\)/);
    expect(verdict('vendor-listener', 1).reason).toMatch(/NativeListener\.ACCPTP but used no CPU between dumps #\d and #\d \(cpu= did not move/);
    expect(verdict('vendor-listener', 1).basis).toBe('no-cpu');
    expect(verdict('selector-spinner', 1).reason).toMatch(/used \d+ % of a core between dumps .* although its frames read as a wait/);
    expect(verdict('event-watcher', 1).reason).toMatch(/frames deep in its own thread .* nothing shows it is inside a piece of work/);
    expect(verdict('native-cruncher', 1).basis).toBe('native');
  });

  test('stuck: the loops burning CPU in one place and the holder of a lock others need; never the idle ones', () => {
    const stuck = findings.filter((f) => f.rule === 'stuck-threads' && f.severity !== 'info').flatMap((f) => f.facts['threads'] as string[]);
    expect(stuck).toEqual(expect.arrayContaining(['native-cruncher', 'selector-spinner', 'guarding-watcher']));
    for (const idle of ['shell-session-1', 'vendor-listener', 'event-watcher']) expect(stuck, idle).not.toContain(idle);
    const hot = findings.filter((f) => f.rule === 'cpu-hot-threads').flatMap((f) => f.facts['threads'] as string[]);
    expect(hot).toEqual(expect.arrayContaining(['native-cruncher', 'selector-spinner']));
    for (const idle of ['shell-session-1', 'vendor-listener', 'event-watcher']) expect(hot, idle).not.toContain(idle);
  });
});

describe('the same dumps without cpu= (a JDK 8 header has none): unknown means silent', async () => {
  // Derived from the real dumps (a format change only): every header's cpu= and elapsed= removed.
  const dir = scratchDir('nocpu');
  const paths = await Promise.all(
    DUMPS.map(async (p, k) => {
      const text = (await readFile(p, 'utf8')).replace(/ cpu=[\d.]+ms elapsed=[\d.]+s/g, '');
      const out = join(dir, `dump-${k + 1}.txt`);
      await writeFile(out, text);
      return out;
    }),
  );
  const { model, findings } = await analyse(paths);

  test('a vendor native method in a thread of its own: neither idle nor a warning, a note that says nothing shows work', () => {
    const d = model.dumps.length - 1;
    const i = model.dumps[d]!.threads.findIndex((th) => th.name === 'vendor-listener');
    expect(model.activity[d]![i]!.basis).toBe('native');
    const f = findings.find((x) => x.rule === 'stuck-threads' && (x.facts['threads'] as string[]).includes('vendor-listener'));
    expect(f?.severity).toBe('info');
    expect(f?.message).toMatch(/Nothing shows work/);
  });

  test('with top -H beside them, top measures what cpu= did: the native accept waits, the native loop burns a core', async () => {
    const tops = [1, 2, 3].map((n) => `${FIXTURES}/transfer/top-${n}.txt`);
    const withTop = await analyse([...paths, ...tops]);
    const d = withTop.model.dumps.length - 1;
    const of = (name: string) => withTop.model.activity[d]![withTop.model.dumps[d]!.threads.findIndex((th) => th.name === name)]!;
    expect(of('vendor-listener').basis).toBe('no-cpu');
    expect(of('vendor-listener').reason).toMatch(/used no CPU in top -H beside the dumps/);
    expect(of('native-cruncher').activity).toBe('working');
    const hot = withTop.findings.filter((f) => f.rule === 'cpu-hot-threads').flatMap((f) => f.facts['threads'] as string[]);
    expect(hot).toContain('native-cruncher');
    expect(hot).not.toContain('vendor-listener');
  });

  test('control: a thread blocked on a lock held by one that waits is still a warning without CPU figures', () => {
    const f = findings.find((x) => x.rule === 'stuck-threads' && (x.facts['threads'] as string[]).includes('guarding-watcher'));
    expect(f?.severity).toBe('warning');
  });
});
