/**
 * shutdown-ordering: hand-built shutdown states (Dubbo's and Spring's hooks running at once with
 * requests in flight; and the controls: one hook alone, no shutdown). The real JVM's race, full and
 * from its thread dumps alone, is checked in test/incidents/dubbo.test.ts.
 */
import { describe, test } from 'vitest';

import type { Model, ShutdownHookModel } from '../../src/model/model.js';
import { type Case, check, inPoolWorker, many, modelOf, ref, refs } from './build.js';

const threads = [
  { name: 'DubboShutdownHook', state: 'WAITING' as const, frames: ['java.lang.Object.wait(Native Method)', 'org.apache.dubbo.config.DubboShutdownHook.run'] },
  {
    name: 'Thread-0',
    state: 'RUNNABLE' as const,
    frames: ['org.springframework.context.support.AbstractApplicationContext.doClose', 'org.springframework.context.support.AbstractApplicationContext$1.run'],
  },
  ...many(3, 'DubboServerHandler-127.0.0.1:20880-thread-', () => ({
    state: 'RUNNABLE' as const,
    frames: inPoolWorker('com.acme.OrderDao.save', 'com.acme.OrderService.place'),
  })),
];

/** The model of one dump during shutdown, with the hooks of `kinds` and the first `inFlight` requests. */
const racing = (kinds: ReadonlyArray<'dubbo' | 'spring'>, inFlight: number): Model =>
  modelOf([{ threads }], (m) => {
    const hooks: ShutdownHookModel[] = kinds.map((k) =>
      k === 'dubbo'
        ? { kind: 'dubbo', thread: ref(m, 'DubboShutdownHook'), doing: 'draining requests' }
        : { kind: 'spring', thread: ref(m, 'Thread-0'), doing: 'destroying beans' },
    );
    return {
      shutdown: {
        dumps: [
          {
            dump: 0,
            hooks,
            inFlight: refs(
              m,
              threads.slice(2, 2 + inFlight).map((t) => t.name),
            ),
          },
        ],
      } as Model['shutdown'],
    };
  });

const CASES: Case[] = [
  {
    name: 'both hooks at once with three requests executing',
    model: () => racing(['dubbo', 'spring'], 3),
    expect: [
      {
        subject: 'shutdown hooks',
        severity: 'error',
        facts: { dubboHook: 'DubboShutdownHook', springHook: 'Thread-0', requestsInFlight: 3 },
        message: /with 3 requests still executing: they lose the beans Spring destroys/,
      },
    ],
  },
  {
    name: 'both hooks, nothing in flight: still a race, said plainly',
    model: () => racing(['dubbo', 'spring'], 0),
    expect: [{ subject: 'shutdown hooks', facts: { requestsInFlight: 0 } }],
  },
  { name: "negative control: Dubbo's hook alone drains in peace", model: () => racing(['dubbo'], 3), expect: [] },
  { name: 'negative control: no shutdown in the dump', model: () => racing([], 0), expect: [] },
];

describe('shutdown-ordering: hand-built cases', () => {
  for (const c of CASES) test(c.name, () => void check('shutdown-ordering', c));
});
