import { rowsOf } from '../knowledge/index.js';
import { type ExecutorModel, isApplicationLog, type Model, type ThreadRef } from '../model/model.js';
import { activityFrame } from '../threads/thread-activity.js';
import type { CauseLink, Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { deadlockSubject, lockSubject } from './support/held-up.js';
import { isStarved, poolSubject, starvingPoolsOf } from './support/pool-evidence.js';
import { withCode } from './support/thread-code.js';
import { isCarrier } from './support/virtual-threads.js';

/** Every worker of a pool busy: new work queues up or, with a hand-off queue, is rejected. */
export const executorSaturated: Rule = {
  meta: {
    id: 'executor-saturated',
    defaultSeverity: 'warning',
    title: 'Executor saturated',
    description: 'All workers of a thread pool are busy; with a hand-off queue new work is rejected, otherwise it queues.',
    remedy:
      'Find what the busy workers wait for (a lock, a downstream pool, a slow call) ' +
      'and fix that first; size the pool to the load, bound its queue and reject early.',
    remedyKind: 'search',
    options: {
      minWorkers: {
        type: 'integer',
        min: 1,
        default: 2,
        description: "Smallest executor (in threads) this rule judges: threads running one executor's worker loop, or an executor in the heap.",
      },
      nearlyAll: {
        type: 'number',
        min: 0.5,
        max: 1,
        default: 0.95,
        description:
          'Share of its workers that, all waiting in one place (one socket write, one lock, one downstream call), makes a pool ' +
          'saturated though the rest are free: the pool is at the most workers it was seen with, and the next requests get the few left.',
      },
      minWorkersOtherNames: {
        type: 'integer',
        min: 0,
        default: 0,
        description:
          'Smallest group of look-alike threads (one numbered name stem, one run method, no ' +
          'worker loop: started one by one) that this rule judges; 0 judges only real executors.',
      },
    },
  },
  check({ model, options }) {
    const min = Number(options['minWorkers']);
    const minOther = Number(options['minWorkersOtherNames']);
    const nearlyAll = Number(options['nearlyAll']);
    // Pools not every worker of which is taken, but nearly all held by one wait: that wait.
    const heldByOne = new Map<ExecutorModel, OneWait>();
    // One finding per pool: in a series, the last dump in which it was saturated speaks for it.
    const byName = new Map<string, ExecutorModel[]>();
    // The most workers each pool had after each dump, so "could it still grow" is a lookup, not a scan.
    const grewLater = new Set<ExecutorModel>();
    const samePool = new Map<string, ExecutorModel[]>();
    for (const e of model.executors) {
      const k = `${e.loop ?? ''}\u0000${e.name}`;
      const list = samePool.get(k);
      if (list === undefined) samePool.set(k, [e]);
      else list.push(e);
    }
    for (const list of samePool.values()) {
      let most = -1;
      for (const e of [...list].sort((a, b) => b.dump - a.dump)) {
        if (most > e.workers) grewLater.add(e);
        most = Math.max(most, e.workers);
      }
    }
    for (const e of model.executors) {
      // A heap-backed executor is a pool whatever its threads are called; look-alikes only when asked.
      const poolLike = e.namedLikePool || e.heap !== undefined;
      if (!poolLike && minOther <= 0) continue;
      if (e.workers < (poolLike ? min : minOther)) continue;
      if (e.busy + connectionHeld(model, e).length < e.workers) {
        const one = oneWaitOf(model, e);
        if (one === undefined || one.threads.length < Math.ceil(e.workers * nearlyAll)) continue;
        heldByOne.set(e, one);
      }
      // The heap knows the maximum: saturated only when no more workers may be started.
      if (e.heap !== undefined && (e.heap.maximumPoolSize ?? Infinity) > e.workers) continue;
      // A later dump with more workers shows the pool could still grow: it was not at its maximum.
      if (grewLater.has(e)) continue;
      const list = byName.get(e.name) ?? [];
      list.push(e);
      byName.set(e.name, list);
    }
    // Dumps, not executor entries: one dump may hold two pools of one name (a heap executor and its threads).
    const totalDumpsFor = (name: string): number => new Set(model.executors.filter((e) => e.name === name).map((e) => e.dump)).size;
    const starved = model.connectionPools.filter((p) => isStarved(p, 2));
    // The contended lock each waiting thread queues on (a thread waits for one lock at most), per dump,
    // built once: a big dump can have thousands of contended locks and of busy workers, and walking one
    // list per entry of the other took seconds when every thread waited on its own lock.
    const contended = model.locks.contended;
    // Thread index -> the lock's index, -1 for none: a typed array per dump, as every thread may wait.
    const queuedOn = new Map<number, Int32Array>();
    contended.forEach((l, i) => {
      let byThread = queuedOn.get(l.dump);
      if (byThread === undefined) queuedOn.set(l.dump, (byThread = new Int32Array(model.dumps[l.dump]!.threads.length).fill(-1)));
      for (const w of l.waiters) if (byThread[w.thread] === -1) byThread[w.thread] = i;
    });
    return [...byName].flatMap(([name, seen]) => {
      const e = seen[seen.length - 1]!;
      const top = e.busyActivities[0];
      const causedBy: CauseLink[] = starvingPoolsOf(model, e, starved).map((p) => ({ rule: 'connection-pool-starvation', subject: poolSubject(p) }));

      // Busy workers queued on one lock: the contention is the cause.
      const busyQueued = new Map<number, number>();
      const byThread = queuedOn.get(e.dump);
      for (const b of e.busyThreads) {
        const i = byThread?.[b.thread] ?? -1;
        if (i !== -1) busyQueued.set(i, (busyQueued.get(i) ?? 0) + 1);
      }
      for (const i of [...busyQueued.keys()].sort((a, b) => a - b)) {
        if (busyQueued.get(i)! * 2 < e.busy) continue;
        const l = contended[i]!;
        causedBy.push({ rule: 'lock-contention', subject: lockSubject(l) });
      }
      const deadlocks = model.locks.deadlocks.filter((d) => d.dump === e.dump);
      const busySet = deadlocks.length > 0 ? new Set(e.busyThreads.map((b) => b.thread)) : undefined;
      for (const d of deadlocks) {
        if (d.threads.some((t) => busySet!.has(t.thread))) {
          causedBy.push({ rule: 'deadlock', subject: deadlockSubject(d) });
        }
      }
      // A ForkJoin pool whose workers block is the forkjoin-saturated finding of that pool (dropped when there is none).
      if (e.loop === 'ForkJoinPool') causedBy.push({ rule: 'forkjoin-saturated', subject: e.name });
      // Carriers of the virtual-thread scheduler (ForkJoinPool workers) held by pinned virtual threads.
      if (e.loop === 'ForkJoinPool' && e.busyThreads.some((t) => isCarrier(model.dumps[t.dump]!.threads[t.thread]!)))
        causedBy.push({ rule: 'virtual-thread-pinning', subject: 'virtual thread scheduler' });
      const one = heldByOne.get(e);
      const activity = one !== undefined ? `; ${one.threads.length} of them wait in ${one.where}` : top ? `; ${top.count} of them in ${top.frame}` : '';
      const saturatedDumps = new Set(seen.map((x) => x.dump)).size;
      // Dubbo logs the pool's name (without the worker number) each time it rejects a task.
      // A log of the application (a top -H capture is read as a log too, and says nothing of the pool).
      const logGiven = model.inputs.some(isApplicationLog);
      const exhaustedLog = model.logEvents.filter((x) => x.kind === 'dubbo-pool-exhausted' && x.facts['threadName'] === name);
      const rejected = exhaustedLog.reduce((n, x) => n + x.count, 0);
      // With the heap's queue in view, a busy pool whose bounded queue has room and whose workers wait
      // on nothing found here is just working through its load.
      const q = e.heap?.queue;
      if (q !== undefined && causedBy.length === 0 && q.capacity !== 0 && q.capacity !== null && (q.size ?? 0) < q.capacity * 0.5) return [];
      // A pool made for computing whose every worker computes is doing its job, its queued subtasks
      // included. Callers parked on futures are no backlog of it: a thread dump does not say which
      // pool runs the task a future waits for (another executor, or none yet).
      const computePool = e.loop !== null && COMPUTE_POOLS.has(e.loop) && allComputing(model, e);
      const heldThreads = connectionHeld(model, e);
      const held = heldThreads.length;
      // (The link to the pool's own forkjoin-saturated finding is no cause: that finding speaks only of blocked workers.)
      const heldBy = causedBy.filter((c) => c.rule !== 'forkjoin-saturated');
      if (heldBy.length === 0 && computePool) return [];
      const who = held > 0 || one !== undefined ? `${e.busy} of the ${e.workers} workers` : `All ${plural(e.workers, 'worker')}`;
      return [
        {
          subject: name,
          headline: `${who} of pool "${name}" are busy${activity}.`,
          message:
            `${who} of pool "${name}" (${e.busyThreads
              .slice(0, 3)
              .map((t) => `"${t.name}"`)
              .join(', ')}${e.busyThreads.length > 3 ? ', ...' : ''}) are busy${activity}.` +
            (saturatedDumps > 1 ? ` Saturated in ${saturatedDumps} of ${totalDumpsFor(name)} dumps.` : '') +
            (held > 0
              ? ` ${plural(held, 'more worker waits', 'more workers wait')} for the next request on a connection it holds` +
                ' (keep-alive on a blocking connector): not free for other work.'
              : '') +
            (one !== undefined
              ? ` Nearly every worker is held by that one wait (${e.idle} free): the next requests share the few left or queue.` +
                ` ${atMost(e, totalDumpsFor(name))}.`
              : '') +
            (e.heap?.queue.capacity === 0 ? ' Its queue is a hand-off (SynchronousQueue): new work is rejected.' : '') +
            (rejected > 0 ? ` Dubbo logged "Thread pool is EXHAUSTED!" ${rejected} times.` : ''),
          facts: {
            workers: e.workers,
            busy: e.busy,
            idle: e.idle,
            topActivity: top?.frame ?? null,
            topActivityThreads: top?.count ?? 0,
            // Nearly all workers held by one wait (not every worker busy): where they wait, and how many.
            heldByOneWait: one?.threads.length ?? null,
            oneWait: one?.where ?? null,
            activities: e.busyActivities.slice(0, 5).map((a) => `${a.count} x ${a.frame}`),
            dumps: seen.map((s) => s.dump),
            source: e.source,
            maxWorkers: e.heap?.maximumPoolSize ?? null,
            queueSize: e.heap?.queue.size ?? null,
            queueCapacity: e.heap?.queue.capacity ?? null,
            // Unknown (not 0) when no log was given.
            exhaustedLogLines: logGiven ? rejected : null,
          },
          // The busy workers' code: what holds the pool.
          evidence: withCode(model, [
            ...exhaustedLog.map((x) => ({
              kind: 'log' as const,
              source: x.last.source,
              line: x.last.line,
              text: x.last.text,
              note: `${x.count} "Thread pool is EXHAUSTED!" lines`,
            })),
            ...(one?.threads ?? e.busyThreads).slice(0, 50).map((t) => threadEvidence(model, t)),
            ...heldThreads.slice(0, 20).map((t) => threadEvidence(model, t, 'waits for the next request on the connection it holds')),
          ]),
          causedBy,
          // Every worker held, and the queue behind them: the more of both, the more callers wait.
          impact: e.workers * 2 + Math.min(e.heap?.queue.size ?? 0, 10_000) / 100,
        },
      ];
    });
  },
};

/**
 * Idle workers that are not free: each waits, inside its task, for the next request on the
 * connection it holds (a blocking connector ties a worker to a keep-alive connection). They count
 * towards saturation only when at least half the pool is busy with work; a pool of keep-alive
 * waits alone is a quiet server.
 */
function connectionHeld(model: Model, e: ExecutorModel): ThreadRef[] {
  if (e.busy * 2 < e.workers) return [];
  return e.idleThreads.filter((t) => model.activity[t.dump]![t.thread]!.basis === 'listener');
}

/** The kinds of pool made for computing (the registry's pool loops that say so). */
const COMPUTE_POOLS = new Set(rowsOf('pool-loop').flatMap((r) => (r.detail.computes === true ? [r.detail.pool] : [])));

/** Every busy worker runs code (no wait, no lock, no blocking read): a pool computing, not held up. */
function allComputing(model: Model, e: ExecutorModel): boolean {
  return e.busyThreads.length > 0 && e.busyThreads.every((t) => model.activity[t.dump]![t.thread]!.basis === 'running');
}

/** Why a pool nearly all held is taken to be at its maximum, in words: the heap's maximum, or the dumps that show no growth. */
function atMost(e: ExecutorModel, dumps: number): string {
  if (e.heap?.maximumPoolSize != null) return `The pool is at its maximum of ${e.heap.maximumPoolSize} workers (the heap's executor)`;
  if (dumps > 1) return `The pool is at ${e.workers} workers, and no dump after it shows more (${dumps} dumps)`;
  return `The pool is at ${e.workers} workers; one dump cannot show whether it may grow (a heap dump would show its maximum)`;
}

/** Busy workers that all wait in one place, and that place (the code that called into the wait). */
interface OneWait {
  readonly where: string;
  readonly threads: ThreadRef[];
}

/**
 * The one wait most busy workers are in, or undefined when none waits: a worker waits when the
 * classifier found it waiting, not running code (a blocking socket write that reads RUNNABLE is a
 * wait to it). Where it waits is the first frame outside the JDK from its top, the code that called
 * into the wait (a server's response write, a driver's read, a lock's caller), so the same wait
 * reached from many request handlers is one; with no such frame, its top frame.
 */
function oneWaitOf(model: Model, e: ExecutorModel): OneWait | undefined {
  const byWhere = new Map<string, ThreadRef[]>();
  for (const t of e.busyThreads) {
    const th = model.dumps[t.dump]!.threads[t.thread]!;
    if (model.activity[t.dump]![t.thread]!.basis === 'running' || th.frames.length === 0) continue;
    const where = activityFrame(th);
    const list = byWhere.get(where);
    if (list === undefined) byWhere.set(where, [t]);
    else list.push(t);
  }
  let best: OneWait | undefined;
  for (const [where, threads] of byWhere) if (best === undefined || threads.length > best.threads.length) best = { where, threads };
  return best;
}
