import type { Evidence } from '../model/findings.js';
import type { Model } from '../model/model.js';
import { serverOfPool } from '../threads/pool-naming.js';
import type { Rule } from './rule.js';
import { counterEvidence, counterFacts, maxInside, nearLimit } from './support/counter-evidence.js';
import { plural } from './support/evidence.js';
import { threadEvidence } from './support/evidence.js';

/**
 * An in-flight counter sits at (or near) its limit while far fewer threads are inside the method it
 * guards: calls were counted in and never counted out (incident 3). Needs a heap dump (the counter)
 * and thread dumps of the same JVM (who is inside).
 */
export const activeCountLeak: Rule = {
  meta: {
    id: 'active-count-leak',
    defaultSeverity: 'error',
    title: 'In-flight counter leaked',
    description:
      'A counter such as Dubbo RpcStatus.active is at or near its executes/actives ' +
      'limit while far fewer threads execute the method: completions were never counted.',
    remedy:
      'Find the completion path that skips the decrement (Dubbo: RpcStatus.endCount runs from the filter listener ' +
      'when the async result completes; an async context dropped without writing a result never completes it). ' +
      'Restarting the provider resets the counter; fix the path, or complete every async result on timeout or eviction.',
    options: {
      nearLimitRatio: { type: 'number', min: 0, max: 1, default: 0.9, description: 'The counter is judged when active >= limit x this.' },
      maxInsideRatio: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.5,
        description: 'A leak when the threads inside the method are at most active x this (more is saturation: see limit-saturated).',
      },
    },
  },
  check({ model, options }) {
    const near = Number(options['nearLimitRatio']);
    const ratio = Number(options['maxInsideRatio']);
    return model.counters.flatMap((c) => {
      // Without a thread dump of this JVM nobody can tell a leak from saturation: limit-saturated says so.
      if (!nearLimit(c, near) || c.threadsInside.length === 0) return [];
      const inside = maxInside(c);
      if (inside > c.active * ratio) return [];
      const atLimit = c.active >= c.limit;
      const dumps = c.threadsInside.length;
      const rejected =
        c.rejectionsLogged > 0
          ? ` ${plural(c.rejectionsLogged, 'call was', 'calls were')} rejected for it in the logs.`
          : atLimit
            ? ' New calls are rejected.'
            : '';
      return [
        {
          subject: c.name,
          severity: atLimit ? 'critical' : 'error',
          message:
            `${c.name}: the in-flight counter says ${c.active} (limit ${c.limit}${c.limitSource ? `, ${c.limitSource}` : ''}) but ` +
            `${inside === 0 ? 'no thread executes' : `only ${plural(inside, 'thread')} execute${inside === 1 ? 's' : ''}`} the method ` +
            `(${dumps === 1 ? 'in the thread dump' : `at most, over ${dumps} thread dumps`}): ` +
            `${c.active - inside} calls were counted in and never out.${rejected}`,
          facts: { ...counterFacts(c), leaked: c.active - inside },
          evidence: [...counterEvidence(model, c, `active ${c.active}, limit ${c.limit}`), ...providerWorkers(model)],
        },
      ];
    });
  },
};

/** A few of the provider's workers in the last dump, to show where the threads the counter claims really are. */
function providerWorkers(model: Model): Evidence[] {
  const last = model.dumps.length - 1;
  const pool = model.executors.find((e) => e.dump === last && serverOfPool(e.name) === 'Dubbo provider');
  if (pool === undefined) return [];
  return [
    ...pool.idleThreads
      .slice(0, 3)
      .map((t) => threadEvidence(model, t, `a provider worker, idle (${pool.idle} of ${pool.workers} are): not inside the method`)),
    ...pool.busyThreads.slice(0, 3).map((t) => threadEvidence(model, t, 'a provider worker, busy elsewhere')),
  ];
}
