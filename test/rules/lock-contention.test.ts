/**
 * lock-contention: hand-built cases (many waiters on one owner, the threshold as an option, an owner
 * held by a deadlock, and the controls: too few waiters, a semaphore, a lock inside a cycle), then
 * real JVMs' dumps, with a series in which a compacting GC moved the contended monitor.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, test } from 'vitest';

import { resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { renderText } from '../../src/report/text.js';
import { RULES } from '../../src/rules/index.js';
import { analyse, byRule, FIXTURES, scratchDir, TEST_TOOL } from '../helpers.js';
import { type Case, check, type LockSpec, many, modelOf, type ThreadSpec } from './build.js';

const CACHE = { id: '0x10', className: 'com.acme.SharedCache' };
const holds = (l: { id: string; className: string }, at = 1): LockSpec => ({ at, kind: 'locked', ...l });
const owner: ThreadSpec = {
  name: 'cache-refresher',
  state: 'TIMED_WAITING',
  detail: 'sleeping',
  frames: ['java.lang.Thread.sleep', 'com.acme.SharedCache.refresh'],
  locks: [holds(CACHE)],
};
const waiters = (n: number, lock: { id: string; className: string } = CACHE): ThreadSpec[] =>
  many(n, 'reader-', () => ({
    state: 'BLOCKED',
    detail: 'on object monitor',
    frames: ['com.acme.SharedCache.get', 'com.acme.Api.handle'],
    locks: [{ at: 0, kind: 'waiting-to-lock', ...lock }],
  }));

const CASES: Case[] = [
  {
    name: 'five threads blocked on a monitor a sleeping thread holds',
    model: () => modelOf([{ threads: [owner, ...waiters(5)] }]),
    expect: [
      {
        subject: 'com.acme.SharedCache@0x10',
        severity: 'warning',
        facts: { waiters: 5, owner: 'cache-refresher', lockId: '0x10' },
        message: /held by "cache-refresher", which is TIMED_WAITING \(sleeping\) in java.lang.Thread.sleep/,
      },
    ],
  },
  { name: 'negative control: four waiters are below the default threshold', model: () => modelOf([{ threads: [owner, ...waiters(4)] }]), expect: [] },
  {
    name: 'the threshold is an option',
    model: () => modelOf([{ threads: [owner, ...waiters(3)] }]),
    options: { minWaiters: 3 },
    expect: [{ subject: 'com.acme.SharedCache@0x10', facts: { waiters: 3 } }],
  },
  {
    name: 'negative control: threads queued on a semaphore are a saturated limit, not contention',
    model: () => {
      const sem = { id: '0x20', className: 'java.util.concurrent.Semaphore$NonfairSync' };
      const parked = many(6, 'limited-', () => ({
        state: 'WAITING',
        detail: 'parking',
        frames: [
          'jdk.internal.misc.Unsafe.park(Native Method)',
          'java.util.concurrent.locks.LockSupport.park',
          'java.util.concurrent.Semaphore.acquire',
          'com.acme.Limiter.enter',
        ],
        locks: [{ at: 0, kind: 'parking', ...sem }],
      }));
      return modelOf([{ threads: parked }]);
    },
    expect: [],
  },
  {
    name: 'an owner caught in a deadlock: the deadlock is the cause',
    model: () => {
      const a = { id: '0x1', className: 'com.acme.Account' };
      const b = { id: '0x2', className: 'com.acme.Account' };
      const cycle: ThreadSpec[] = [
        {
          name: 'teller-1',
          state: 'BLOCKED',
          frames: ['com.acme.Ledger.transfer'],
          locks: [{ at: 0, kind: 'waiting-to-lock', ...b }, holds(a, 0), holds(CACHE, 0)],
        },
        { name: 'teller-2', state: 'BLOCKED', frames: ['com.acme.Ledger.transfer'], locks: [{ at: 0, kind: 'waiting-to-lock', ...a }, holds(b, 0)] },
      ];
      return modelOf([{ threads: [...cycle, ...waiters(5)] }]);
    },
    expect: [{ subject: 'com.acme.SharedCache@0x10', facts: { owner: 'teller-1' }, causedBy: ['deadlock:teller-1 <-> teller-2'] }],
  },
  {
    name: 'an owner stuck in one write in every dump of the series: its stuck-threads finding is the cause',
    model: () => modelOf(['10:00:00', '10:00:05', '10:00:10'].map((t) => ({ at: `2026-12-03T${t}`, threads: [writer(WRITE), ...waiters(5)] }))),
    expect: [{ subject: 'com.acme.SharedCache@0x10', facts: { owner: 'cache-writer' }, causedBy: ['stuck-threads:com.acme.SharedCache.flush (RUNNABLE)'] }],
  },
  {
    name: 'negative control: an owner that moves on between dumps (a slow writer, not a stuck one) names no stuck-threads cause',
    model: () =>
      modelOf([
        { at: '2026-12-03T10:00:00', threads: [writer(WRITE), ...waiters(5)] },
        { at: '2026-12-03T10:00:05', threads: [writer(['java.io.FileOutputStream.writeBytes', 'com.acme.SharedCache.compact']), ...waiters(5)] },
      ]),
    expect: [{ subject: 'com.acme.SharedCache@0x10', facts: { owner: 'cache-writer' }, causedBy: [] }],
  },
  {
    name: 'negative control: an owner that waits for another lock in the same place as its waiters names no stuck group (it would be their own)',
    model: () =>
      modelOf(
        ['10:00:00', '10:00:05'].map((t) => ({
          at: `2026-12-03T${t}`,
          threads: [
            {
              name: 'nested-owner',
              state: 'BLOCKED',
              frames: ['com.acme.SharedCache.get', 'com.acme.Api.handle'],
              locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x20', className: 'com.acme.Index' }, holds(CACHE, 0)],
            },
            {
              name: 'index-holder',
              state: 'TIMED_WAITING',
              detail: 'sleeping',
              frames: ['java.lang.Thread.sleep', 'com.acme.Index.rebuild'],
              locks: [holds({ id: '0x20', className: 'com.acme.Index' })],
            },
            ...waiters(5),
          ],
        })),
      ),
    expect: [{ subject: 'com.acme.SharedCache@0x10', facts: { owner: 'nested-owner' }, causedBy: [] }],
  },
  {
    name: 'negative control: one dump is no series, so nothing is stuck',
    model: () => modelOf([{ threads: [writer(WRITE), ...waiters(5)] }]),
    expect: [{ subject: 'com.acme.SharedCache@0x10', causedBy: [] }],
  },
];

/** A thread writing to a socket while it holds the cache's monitor. */
const WRITE = ['java.net.SocketOutputStream.socketWrite0', 'java.net.SocketOutputStream.write', 'com.acme.SharedCache.flush'];
function writer(frames: string[]): ThreadSpec {
  return { name: 'cache-writer', state: 'RUNNABLE', frames: [...frames, 'com.acme.Api.handle'], locks: [holds(CACHE, frames.length - 1)] };
}

