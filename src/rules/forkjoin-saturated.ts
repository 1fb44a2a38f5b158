/**
 * A ForkJoin pool whose workers block. The idea: a ForkJoin pool (the JVM-wide common pool above
 * all) has about one worker per core and is meant for computing; when every worker is busy and
 * some of them block inside their tasks (a socket read, a sleep, a lock, a future), the pool's CPU
 * sits unused while everything else that shares it (parallel streams, CompletableFuture.*Async
 * without an executor) waits. A pool busy computing is doing its job.
 */
import { frameIndexOf, isJdkClass, lookupFrame } from '../knowledge/index.js';
import type { Evidence } from '../model/findings.js';
import type { StackFrame, ThreadEntry } from '../model/thread-dump.js';
import { inBlockingIo } from '../threads/blocking-calls.js';
import { poolNameOf } from '../threads/pool-naming.js';
import type { FindingDraft, Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { withCode } from './support/thread-code.js';
import { threadsByStack } from './support/threads-by-stack.js';
import { isCarrier } from './support/virtual-threads.js';

export const forkjoinSaturated: Rule = {
  meta: {
    id: 'forkjoin-saturated',
    defaultSeverity: 'warning',
    title: 'ForkJoin pool blocked',
    description:
      'Every worker of a ForkJoin pool (the common pool above all) is busy and at least half of them block inside their tasks ' +
      '(a socket read, a sleep, a lock, a future): blocking calls in parallel streams or in CompletableFuture.*Async without an ' +
      'executor; everything else sharing the pool waits. Error when every worker blocks. A pool busy computing is not reported.',
    remedy:
      'Run blocking calls on an executor of their own (pass it to supplyAsync/runAsync; do not use parallel streams for I/O); for ' +
      'the common pool, -Djava.util.concurrent.ForkJoinPool.common.parallelism only hides it. Find what the blocked workers wait for.',
    options: {},
  },
  check({ model }) {
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    const threads = model.dumps[last]!.threads;
    const pools = new Map<string, number[]>();
    for (const i of threadsByStack(model, last, runsWorkerLoop)) {
      const th = threads[i]!;
      // The virtual-thread scheduler's carriers are virtual-thread-pinning's to judge.
      if (isCarrier(th)) continue;
      const p = poolOf(th);
      const list = pools.get(p);
      if (list === undefined) pools.set(p, [i]);
      else list.push(i);
    }
    const drafts: FindingDraft[] = [];
    const onlyPool = pools.size === 1 ? [...pools.keys()][0] : undefined;
    for (const [pool, workers] of pools) {
      const busy = workers.filter((w) => model.activity[last]![w]!.activity !== 'idle');
      if (busy.length < workers.length) continue;
      const blocked = workers.flatMap((w) => {
        const how = blockedHow(threads[w]!);
        return how !== undefined ? [{ w, how }] : [];
      });
      if (blocked.length === 0 || blocked.length * 2 < workers.length) continue;
      // Callers outside the pool waiting for its tasks (a parallel stream's caller, a join, a get), when
      // the dump shows the task is this pool's (see waitsForTaskOf).
      const callers = threads.flatMap((th, i) => (!workers.includes(i) && waitsForTaskOf(th, pool, onlyPool) ? [i] : []));
      const evidence: Evidence[] = withCode(model, [
        ...blocked.map(({ w, how }) => threadEvidence(model, model.threadRefs[last]![w]!, how)),
        ...callers.slice(0, 10).map((c) => threadEvidence(model, model.threadRefs[last]![c]!, 'waits for the pool')),
      ]);
      const hows = new Map<string, number>();
      for (const b of blocked) hows.set(b.how, (hows.get(b.how) ?? 0) + 1);
      drafts.push({
        subject: pool,
        ...(blocked.length === workers.length ? { severity: 'error' as const } : {}),
        message:
          `All ${plural(workers.length, 'worker')} of ${pool === 'ForkJoinPool.commonPool' ? 'the ForkJoin common pool' : pool}` +
          ` are busy and ${blocked.length} of them block inside their tasks: ` +
          `${[...hows].map(([how, n]) => `${n} ${how}`).join('; ')}.` +
          (callers.length > 0
            ? ` ${plural(callers.length, 'thread waits', 'threads wait')} for the pool (${callers
                .slice(0, 3)
                .map((c) => `"${threads[c]!.name}"`)
                .join(', ')}).`
            : '') +
          (pool === 'ForkJoinPool.commonPool'
            ? ' Everything that uses the common pool (parallel streams, CompletableFuture.*Async without an executor) waits meanwhile.'
            : ''),
        facts: {
          pool,
          workers: workers.length,
          busy: busy.length,
          blocked: blocked.length,
          blockedHow: [...hows.keys()],
          callers: callers.map((c) => threads[c]!.name),
        },
        evidence,
        impact: blocked.length * 2 + callers.length,
      });
    }
    return drafts;
  },
};

const POOL_LOOPS = frameIndexOf('pool-loop');
const TASK_RESULT_WAITS = frameIndexOf('pressure');

/** A ForkJoin worker: its stack runs the loop of a pool the registry calls a ForkJoinPool. Asked once per group of identical stacks. */
const runsWorkerLoop = (frames: readonly StackFrame[]) => frames.some((f) => lookupFrame(POOL_LOOPS, f)?.detail.pool === 'ForkJoinPool');

/**
 * Waits near its top for a ForkJoinTask's result (a join, a get, an invoke) that the dump shows
 * this pool runs: a task forked or invoked from outside any pool runs on the common pool; one handed
 * to a pool by name (ForkJoinPool.invoke, submit) is this pool's only when the dump has no other.
 * A CompletableFuture or a FutureTask may be completed by any executor, which a thread dump does not
 * name: its waiters count against no pool.
 */
function waitsForTaskOf(th: ThreadEntry, pool: string, onlyPool: string | undefined): boolean {
  const top = th.frames.slice(0, 12);
  const waitsForTask = top.some((f) => lookupFrame(TASK_RESULT_WAITS, f)?.detail?.taskResult === true && FORK_JOIN_TASK_WAIT.test(f.className));
  if (!waitsForTask) return false;
  if (pool === onlyPool) return true;
  const toNamedPool = th.frames.some((f) => f.className === 'java.util.concurrent.ForkJoinPool' && SUBMITS.test(f.method));
  return !toNamedPool && pool === 'ForkJoinPool.commonPool';
}

/** The classes whose waits are for a ForkJoinTask (its join and get, the pool's help-join). */
const FORK_JOIN_TASK_WAIT = /^java\.util\.concurrent\.(?:ForkJoinTask|ForkJoinPool)$/;
/** ForkJoinPool's methods that hand a task to that pool. */
const SUBMITS = /^(?:invoke|submit|execute|externalPush|externalSubmit|poolSubmit)$/;

/** The pool a worker belongs to, by its name (`ForkJoinPool.commonPool-worker-3` → `ForkJoinPool.commonPool`). */
function poolOf(th: ThreadEntry): string {
  return poolNameOf(th.name) ?? th.name;
}

/** How a worker blocks inside its task, in words, or undefined when it computes. */
function blockedHow(th: ThreadEntry): string | undefined {
  const app = th.frames.find((f) => !isJdkClass(f.qualified))?.qualified;
  const under = app !== undefined ? ` under ${app}` : '';
  if (th.state === 'RUNNABLE') return inBlockingIo(th) ? `in a blocking read or write (${th.frames[0]!.qualified})${under}` : undefined;
  if (th.state === 'BLOCKED') return `BLOCKED on a monitor${under}`;
  if (th.state === 'WAITING' || th.state === 'TIMED_WAITING')
    return `${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''} in ${th.frames[0]?.qualified ?? '?'}${under}`;
  return undefined;
}
