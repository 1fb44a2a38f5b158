/**
 * connection-pool-starvation: hand-built pools (every connection leased with requests pending, from
 * the heap: error; threads parked for a lease in the dumps alone: warning; a semaphore without
 * permits; and the controls: a lease to spare, a single waiter). The real JVMs' pools (HttpClient 4
 * and 5, OkHttp, HikariCP, Druid, commons-pool2) are checked in test/incidents/.
 */
import { describe, test } from 'vitest';

import { type Case, check, connectionPool, heapObject, many, modelOf, refs } from './build.js';

const waiting = (n: number) =>
  many(n, 'order-worker-', () => ({
    state: 'WAITING',
    detail: 'parking',
    frames: [
      'jdk.internal.misc.Unsafe.park(Native Method)',
      'java.util.concurrent.locks.LockSupport.park',
      'org.apache.http.pool.AbstractConnPool.getPoolEntryBlocking',
      'com.acme.Client.call',
    ],
  }));
const names = (n: number) => Array.from({ length: n }, (_, k) => `order-worker-${k + 1}`);
const http = { kind: 'apache-httpclient-4' as const, name: 'HttpClient 4 http://10.0.0.9:8080', route: 'http://10.0.0.9:8080' };

const CASES: Case[] = [
  {
    name: 'from the heap: all 5 connections leased, 7 requests pending, 3 threads parked',
    model: () =>
      modelOf([{ threads: waiting(3) }], (m) => ({
        connectionPools: [
          connectionPool({
            ...http,
            source: 'heap',
            width: 5,
            maxTotal: 10,
            leased: 5,
            idle: 0,
            pending: 7,
            object: heapObject('org.apache.http.impl.conn.CPool'),
            waitingThreads: [{ dump: 0, threads: refs(m, names(3)) }],
          }),
        ],
      })),
    expect: [
      {
        subject: http.name,
        severity: 'error',
        facts: { width: 5, leased: 5, pending: 7, waitingThreads: 3, source: 'heap' },
        message: /all 5 connections it may open to http:\/\/10.0.0.9:8080 are in use/,
      },
    ],
  },
  {
    name: 'from the dumps alone: threads parked for a lease, the width unknown (warning)',
    model: () =>
      modelOf([{ threads: waiting(4) }], (m) => ({
        connectionPools: [connectionPool({ ...http, waitingThreads: [{ dump: 0, threads: refs(m, names(4)) }] })],
      })),
    expect: [
      { subject: http.name, severity: 'warning', facts: { waitingThreads: 4, width: null }, message: /4 threads wait for a connection from HttpClient 4/ },
    ],
  },
  {
    name: 'a semaphore without permits left (warning)',
    model: () =>
      modelOf([{ threads: waiting(6) }], (m) => ({
        connectionPools: [
          connectionPool({
            kind: 'semaphore',
            name: 'Semaphore 0x42',
            source: 'heap',
            width: 4,
            idle: 0,
            waitingThreads: [{ dump: 0, threads: refs(m, names(6)) }],
          }),
        ],
      })),
    expect: [{ subject: 'Semaphore 0x42', severity: 'warning', message: /6 threads wait for a permit of Semaphore 0x42, which has 0 left/ }],
  },
  {
    name: 'negative control: requests pending but a connection to spare',
    model: () => modelOf([], () => ({ connectionPools: [connectionPool({ ...http, source: 'heap', width: 5, leased: 4, pending: 3 })] })),
    expect: [],
  },
  {
    name: 'negative control: one waiter is below minWaiting',
    model: () =>
      modelOf([{ threads: waiting(1) }], (m) => ({
        connectionPools: [connectionPool({ ...http, waitingThreads: [{ dump: 0, threads: refs(m, names(1)) }] })],
      })),
    expect: [],
  },
];

describe('connection-pool-starvation: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('connection-pool-starvation', c));
});
