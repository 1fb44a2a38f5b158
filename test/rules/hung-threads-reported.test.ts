/**
 * hung-threads-reported on a real Tomcat 9's StuckThreadDetectionValve log
 * (fixtures/generate-runtime-incidents.sh: two requests stuck in a database read, one slow request
 * that completed), with and without its thread dumps; WebSphere's and WebLogic's lines, written
 * here from their message texts (no such server runs here: a format edge case, said so); and
 * silent where every report recovered (the other incidents: test/incidents/expected-rules.test.ts).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, test } from 'vitest';

import type { LogEventModel } from '../../src/model/model.js';
import { analyseIncident, INCIDENTS, scratchDir, truthOf } from '../helpers.js';
import { type Case, check, modelOf } from './build.js';

const DIR = join(INCIDENTS, 'tomcat-stuck-requests');
const truth = truthOf('tomcat-stuck-requests') as {
  facts: { stuck: number; stuckPath: string; recovered: number; recoveredPath: string };
};
const scratch = scratchDir('hung');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Found = { rule: string; subject: string; severity: string; message: string; facts: Record<string, unknown>; evidence: Array<{ kind: string }> };
const hung = (findings: readonly { rule: string }[]) => findings.filter((f) => f.rule === 'hung-threads-reported') as Found[];

/** An incident directory holding just these files (written, or copied from the fixture). */
function incident(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

describe('hung-threads-reported', { timeout: 60_000 }, () => {
  test("Tomcat's valve: the two stuck requests, the slow one that completed left out, matched to the dumps", async () => {
    const [f, ...rest] = hung((await analyseIncident(DIR)).findings);
    expect(rest).toEqual([]);
    expect(f!.facts['threadCount']).toBe(truth.facts.stuck);
    expect(f!.facts['recoveredReports']).toBe(truth.facts.recovered);
    expect(f!.message).toContain(truth.facts.stuckPath);
    expect(f!.message).not.toContain(truth.facts.recoveredPath);
    // The stack Tomcat logged under each report: a socket read called from the servlet.
    expect(f!.facts['runs']).toEqual([expect.stringMatching(/OrdersServlet\.doGet/), expect.stringMatching(/OrdersServlet\.doGet/)]);
    expect([...(f!.facts['inDumps'] as string[])].sort()).toEqual([...(f!.facts['threads'] as string[])].sort());
    expect(f!.evidence.filter((e) => e.kind === 'thread')).toHaveLength(truth.facts.stuck);
  });

  test('the log alone is read and reported, asking for a thread dump', async () => {
    const dir = incident('log-only', { 'catalina.out': readFileSync(join(DIR, 'catalina.out'), 'utf8') });
    const [f] = hung((await analyseIncident(dir)).findings);
    expect(f!.facts['threadCount']).toBe(truth.facts.stuck);
    expect(f!.message).toMatch(/Take a thread dump/);
  });

  test('every report recovered: nothing to say', async () => {
    // The fixture's log, cut after the slow request's completion and without the stuck ones' reports.
    const lines = readFileSync(join(DIR, 'catalina.out'), 'utf8').split('\n');
    const kept = lines.filter((l) => !/orders\?id=/.test(l));
    const dir = incident('recovered', { 'catalina.out': kept.join('\n') });
    expect(hung((await analyseIncident(dir)).findings)).toEqual([]);
  });

  test('WebSphere and WebLogic lines (hand-written from their message texts): hung, recovered, pool full', async () => {
    const websphere = [
      '[8/15/24 15:07:40:982 EDT] 00000126 ThreadMonitor W   WSVR0605W: Thread "WebContainer : 3" (00001a8a) has been active for 700000 milliseconds ' +
        'and may be hung.  There is/are 2 thread(s) in total in the server that may be hung.',
      '\tat java.net.SocketInputStream.socketRead0(Native Method)',
      '\tat oracle.jdbc.driver.T4CMAREngine.unmarshalUB1(T4CMAREngine.java:1109)',
      '[8/15/24 15:07:41:000 EDT] 00000126 ThreadMonitor W   WSVR0605W: Thread "WebContainer : 9" (00001a8b) has been active for 650000 milliseconds ' +
        'and may be hung.  There is/are 2 thread(s) in total in the server that may be hung.',
      '[8/15/24 15:09:00:000 EDT] 00000126 ThreadMonitor W   WSVR0606W: Thread "WebContainer : 9" (00001a8b) was previously reported to be hung but ' +
        'has completed.  It was active for approximately 720000 milliseconds.  There is/are 1 thread(s) in total in the server that still may be ' +
        'hung.',
    ];
    const weblogic = [
      "####<Mar 3, 2024 2:45:10 PM EST> <Error> <WebLogicServer> <host> <AdminServer> <[ACTIVE] ExecuteThread: '7' for queue: " +
        "'weblogic.kernel.Default (self-tuning)'> <<WLS Kernel>> <> <> <1709495110000> <BEA-000337> <[STUCK] ExecuteThread: '12' for queue: " +
        '\'weblogic.kernel.Default (self-tuning)\' has been busy for "640" seconds working on the request "Workmanager: default, Version: 0, ' +
        'Scheduled=true, Started=true, Started time: 640000 ms", which is more than the configured time (StuckThreadMaxTime) of "600" seconds in ' +
        '"server-failure-trigger". Stack trace:',
      '\tat java.lang.Object.wait(Native Method)',
      '\tat com.acme.orders.OrderService.await(OrderService.java:88)',
    ];
    const dir = incident('servers', { 'SystemOut.log': websphere.join('\n') + '\n', 'AdminServer.log': weblogic.join('\n') + '\n' });
    const found = hung((await analyseIncident(dir)).findings);
    const ws = found.find((f) => f.facts['server'] === 'WebSphere')!;
    expect(ws.facts['threads']).toEqual(['WebContainer : 3']);
    expect(ws.facts['runs']).toEqual(['java.net.SocketInputStream.socketRead0 (called from oracle.jdbc.driver.T4CMAREngine.unmarshalUB1)']);
    const wl = found.find((f) => f.facts['server'] === 'WebLogic')!;
    expect(wl.facts['threads']).toEqual(["ExecuteThread: '12' for queue: 'weblogic.kernel.Default (self-tuning)'"]);
    expect(wl.facts['activeSeconds']).toEqual([640]);
    // The BEA-000339 line that says it became unstuck resolves it.
    const unstuck = incident('unstuck', {
      'AdminServer.log':
        [
          ...weblogic,
          "####<Mar 3, 2024 2:47:00 PM EST> <Info> <WebLogicServer> <host> <AdminServer> <[STUCK] ExecuteThread: '12' for queue: " +
            "'weblogic.kernel.Default (self-tuning)'> <<WLS Kernel>> <> <> <1709495220000> <BEA-000339> <[STUCK] ExecuteThread: '12' for queue: " +
            '\'weblogic.kernel.Default (self-tuning)\' has become "unstuck".>',
        ].join('\n') + '\n',
    });
    expect(hung((await analyseIncident(unstuck)).findings)).toEqual([]);
  });
});

/** A server's log line about `thread`, at `line` of catalina.out. */
function logged(kind: LogEventModel['kind'], thread: string, line: number, activeSeconds = 700): LogEventModel {
  const at = { source: 'catalina.out', line, text: `${kind} ${thread}` };
  return {
    kind,
    count: 1,
    first: at,
    last: at,
    thread,
    facts: { server: 'Apache Tomcat', activeMs: activeSeconds * 1000, code: 'StuckThreadDetectionValve', request: '/orders' },
    frames: ['java.net.SocketInputStream.socketRead0', 'com.acme.OrdersServlet.doGet'],
  };
}
const exec = (n: number) => ({
  name: `http-nio-8080-exec-${n}`,
  state: 'RUNNABLE' as const,
  frames: ['java.net.SocketInputStream.socketRead0(Native Method)', 'com.acme.OrdersServlet.doGet'],
});

const HAND_BUILT: Case[] = [
  {
    name: 'two request threads reported stuck and never recovered, both in the dump',
    model: () =>
      modelOf([{ threads: [exec(1), exec(2)] }], () => ({
        logEvents: [logged('hung-thread-reported', 'http-nio-8080-exec-1', 10), logged('hung-thread-reported', 'http-nio-8080-exec-2', 20)],
      })),
    expect: [
      {
        subject: 'http-nio-8080-exec',
        severity: 'warning',
        facts: {
          threadCount: 2,
          inDumps: ['http-nio-8080-exec-1', 'http-nio-8080-exec-2'],
          runs: [
            'java.net.SocketInputStream.socketRead0 (called from com.acme.OrdersServlet.doGet)',
            'java.net.SocketInputStream.socketRead0 (called from com.acme.OrdersServlet.doGet)',
          ],
        },
        message: /Apache Tomcat reported 2 threads of http-nio-8080-exec hung and never reported them recovered/,
      },
    ],
  },
  {
    name: 'the log alone asks for a thread dump',
    model: () => modelOf([], () => ({ logEvents: [logged('hung-thread-reported', 'http-nio-8080-exec-1', 10)] })),
    expect: [{ subject: 'http-nio-8080-exec', facts: { threadCount: 1, inDumps: [] }, message: /Take a thread dump/ }],
  },
  {
    name: 'negative control: reported, then recovered later in the same log',
    model: () =>
      modelOf([], () => ({
        logEvents: [logged('hung-thread-reported', 'http-nio-8080-exec-1', 10), logged('hung-thread-recovered', 'http-nio-8080-exec-1', 30)],
      })),
    expect: [],
  },
  {
    name: 'negative control: active for less than minActiveSeconds',
    model: () => modelOf([], () => ({ logEvents: [logged('hung-thread-reported', 'http-nio-8080-exec-1', 10, 300)] })),
    options: { minActiveSeconds: 600 },
    expect: [],
  },
];

describe('hung-threads-reported: hand-built cases', () => {
  for (const c of HAND_BUILT) test(c.name, () => void check('hung-threads-reported', c));
});
