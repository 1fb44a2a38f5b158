import type { ConnectionPoolModel } from '../model/model.js';
import type { Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { isStarved, peakWaiters, poolSubject } from './support/pool-evidence.js';
import { withCode } from './support/thread-code.js';

/** Threads wait for a lease from an HTTP or DB pool that is at its limit (incident 1's root cause). */
export const connectionPoolStarvation: Rule = {
  meta: {
    id: 'connection-pool-starvation',
    defaultSeverity: 'error',
    title: 'Connection pool starvation',
    description:
      'Threads wait for a connection (or a call slot) from an HTTP or DB pool whose ' +
      'every connection is leased: the pool is narrower than the work sent through it.',
    remedy: 'Size the pool to the callers, set a lease timeout so callers fail fast, and bound the callers.',
    options: {
      minWaiting: {
        type: 'integer',
        min: 1,
        default: 2,
        description: 'Fewest waiting requests (pending in the pool, or threads parked for a lease) that make a finding.',
      },
    },
  },
  check({ model, options }) {
    const min = Number(options['minWaiting']);
    return model.connectionPools
      .filter((p) => isStarved(p, min))
      .map((p) => {
        const peak = peakWaiters(p);
        const waiting = Math.max(p.pending ?? 0, peak.count);
        const fromHeap = p.source === 'heap';
        const width = p.width !== null ? `${p.width}` : 'unknown';
        const message =
          p.kind === 'semaphore'
            ? `${plural(peak.count, 'thread waits', 'threads wait')} for a permit of ${p.name}, which has ${p.idle ?? '?'} left.`
            : p.kind === 'okhttp-dispatcher'
              ? `${p.name}: ${p.leased} calls run at once to one host (maxRequestsPerHost ${width}) ` +
                `and ${plural(p.pending ?? waiting, 'call waits', 'calls wait')} in its ready queue` +
                (p.callersWaiting !== undefined
                  ? `; ${plural(p.callersWaiting.queued.length + p.callersWaiting.inFlight.length, 'thread is', 'threads are')}` +
                    ` parked on a future or latch that one of its calls will complete (${p.callersWaiting.queued.length}` +
                    ` queued, ${p.callersWaiting.inFlight.length} running; the heap links each thread to its call).`
                  : '; their callers wait for them.')
              : fromHeap
                ? `${p.name}: all ${p.leased} connections it may open${p.route ? ` to ${p.route}` : ''} are in use (width ${width}` +
                  `${p.maxTotal !== null ? `, max total ${p.maxTotal}` : ''}) and ${plural(waiting, 'request waits', 'requests wait')} for one` +
                  (peak.count > 0 ? `; ${plural(peak.count, 'thread is', 'threads are')} parked waiting for a lease.` : '.')
                : `${plural(peak.count, 'thread waits', 'threads wait')} for a connection from ${p.name}. A ` +
                  `heap dump of the same JVM would tell the pool's width and how many connections are leased.`;
        return {
          subject: poolSubject(p),
          ...(fromHeap && p.kind !== 'semaphore' ? {} : { severity: 'warning' as const }),
          message,
          facts: {
            poolKind: p.kind,
            route: p.route,
            width: p.width,
            maxTotal: p.maxTotal,
            leased: p.leased,
            idle: p.idle,
            pending: p.pending,
            waitingThreads: peak.count,
            waitingThreadsPerDump: p.waitingThreads.map((w) => w.threads.length),
            callersWaitingOnQueuedCalls: p.callersWaiting?.queued.length ?? null,
            callersWaitingOnRunningCalls: p.callersWaiting?.inFlight.length ?? null,
            pendingRetainedBytes: p.pendingRetainedBytes ?? null,
            source: p.source,
          },
          // The waiting threads' code: where the application asks the pool.
          evidence: withCode(model, [
            ...(p.object
              ? [
                  {
                    kind: 'heap-object' as const,
                    source: p.object.input,
                    id: p.object.id,
                    className: p.object.className,
                    note: `leased ${p.leased ?? '?'} of ${width}, pending ${p.pending ?? '?'}`,
                  },
                ]
              : []),
            ...peak.threads
              .slice(0, 40)
              .map((t) =>
                threadEvidence(
                  model,
                  t,
                  p.callersWaiting?.queued.includes(t.name) === true
                    ? 'waiting for a queued call'
                    : p.callersWaiting?.inFlight.includes(t.name) === true
                      ? 'waiting for a running call'
                      : 'waiting for a lease',
                ),
              ),
          ]),
          remedy: REMEDY_BY_KIND[p.kind],
        };
      });
  },
};

const REMEDY_BY_KIND: Record<ConnectionPoolModel['kind'], string> = {
  'apache-httpclient-4':
    'Give the HTTP client a pool sized to the callers (PoolingHttpClientConnectionManager setDefaultMaxPerRoute/setMaxTotal; ' +
    'the client RestTemplateBuilder makes allows 5 per route from http.maxConnections), set a connection-request ' +
    'timeout so callers fail fast, and bound the callers (their pool queue) so a slow downstream cannot pile work up.',
  'apache-httpclient-5':
    'Size PoolingHttpClientConnectionManager (maxPerRoute/maxTotal: 5 and 25 by ' +
    'default) to the callers, set a connection-request timeout, and bound the callers.',
  'okhttp-dispatcher':
    'Raise Dispatcher.maxRequestsPerHost (5 by default) or maxRequests (64), or make the ' +
    'downstream faster; queued async calls wait without a thread, but their callers wait for them.',
  hikaricp:
    'Find what holds connections for long (slow queries, transactions kept open, connections leaked ' +
    'without close), then size maximumPoolSize to the work; set connectionTimeout so callers fail fast.',
  druid: 'Find what holds connections for long, size maxActive to the work, and set maxWait so callers fail fast.',
  'commons-pool2': 'Find what holds objects for long (not returned to the pool), size maxTotal to the work, and set maxWait so callers fail fast.',
  semaphore:
    'Find what the permit holders are doing (they run inside the limited section), release permits ' +
    'in finally blocks, and use tryAcquire with a timeout so callers fail fast instead of queueing.',
};