describe('lock-contention: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('lock-contention', c));
});

describe('lock-contention on real JVMs', () => {
  test('negative control: two waiters are not contention', async () => {
    const { findings } = await analyse([`${FIXTURES}/threadinfo/Dubbo_JStack.log`]);
    expect(byRule(findings, 'lock-contention')).toEqual([]);
  });
  test('the threshold is an option', async () => {
    const { model } = await analyse([`${FIXTURES}/threadinfo/Dubbo_JStack.log`]);
    const config = resolveConfig(RULES, { rules: { 'lock-contention': ['warning', { minWaiters: 2 }] } }, 'test');
    const f = byRule(runRules(model, RULES, config), 'lock-contention');
    expect(f.map((x) => x.facts['owner'])).toEqual(['inventory-holder']);
  });
});

describe('lock-contention across a series', () => {
  // Hand-modified copies of a real dump (a format edge case): three dumps of one JVM, seconds apart,
  // where a compacting GC moved the contended SharedCache monitor before the second dump.
  async function series(moveInSecond: boolean, otherOwnerInSecond = false) {
    const text = readFileSync(`${FIXTURES}/contention/dump-1.txt`, 'utf8');
    const dir = scratchDir('moved');
    const files = [0, 1, 2].map((i) => {
      let t = text.replace('2026-11-30 09:30:43', `2026-11-30 09:30:4${3 + i * 2}`);
      if (i === 1 && moveInSecond) t = t.replaceAll('0x00000000ffd7f130', '0x00000000ffe00008');
      if (i === 1 && otherOwnerInSecond) t = t.replace('"monitor-holder" #12', '"another-holder" #12');
      const f = join(dir, `dump-${i + 1}.txt`);
      writeFileSync(f, t);
      return f;
    });
    return byRule((await analyse(files)).findings, 'lock-contention').filter((f) => String(f.facts['lockClass']) === 'SharedCache');
  }

  test('the same monitor in three dumps is one finding', async () => {
    const f = await series(false);
    expect(f.length).toBe(1);
    expect(f[0]!.facts['dumps']).toEqual([0, 1, 2]);
  });

  test('moved by a GC between dumps (same class, same owner): still one finding, both addresses named', async () => {
    const f = await series(true);
    expect(f.length).toBe(1);
    expect(f[0]!.facts['dumps']).toEqual([0, 2, 1]);
    expect(f[0]!.facts['lockIds']).toEqual(['0x00000000ffd7f130', '0x00000000ffe00008']);
  });

  test('negative control: a new address held by another thread is another contention', async () => {
    const f = await series(true, true);
    expect(f.length).toBe(2);
    expect(f.map((x) => x.facts['owner']).sort()).toEqual(['another-holder', 'monitor-holder']);
  });
});

