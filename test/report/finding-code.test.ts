/**
 * Findings show the code: each deadlocked thread's frames down to its application frame, with the
 * lock it holds and the lock it waits for (and who holds that), in text, Markdown, HTML, JSON and
 * the UI; checked against what the fixture's program wrote about itself (truth.json), never against
 * hard-coded lines. Then a negative control (idle threads grow no code) and a hostile frame.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Evidence, Finding } from '../../src/model/findings.js';
import type { Model } from '../../src/model/model.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report } from '../../src/report/report.js';
import { renderText } from '../../src/report/text.js';
import { withCode } from '../../src/rules/support/thread-code.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { analyse, FIXTURES, scratchDir, TEST_TOOL } from '../helpers.js';
import { check, idlePoolWorker, many, modelOf } from '../rules/build.js';

interface ThreadTruth {
  readonly codeFrameMethod: string;
  readonly holds: readonly string[];
  readonly waitsFor: string;
  readonly waitsForOwner: string;
}

type ThreadEvidence = Extract<Evidence, { kind: 'thread' }>;

describe('deadlock findings show each thread’s code (real JVM, fixtures/threads/deadlock)', () => {
  let report: Report;
  let truth: Record<string, ThreadTruth>;
  let deadlocks: Finding[];
  beforeAll(async () => {
    const { model, findings } = await analyse([`${FIXTURES}/deadlock/dump-1.txt`]);
    report = { tool: TEST_TOOL, model, findings };
    truth = JSON.parse(readFileSync(`${FIXTURES}/deadlock/truth.json`, 'utf8')).threads;
    // The cycles the JVM itself reported: every edge has a named owner.
    deadlocks = findings.filter((f) => f.rule === 'deadlock' && f.facts['confidence'] === 'certain');
  });
  const cycleThreads = () => deadlocks.flatMap((f) => (f.facts['threads'] as string[]).map((name) => ({ f, name, t: truth[name]! })));

  it('the fixture has the cycles its program set up', () => {
    expect(deadlocks.length).toBeGreaterThanOrEqual(3);
    for (const { t, name } of cycleThreads()) expect(t, name).toBeDefined();
  });

  it('JSON: each thread of a cycle carries frames down to its application frame, with the locks held and awaited', () => {
    const doc = JSON.parse(renderJson(report));
    for (const { f, name, t } of cycleThreads()) {
      const found = doc.findings.find((x: Finding) => x.id === f.id) as Finding;
      const e = found.evidence.find((x): x is ThreadEvidence => x.kind === 'thread' && x.thread === name)!;
      expect(e.frames, name).toBeDefined();
      const app = e.frames!.filter((x) => x.application);
      expect(app, name).toHaveLength(1);
      expect(app[0]!.frame.startsWith(`${t.codeFrameMethod}(`), `${name}: ${app[0]!.frame}`).toBe(true);
      // No frame above the application frame is the application's.
      expect(e.frames!.every((x) => x.depth <= app[0]!.depth)).toBe(true);
      const locks = e.frames!.flatMap((x) => x.locks);
      const awaited = locks.filter((l) => l.kind === 'waiting-to-lock' || l.kind === 'parking');
      expect(
        awaited.map((l) => [l.className, l.heldBy]),
        name,
      ).toEqual([[t.waitsFor, t.waitsForOwner]]);
      const held = [...locks.filter((l) => l.kind === 'locked').map((l) => l.className), ...(e.holds ?? []).map((h) => h.className)];
      expect(held.sort(), name).toEqual([...t.holds].sort());
      expect(e.stackDepth).toBeGreaterThanOrEqual(app[0]!.depth + 1);
    }
  });

  it('text: under each thread of a cycle, its application frame, the lock it waits for and who holds it, the lock it holds', () => {
    const text = renderText(report, new Chalk({ level: 0 }));
    for (const { name, t } of cycleThreads()) {
      const start = text.indexOf(`    - "${name}" #0`);
      expect(start, name).toBeGreaterThan(0);
      const rest = text.slice(start).split('\n').slice(1);
      const code = rest.slice(
        0,
        rest.findIndex((l) => !l.startsWith('        ')),
      );
      expect(
        code.some((l) => l.trim().startsWith(`at ${t.codeFrameMethod}(`)),
        `${name}:\n${code.join('\n')}`,
      ).toBe(true);
      expect(
        code.some((l) => l.includes(`(a ${t.waitsFor}) held by "${t.waitsForOwner}"`)),
        name,
      ).toBe(true);
      for (const h of t.holds)
        expect(
          code.some((l) => /- locked /.test(l) && l.includes(`(a ${h})`)),
          `${name} holds ${h}`,
        ).toBe(true);
    }
  });

  it('Markdown: a fenced block per thread with its application frame and the lock lines', () => {
    const md = renderMarkdown(report);
    const blocks = [...md.matchAll(/^(`{3,})text\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!);
    for (const { name, t } of cycleThreads()) {
      const block = blocks.find((b) => b.startsWith(`"${name}" `));
      expect(block, name).toBeDefined();
      expect(block).toContain(`    at ${t.codeFrameMethod}(`);
      expect(block).toContain(`(a ${t.waitsFor}) held by "${t.waitsForOwner}"`);
      for (const h of t.holds) expect(block).toMatch(new RegExp(`- locked [^\\n]*\\(a ${h.replace(/[$.]/g, '\\$&')}\\)`));
    }
  });

  it('HTML: a visible block per thread, the application frame in bold, escaped', () => {
    const html = renderHtml(report);
    for (const { f, name, t } of cycleThreads()) {
      const section = html.slice(html.indexOf(`id="${f.id.replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`));
      const pre = /<pre class="code">&quot;(.*?)&quot;[\s\S]*?<\/pre>/g;
      const block = [...section.slice(0, section.indexOf('</section>')).matchAll(pre)].find((m) => m[1] === name)?.[0];
      expect(block, name).toBeDefined();
      expect(block).toContain(`<strong>at ${t.codeFrameMethod}(`);
      expect(block).toContain(`(a ${t.waitsFor}) held by &quot;${t.waitsForOwner}&quot;`);
      for (const h of t.holds) expect(block).toContain(`(a ${h})`);
    }
  });

  it('UI: the finding’s detail has the code, each thread a link to it', () => {
    const data = buildUiData(report.model, report.findings, 'deadlock');
    const rows = data.screens.find((s) => s.id === 'findings')!.rows;
    for (const { f, name, t } of cycleThreads()) {
      const detail = rows.find((r) => r.key === f.id)!.detail;
      const at = detail.findIndex((l) => l.text.startsWith(`  → "${name}" `) && l.link?.screen === 'threads');
      expect(at, name).toBeGreaterThan(detail.findIndex((l) => l.text === 'code'));
      const code = detail.slice(at + 1, at + 12).map((l) => l.text);
      expect(
        code.some((l) => l.trim().startsWith(`at ${t.codeFrameMethod}(`)),
        name,
      ).toBe(true);
      expect(
        code.some((l) => l.includes(`held by "${t.waitsForOwner}"`)),
        name,
      ).toBe(true);
    }
  });
});

describe('negative controls: what grows no code', () => {
  it('contention: a real owner and its waiters show code; idle workers taking turns on a server socket show none', async () => {
    // Positive: the contention fixture of a real JVM.
    const real = (await analyse([`${FIXTURES}/contention/dump-1.txt`])).findings.find((f) => f.rule === 'lock-contention')!;
    expect(real.evidence.some((e) => e.kind === 'thread' && e.note === 'owner' && e.frames !== undefined)).toBe(true);
    expect(real.evidence.some((e) => e.kind === 'thread' && e.note !== 'owner' && e.frames !== undefined)).toBe(true);
    // Negative: a leader/follower server's idle workers queued on its accept lock (an info: no line of code to blame).
    const socket = { id: '0x20', className: 'java.net.SocksSocketImpl' };
    const accept = [
      'java.net.PlainSocketImpl.accept',
      'java.net.ServerSocket.implAccept',
      'java.net.ServerSocket.accept',
      'org.acme.net.Endpoint.acceptSocket',
      'org.acme.net.Worker.run',
      'java.lang.Thread.run',
    ];
    const model = modelOf([
      {
        threads: [
          {
            name: 'http-8080-Processor1',
            frames: ['java.net.PlainSocketImpl.socketAccept(Native Method)', ...accept],
            locks: [{ at: 1, kind: 'locked', ...socket }],
          },
          ...many(6, 'http-8080-Processor1', () => ({
            state: 'BLOCKED' as const,
            detail: 'on object monitor',
            frames: accept,
            locks: [{ at: 0, kind: 'waiting-to-lock' as const, ...socket }],
          })),
        ],
      },
    ]);
    const [turns] = check('lock-contention', { name: 'taking turns', model: () => model, expect: [{ subject: 'java.net.SocksSocketImpl@0x20' }] });
    expect(turns?.facts['takingTurns']).toBe(true);
    const threads = turns!.evidence.filter((e): e is ThreadEvidence => e.kind === 'thread');
    expect(threads.length).toBeGreaterThan(5);
    for (const e of threads) expect(e.frames, e.thread).toBeUndefined();
  });

  it('withCode skips idle threads and repeated stacks, and stops at its limit', () => {
    const model: Model = modelOf([
      {
        threads: [
          { name: 'pool-1-thread-1', ...idlePoolWorker },
          { name: 'busy-1', frames: ['com.acme.A.a', 'java.lang.Thread.run'] },
          { name: 'busy-1-again', frames: ['com.acme.A.a', 'java.lang.Thread.run'] },
          { name: 'busy-2', frames: ['com.acme.B.b', 'java.lang.Thread.run'] },
          { name: 'busy-3', frames: ['com.acme.C.c', 'java.lang.Thread.run'] },
        ],
      },
    ]);
    const threads = model.dumps[0]!.threads;
    // Parsers intern identical stacks: the second thread shares the first one's frames.
    threads[2]!.frames = threads[1]!.frames;
    const evidence: Evidence[] = model.threadRefs[0]!.map((r) => ({ kind: 'thread', thread: r.name, index: r.thread, dump: 0, source: 'x', line: 1 }));
    const coded = (limit: number, everyStack = false) =>
      withCode(model, evidence, limit, everyStack)
        .filter((e): e is ThreadEvidence => e.kind === 'thread' && e.frames !== undefined)
        .map((e) => e.thread);
    expect(coded(2)).toEqual(['busy-1', 'busy-2']);
    expect(coded(5)).toEqual(['busy-1', 'busy-2', 'busy-3']);
    // A deadlock's threads may share their code and differ in their locks: each is shown.
    expect(coded(5, true)).toEqual(['busy-1', 'busy-1-again', 'busy-2', 'busy-3']);
  });
});

describe('a hostile frame', () => {
  // Hand-written (a format edge case, no JVM writes these): two threads in a monitor cycle whose
  // frames and lock classes carry markup, a mention, runs of backticks and terminal escapes.
  const evil = '<script>alert`1`</script>@user```x````';
  const esc = '\u001b[2J\u001b]8;;http://evil\u0007click\u001b]8;;\u0007';
  const text = [
    'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):',
    '',
    '"t-1" #1 prio=5 os_prio=0 tid=0x1 nid=0x1 waiting for monitor entry  [0x1]',
    '   java.lang.Thread.State: BLOCKED (on object monitor)',
    `\tat com.acme.Evil.m${evil}${esc}(Evil.java:1)`,
    `\t- waiting to lock <0x0000000000000abc> (a com.acme.${evil}B)`,
    `\t- locked <0x0000000000000def> (a com.acme.${esc}A)`,
    '\tat java.lang.Thread.run(Thread.java:840)',
    '',
    '"t-2" #2 prio=5 os_prio=0 tid=0x2 nid=0x2 waiting for monitor entry  [0x2]',
    '   java.lang.Thread.State: BLOCKED (on object monitor)',
    `\tat com.acme.Evil.n(Evil${evil}.java:2)`,
    `\t- waiting to lock <0x0000000000000def> (a com.acme.${esc}A)`,
    `\t- locked <0x0000000000000abc> (a com.acme.${evil}B)`,
    '\tat java.lang.Thread.run(Thread.java:840)',
    '',
  ].join('\n');

  it('stays inert in every format, and still reads', async () => {
    const dir = scratchDir('code');
    writeFileSync(join(dir, 'evil.txt'), text);
    const { model, findings } = await analyse([join(dir, 'evil.txt')]).finally(() => rmSync(dir, { recursive: true, force: true }));
    const deadlock = findings.find((f) => f.rule === 'deadlock')!;
    const coded = deadlock.evidence.filter((e): e is ThreadEvidence => e.kind === 'thread' && e.frames !== undefined);
    expect(coded).toHaveLength(2);
    // What the parser kept of the hostile lock class (it reads `/` as a package separator): markup, mention, backticks.
    const hostile = coded[0]!.frames!.flatMap((f) => f.locks).find((l) => l.className.includes('<script>'))!.className;
    expect(hostile).toMatch(/<script>.*@user.*````/);
    const report: Report = { tool: TEST_TOOL, model, findings };

    const html = renderHtml(report);
    expect(html).not.toMatch(/<script>/);
    expect(html).toContain(`(a ${hostile.replace(/</g, '&lt;').replace(/>/g, '&gt;')}) held by &quot;t-2&quot;`);

    const md = renderMarkdown(report);
    const code = [...md.matchAll(/^(`{3,})text\n([\s\S]*?)\n\1$/gm)].filter(([, , inside]) => inside!.includes(hostile));
    expect(code.length).toBeGreaterThanOrEqual(2);
    // Inside a fence nothing is markup or a mention, so long as no line of it can close the fence.
    for (const [, fence, inside] of code) {
      expect(fence!.length).toBeGreaterThan(4);
      expect(inside).not.toMatch(new RegExp(`^\\s*${fence}`, 'm'));
    }
    expect(md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '')).not.toMatch(/<script>/);

    const txt = renderText(report, new Chalk({ level: 0 }));
    expect(txt).toContain(`(a ${hostile}) held by "t-2"`);
    const ui = buildUiData(model, findings, 'evil');
    const detail = ui.screens
      .find((s) => s.id === 'findings')!
      .rows.flatMap((r) => r.detail)
      .map((l) => l.text)
      .join('\n');
    expect(detail).toContain(`(a ${hostile}) held by "t-2"`);
    // The escape sequences are gone from every format (JSON writes them as \u001b, never the byte).
    for (const out of [html, md, txt, detail, renderJson(report)]) expect(out).not.toMatch(/\u001b|\u0007/);
  });
});
