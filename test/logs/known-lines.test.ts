/**
 * Dubbo's log lines, hand-written from the message formats in Dubbo's sources (java-internals.md 1.3,
 * 1.4): format edge cases for the matcher. The incident fixtures carry lines written by running code.
 */
import { describe, expect, it } from 'vitest';

import { KnownLineCollector } from '../../src/logs/known-lines.js';

const EXHAUSTED =
  '2026-11-30 10:00:01.234 WARN [DubboServerHandler-10.0.0.5:20880-thread-200] o.a.d.c.t.s.AbortPolicyWithReport:  [DUBBO] Thread pool is EXHAUSTED! ' +
  'Thread Name: DubboServerHandler-10.0.0.5:20880, Pool Size: 200 (active: 200, core: 200, max: 200, largest: 200), Task: 823451 (completed: ' +
  '223451), Executor status:(isShutdown:false, isTerminated:false, isTerminating:false), in dubbo://10.0.0.5:20880!, dubbo version: 2.7.5, current ' +
  'host: 10.0.0.5';
const REJECTED =
  '2026-11-30 10:00:02 ERROR [DubboServerHandler-10.0.0.5:20880-thread-3] Failed to invoke method sayHello in provider ' +
  'dubbo://10.0.0.5:20880/org.apache.dubbo.demo.DemoService?anyhost=true&executes=128&side=provider, cause: The service using threads greater than ' +
  '<dubbo:service executes="128" /> limited.';
const ACTIVES =
  'org.apache.dubbo.rpc.RpcException: Waiting concurrent invoke timeout in client-side for service:  org.apache.dubbo.demo.DemoService, method: ' +
  'sayHello, elapsed: 1003, timeout: 1000. concurrent invokes: 20. max concurrent invoke limit: 20';

describe('known log lines', () => {
  it('reads the numbers of a pool-exhausted line', () => {
    const c = new KnownLineCollector('app.log');
    c.push(EXHAUSTED, 7);
    const [e] = c.events();
    expect(e).toMatchObject({ kind: 'dubbo-pool-exhausted', count: 1, first: { source: 'app.log', line: 7 } });
    expect(e!.facts).toMatchObject({
      poolSize: 200,
      active: 200,
      core: 200,
      max: 200,
      largest: 200,
      tasks: 823451,
      completed: 223451,
      address: 'dubbo://10.0.0.5:20880',
    });
  });

  it('counts executes rejections per service method, keeping the first and last', () => {
    const c = new KnownLineCollector('app.log');
    c.push(REJECTED, 1);
    c.push('an unrelated line that says Failed to invoke something else', 2);
    c.push(REJECTED.replace('10:00:02', '10:00:09'), 3);
    c.push(REJECTED.replace('sayHello', 'sayBye'), 4);
    const events = c.events();
    const hello = events.find((e) => e.method === 'sayHello')!;
    expect(hello).toMatchObject({
      kind: 'dubbo-executes-rejected',
      count: 2,
      service: 'org.apache.dubbo.demo.DemoService',
      first: { line: 1 },
      last: { line: 3 },
    });
    expect(hello.facts).toMatchObject({ executes: 128, provider: 'dubbo://10.0.0.5:20880/org.apache.dubbo.demo.DemoService' });
    expect(events.find((e) => e.method === 'sayBye')!.count).toBe(1);
    expect(c.matched).toBe(3);
  });

  it('counts a record and the stack trace that repeats its message as one event', () => {
    const c = new KnownLineCollector('app.log');
    const message = REJECTED.slice(REJECTED.indexOf('Failed to invoke'));
    c.push(`2026-11-30 10:00:02 ERROR [t] ExceptionFilter - Got unchecked exception, exception: org.apache.dubbo.rpc.RpcException: ${message}`, 10);
    c.push(`org.apache.dubbo.rpc.RpcException: ${message}`, 11);
    c.push('\tat org.apache.dubbo.rpc.filter.ExecuteLimitFilter.invoke(ExecuteLimitFilter.java:60)', 12);
    c.push(`2026-11-30 10:00:03 ERROR [t] ExceptionFilter - Got unchecked exception, exception: org.apache.dubbo.rpc.RpcException: ${message}`, 13);
    expect(c.events()[0]!.count).toBe(2);
  });

  it('reads an actives timeout (consumer side)', () => {
    const c = new KnownLineCollector('app.log');
    c.push(ACTIVES, 1);
    expect(c.events()[0]).toMatchObject({
      kind: 'dubbo-actives-timeout',
      service: 'org.apache.dubbo.demo.DemoService',
      method: 'sayHello',
      facts: { actives: 20, concurrent: 20 },
    });
  });

  it('ignores lines that only look alike', () => {
    const c = new KnownLineCollector('app.log');
    c.push('Thread pool is EXHAUSTED! (no numbers)', 1);
    c.push('Failed to invoke method x in provider y, cause: timeout', 2);
    expect(c.events()).toEqual([]);
  });
});
