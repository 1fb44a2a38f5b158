/**
 * io-thread-blocked on a real JVM running Debian's Netty 4 (fixtures/generate-runtime-incidents.sh):
 * a provider that runs its service on the event loops (Dubbo's dispatcher=direct), three loops held
 * by a lock and a future in application code; the control is a second server whose loops hand the
 * work to an executor and sit in their selector. Also: one dump is enough for a waiting loop, and
 * the other fixture incidents are in test/incidents/expected-rules.test.ts.
 */
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { analyseFiles, analyseIncident, INCIDENTS, truthOf } from '../helpers.js';
import { type Case, check, modelOf, type ThreadSpec } from './build.js';

const DIR = join(INCIDENTS, 'netty-blocked-event-loops');
const truth = truthOf('netty-blocked-event-loops') as {
  facts: { blockedLoops: number; loopPrefix: string; onLock: number; onFuture: number; service: string; healthyLoops: string };
};
type Found = { rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown> };
const ioFindings = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'io-thread-blocked') as Found[];

describe('io-thread-blocked', { timeout: 60_000 }, () => {
  test("the provider's held event loops, in the service's code, and not the healthy server's loops", async () => {
    const found = ioFindings((await analyseIncident(DIR)).findings);
    expect(found).toHaveLength(1);
    const f = found[0]!;
    expect(f.subject.startsWith(truth.facts.loopPrefix)).toBe(true);
    expect(f.facts['held']).toBe(truth.facts.blockedLoops);
    expect(f.facts['applicationCode']).toEqual([truth.facts.service]);
    expect(f.message.match(/BLOCKED on a monitor/g)).toHaveLength(truth.facts.onLock);
    expect(f.message.match(/WAITING \(parking\)/g)).toHaveLength(truth.facts.onFuture);
    expect(f.message).not.toContain(truth.facts.healthyLoops);
    // Every loop the provider started is held: the provider is frozen.
    expect(f.severity).toBe('error');
    expect(f.facts['dumpsHeld']).toEqual([3, 3, 3]);
  });

  test('one dump is enough for a loop that waits', async () => {
    const [f] = ioFindings((await analyseFiles([join(DIR, 'dump-2.txt')])).findings);
    expect(f!.facts['held']).toBe(truth.facts.blockedLoops);
    expect(f!.facts['dumpsHeld']).toEqual([1, 1, 1]);
  });
});

const NETTY_LOOP = [
  'io.netty.channel.nio.NioEventLoop.processSelectedKeys',
  'io.netty.channel.nio.NioEventLoop.run',
  'io.netty.util.concurrent.SingleThreadEventExecutor$4.run',
  'java.lang.Thread.run',
];
const onLock = (name: string): ThreadSpec => ({
  name,
  state: 'BLOCKED',
  detail: 'on object monitor',
  frames: [
    'com.acme.OrderService.book',
    'com.acme.DirectHandler.channelRead',
    'io.netty.channel.AbstractChannelHandlerContext.invokeChannelRead',
    ...NETTY_LOOP,
  ],
  locks: [{ at: 0, kind: 'waiting-to-lock', id: '0x40', className: 'com.acme.Ledger' }],
});
const inSelector = (name: string): ThreadSpec => ({
  name,
  state: 'RUNNABLE',
  frames: [
    'sun.nio.ch.EPoll.wait(Native Method)',
    'sun.nio.ch.EPollSelectorImpl.doSelect',
    'sun.nio.ch.SelectorImpl.select',
    'io.netty.channel.nio.NioEventLoop.select',
    'io.netty.channel.nio.NioEventLoop.run',
    'io.netty.util.concurrent.SingleThreadEventExecutor$4.run',
    'java.lang.Thread.run',
  ],
});

const HAND_BUILT: Case[] = [
  {
    name: "both loops of a group blocked on a monitor in the service's code",
    model: () => modelOf([{ threads: [onLock('NettyServerWorker-3-1'), onLock('NettyServerWorker-3-2')] }]),
    expect: [{ subject: 'NettyServerWorker-3', severity: 'error', facts: { held: 2, applicationCode: ['com.acme.OrderService.book'] } }],
  },
  {
    name: 'one loop of two held: a warning',
    model: () => modelOf([{ threads: [onLock('NettyServerWorker-3-1'), inSelector('NettyServerWorker-3-2')] }]),
    expect: [{ subject: 'NettyServerWorker-3', severity: 'warning', facts: { held: 1 } }],
  },
  {
    name: 'negative control: loops in their selector',
    model: () => modelOf([{ threads: [inSelector('NettyServerWorker-3-1'), inSelector('NettyServerWorker-3-2')] }]),
    expect: [],
  },
];

describe('io-thread-blocked: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('io-thread-blocked', c));
});