describe("the owner's name in the text report", () => {
  test('terminal control sequences in thread names are stripped from text', async () => {
    // A real dump with one thread renamed: Java allows any character in a thread name.
    const evil = 'monitor-\u001b]0;owned\u0007\u001b[2Jholder';
    const dir = scratchDir('evil');
    const path = join(dir, 'dump.txt');
    writeFileSync(path, readFileSync(`${FIXTURES}/contention/dump-1.txt`, 'utf8').replaceAll('"monitor-holder"', `"${evil}"`));
    const { model, findings } = await analyse([path]);
    expect(model.dumps[0]!.threads.some((t) => t.name === evil)).toBe(true);
    const text = renderText({ tool: TEST_TOOL, model, findings }, new Chalk({ level: 0 }));
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('held by "monitor-holder"');
  });
});

const SERVER_SOCKET = { id: '0x20', className: 'java.net.SocksSocketImpl' };
/** A Tomcat 5 style leader/follower worker: accepting on the shared server socket inside its loop. */
const acceptFrames = [
  'java.net.PlainSocketImpl.accept',
  'java.net.ServerSocket.implAccept',
  'java.net.ServerSocket.accept',
  'org.acme.net.Endpoint.acceptSocket',
  'org.acme.net.Worker.run',
  'java.lang.Thread.run',
];
const LATCH = { id: '0x30', className: 'java.util.concurrent.CountDownLatch$Sync' };

const IDEAS: Case[] = [
  {
    name: 'idle workers taking turns to accept on one server socket: an info, not contention',
    model: () =>
      modelOf([
        {
          threads: [
            {
              name: 'http-8080-Processor1',
              state: 'RUNNABLE',
              frames: ['java.net.PlainSocketImpl.socketAccept(Native Method)', ...acceptFrames],
              locks: [holds(SERVER_SOCKET, 1)],
            },
            ...many(6, 'http-8080-Processor1', () => ({
              state: 'BLOCKED',
              detail: 'on object monitor',
              frames: acceptFrames,
              locks: [{ at: 0, kind: 'waiting-to-lock', ...SERVER_SOCKET }],
            })),
          ],
        },
      ]),
    expect: [{ subject: 'java.net.SocksSocketImpl@0x20', severity: 'info', facts: { takingTurns: true }, message: /idle threads take turns/ }],
  },
  {
    name: 'past the first hop: the owner itself waits for a latch nobody holds, and the finding says so',
    model: () =>
      modelOf([
        {
          threads: [
            {
              name: 'cache-refresher',
              state: 'WAITING',
              detail: 'parking',
              frames: [
                'jdk.internal.misc.Unsafe.park(Native Method)',
                'java.util.concurrent.locks.LockSupport.park',
                'java.util.concurrent.CountDownLatch.await',
                'com.acme.SharedCache.refresh',
                'java.lang.Thread.run',
              ],
              locks: [{ at: 0, kind: 'parking', ...LATCH }, holds(CACHE, 3)],
            },
            ...waiters(5),
          ],
        },
      ]),
    expect: [
      {
        subject: 'com.acme.SharedCache@0x10',
        message: /waits for a CountDownLatch.*no thread in this dump holds it/,
        facts: { ownerWaitChain: /CountDownLatch/ },
      },
    ],
  },
  {
    name: 'a lock of a deadlock cycle that five more threads queue on is contention too, caused by the deadlock',
    model: () =>
      modelOf([
        {
          threads: [
            {
              name: 'a',
              state: 'BLOCKED',
              frames: ['com.acme.A.run', 'java.lang.Thread.run'],
              locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x41', className: 'com.acme.B' }, holds({ id: '0x40', className: 'com.acme.A' }, 0)],
            },
            {
              name: 'b',
              state: 'BLOCKED',
              frames: ['com.acme.B.run', 'java.lang.Thread.run'],
              locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x40', className: 'com.acme.A' }, holds({ id: '0x41', className: 'com.acme.B' }, 0)],
            },
            ...many(5, 'queued-', () => ({
              state: 'BLOCKED',
              frames: ['com.acme.A.read', 'java.lang.Thread.run'],
              locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x40', className: 'com.acme.A' }],
            })),
          ],
        },
      ]),
    expect: [{ subject: 'com.acme.A@0x40', causedBy: ['deadlock:a <-> b'] }],
  },
];

describe('lock-contention: turns, chains and deadlocks', () => {
  for (const c of IDEAS) test(c.name, () => void check('lock-contention', c));
});
