/**
 * The UI in a real pseudo-terminal (tmux): open incident 3, go to the leak finding, follow its evidence
 * to a thread, search, quit (and Ctrl-C: exit 130); the screen text is checked at each step. `.ci/run` installs tmux; without
 * it (a developer machine), the test says it was skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

const haveTmux = spawnSync('tmux', ['-V']).status === 0;
if (!haveTmux && !process.env['CI']) console.warn('SKIPPED: UI end-to-end test (tmux is not installed)');

const session = `dumpsleuth-e2e-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);

/** The screen once it shows `what`; the deadline catches a UI that never gets there (generous: a busy machine is slow, not wrong). */
async function waitFor(what: RegExp, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    last = screen();
    if (what.test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the screen never showed ${what}; it shows:\n${last}`);
}

async function keys(...list: string[]): Promise<void> {
  for (const k of list) {
    tmux('send-keys', '-t', session, k);
    await new Promise((r) => setTimeout(r, 80));
  }
}

describe.skipIf(!haveTmux && !process.env['CI'])('ui in a real terminal (tmux)', () => {
  // The built CLI, as people run it (its loading runs on a worker thread): test/global-setup.ts
  // builds it when src/ is newer.

  it('opens an incident, follows the leak finding to a thread, searches and quits', { timeout: 120_000 }, async () => {
    tmux('new-session', '-d', '-s', session, '-x', '130', '-y', '40', `node dist/cli.js ui fixtures/incidents/active-count-leak; echo EXIT=$?; sleep 10`);
    try {
      const first = await waitFor(/1 Overview.*2 Findings \(1\)/);
      // The first screen is the answer: the root cause, selected, and what to do first.
      expect(first).toMatch(/› CRITICAL +org\.apache\.dubbo\.demo\.DemoService#sayHello: the in-flight counter says 128/);
      expect(first).toMatch(/ {2}First: Find the completion path that skips the decrement/);

      await keys('2');
      const findings = await waitFor(/› CRITICAL\s+active-count-leak/);
      expect(findings).toContain('the in-flight counter says 128 (limit 128');

      await keys('Enter');
      await waitFor(/Enter follows the link/);
      await keys('Enter');
      const thread = await waitFor(/"DubboServerHandler-127\.0\.0\.1:20880-thread-1" WAITING/);
      expect(thread).toMatch(/› +#2 DubboServerHandler-127\.0\.0\.1:20880-thread-1 /);
      expect(thread).toContain('ThreadPoolExecutor.getTask');

      await keys('/', 'e', 'v', 'i', 'c', 't', 'o', 'r', 'Enter');
      const search = await waitFor(/filter "evictor"/);
      expect(search).toContain('async-context-evictor-1');
      expect(search).not.toContain('DubboServerHandler-127.0.0.1:20880-thread-1 ');

      await keys('Escape', 'q');
      const after = await waitFor(/EXIT=\d+/);
      expect(after).toContain('EXIT=0');
      // The alternate screen is gone: the UI's tabs are no longer on the terminal.
      expect(after).not.toContain('2 Findings (1)');
    } finally {
      spawnSync('tmux', ['kill-session', '-t', session]);
    }
  });

  // Issue 46: Ctrl-C once the screens are up ended with 0 (it quit as q does); the README says 130.
  it('Ctrl-C on the screens ends with 130, as an interrupt, and restores the terminal', { timeout: 120_000 }, async () => {
    tmux('new-session', '-d', '-s', session, '-x', '130', '-y', '40', `node dist/cli.js ui fixtures/incidents/active-count-leak; echo EXIT=$?; sleep 10`);
    try {
      await waitFor(/1 Overview.*2 Findings \(1\)/);
      await keys('2');
      await waitFor(/› CRITICAL\s+active-count-leak/);
      await keys('C-c');
      const after = await waitFor(/EXIT=\d+/);
      expect(after).toContain('EXIT=130');
      expect(after).not.toContain('2 Findings (1)');
    } finally {
      spawnSync('tmux', ['kill-session', '-t', session]);
    }
  });

  // Issue 49: two heap dumps of one JVM get the Growth screen (key 0); one alone does not.
  it('compares two heap dumps on the Growth screen, and follows the holder to the Memory screen', { timeout: 180_000 }, async () => {
    const g = 'fixtures/heap/memory-beyond/growth';
    tmux('new-session', '-d', '-s', session, '-x', '130', '-y', '40', `node dist/cli.js ui ${g}/heap-1.hprof.gz ${g}/heap-2.hprof.gz; echo EXIT=$?; sleep 10`);
    try {
      const overview = await waitFor(/9 Calls.*0 Growth/);
      expect(overview).toContain('com.example.orders.OrderAuditTrail.ENTRIES (static) grew most');
      await keys('0');
      await waitFor(/› Growth over 2 heap dumps/);
      await keys('j', 'Enter');
      const holder = await waitFor(/Enter follows the link/);
      expect(holder).toContain('static ENTRIES -> java.util.HashMap');
      await keys('Enter');
      // The holder's row in the dominator tree, selected.
      await waitFor(/›.*java\.util\.HashMap\$Node\[\] 0x/);
      await keys('q');
      expect(await waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    } finally {
      spawnSync('tmux', ['kill-session', '-t', session]);
    }
  });
});
