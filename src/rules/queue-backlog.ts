import { durationText } from '../model/duration-text.js';
import type { ExecutorModel } from '../model/model.js';
import type { Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { isStarved, measuredThroughput, poolSubject, starvingPoolsOf, throughputUnknownWhy } from './support/pool-evidence.js';
import { withCode } from './support/thread-code.js';

/** An executor's queue holds a backlog (incident 1): how big, how long to drain, and why. */
export const queueBacklog: Rule = {
  meta: {
    id: 'queue-backlog',
    defaultSeverity: 'warning',
    title: 'Executor queue backlog',
    description: "An executor's queue holds a large backlog; with the time it needs to drain and, when one is found, what holds the workers up.",
    remedy:
      'Fix what holds the workers up first (see the cause). Bound the queue so callers are rejected early instead ' +
      'of waiting minutes (Dubbo: queues > 0, or the fixed pool with queues=0), and size the pool to the load.',
    options: {
      minBacklog: { type: 'integer', min: 1, default: 1000, description: 'Fewest queued tasks that make a finding (or a queue at 90% of its capacity).' },
      maxDrainSeconds: {
        type: 'number',
        min: 0,
        default: 60,
        description: 'A backlog that needs longer than this to drain is an error rather than a warning.',
      },
    },
  },
  check({ model, options }) {
    const min = Number(options['minBacklog']);
    const maxDrain = Number(options['maxDrainSeconds']);
    const starved = model.connectionPools.filter((p) => isStarved(p, 2));
    // One heap executor is joined to its pool in every thread dump: judge it once, by its last dump.
    const lastByObject = new Map<string, ExecutorModel>();
    for (const e of model.executors) if (e.heap !== undefined) lastByObject.set(`${e.heap.object.input} ${e.heap.object.id}`, e);
    return [...lastByObject.values()].flatMap((e) => {
      const q = e.heap?.queue;
      if (q === undefined || q.size === null || q.size === 0) return [];
      const nearCapacity = q.capacity !== null && q.capacity > 0 && q.size >= q.capacity * 0.9;
      if (q.size < min && !nearCapacity) return [];
      const h = e.heap!;
      const causes = starvingPoolsOf(model, e, starved);
      const throughput = measuredThroughput(model, e);
      const stalled = throughput !== undefined && throughput.perSecond === 0;
      const drainSeconds = throughput !== undefined && !stalled ? Math.round(q.size / throughput.perSecond) : null;
      const cause = causes[0];
      const because = cause ? ` Its workers wait on ${cause.name} (width ${cause.width ?? '?'}): that pool, not this one, sets the pace.` : '';
      // The rate is a lower bound (a worker that finishes and wins the next lease looks unchanged), so the time is an upper bound.
      const drain = stalled
        ? ` It did not drain at all between the thread dumps (${throughput!.basis}): it will not drain until what holds the workers is fixed.`
        : drainSeconds !== null
          ? ` At the rate measured between the thread dumps (at least ${throughput!.perSecond.toFixed(2)}` +
            ` tasks/s) it needs up to ${durationText(drainSeconds)} to drain.`
          : '';
      return [
        {
          subject: e.name,
          ...(stalled || (drainSeconds !== null && drainSeconds > maxDrain) || nearCapacity ? { severity: 'error' as const } : {}),
          headline:
            `${plural(q.size, 'task waits', 'tasks wait')} in the queue of "${e.name}" behind ${h.activeWorkers} busy of ${h.maximumPoolSize ?? '?'} workers` +
            (stalled ? ', and it did not drain at all' : drainSeconds !== null ? `: up to ${durationText(drainSeconds)} to drain` : '') +
            (cause ? `, held up by ${cause.name}.` : '.'),
          message:
            `${plural(q.size, 'task waits', 'tasks wait')} in the queue of "${e.name}" (${shortClass(q.className)}` +
            `${q.capacity === null ? ', unbounded' : `, capacity ${q.capacity}`}) behind ` +
            `${h.activeWorkers} busy of ${h.maximumPoolSize ?? '?'} workers.${drain}${because}`,
          facts: {
            queueSize: q.size,
            queueCapacity: q.capacity,
            queueClass: q.className,
            busyWorkers: h.activeWorkers,
            maxWorkers: h.maximumPoolSize,
            poolSize: h.poolSize,
            completedTasks: h.completedTasks,
            drainSeconds,
            drained: stalled ? false : throughput !== undefined ? true : null,
            drainSecondsIs: drainSeconds === null ? null : 'an upper bound',
            drainTasksPerSecond: throughput !== undefined ? Number(throughput.perSecond.toFixed(3)) : null,
            drainBasis: throughput?.basis ?? (cause ? throughputUnknownWhy(model, e) : null),
            downstreamWidth: cause?.width ?? null,
          },
          evidence: [
            {
              kind: 'heap-object' as const,
              source: h.object.input,
              id: h.object.id,
              className: h.object.className,
              note: `queue ${q.size}, ${h.activeWorkers} busy`,
            },
            ...busyEvidence(model, e),
          ],
          causedBy: causes.map((p) => ({ rule: 'connection-pool-starvation', subject: poolSubject(p) })),
          // Callers waiting in the queue, and the workers held: a stalled queue weighs the most.
          impact: Math.min(q.size, 10_000) / 10 + h.activeWorkers * 2 + (stalled ? 1000 : 0),
        },
      ];
    });
  },
};

function busyEvidence(model: Parameters<typeof threadEvidence>[0], e: ExecutorModel) {
  return withCode(
    model,
    e.busyThreads.slice(0, 10).map((t) => threadEvidence(model, t)),
  );
}

function shortClass(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
