import type { Evidence } from '../model/findings.js';
import type { Rule } from './rule.js';
import { isIdle, isSleeping, activityFrame } from '../threads/thread-activity.js';
import type { Model, SeriesModel } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { inHttpCall, leaseWaitOf } from '../reconstruct/stack-signs.js';

type SeriesThread = SeriesModel['threads'][number];
import { plural, threadEvidence } from './evidence.js';

/**
 * Threads another finding already accounts for in this dump: those inside a counter at its limit,
 * shutdown hooks and the requests they race with.
 */
function explainedElsewhere(model: Model, dump: number): Set<number> {
  const out = new Set<number>();
  for (const c of model.counters) {
    if (c.limit === null || c.active < c.limit * 0.9) continue;
    for (const t of c.threadsInside) if (t.dump === dump) for (const r of t.threads) out.add(r.thread);
  }
  // While an HTTP pool starves, the threads inside calls are its lease holders: that finding's evidence.
  if (model.connectionPools.some((p) => (p.pending ?? 0) > 0 || p.waitingThreads.some((w) => w.threads.length > 0))) {
    model.dumps[dump]!.threads.forEach((th, i) => {
      if (inHttpCall(th)) out.add(i);
    });
  }
  for (const d of model.shutdown.dumps) {
    if (d.dump !== dump) continue;
    for (const h of d.hooks) out.add(h.thread.thread);
    for (const r of d.inFlight) out.add(r.thread);
  }
  return out;
}

/** A program's main thread or a signal handler waiting for the life of the JVM (a server's main parks forever). */
function parkedForLife(th: ThreadEntry): boolean {
  return (th.state === 'WAITING' || th.state === 'TIMED_WAITING') && (th.name === 'main' || th.name === 'DestroyJavaVM' || /^SIG[A-Z]+ handler$/.test(th.name));
}

/** Across a series of dumps, threads that stayed in the same place (same stack) in every dump. */
export const stuckThreads: Rule = {
  meta: {
    id: 'stuck-threads',
    defaultSeverity: 'warning',
    title: 'Stuck threads',
    description: 'Across a series of dumps of one JVM, threads with the very same stack in every dump while not idle.',
    remedy: 'Find what the stuck threads wait for (the lock owner, the remote call, the loop) and add a timeout or fix the owner.',
    options: {
      minDumps: { default: 2, description: 'Dumps in which the stack must be the same.' },
    },
  },
  check({ model, options }) {
    const minDumps = Number(options['minDumps']);
    const drafts = [];
    for (const series of model.series) {
      if (series.dumps.length < minDumps) continue;
      const lastDump = series.dumps[series.dumps.length - 1]!;
      const groups = new Map<string, { state: string; where: string; members: SeriesThread[] }>();
      // Deadlocked threads are stuck by definition; the deadlock finding already says so.
      const deadlocked = new Set(model.locks.deadlocks.filter((d) => d.dump === lastDump).flatMap((d) => d.threads.map((t) => t.thread)));
      const explained = explainedElsewhere(model, lastDump);
      const lastOf = (t: SeriesThread): number => t.indexes[t.indexes.length - 1]!;
      for (const t of series.threads) {
        if (!t.sameStack) continue;
        const th = model.dumps[lastDump]!.threads[lastOf(t)]!;
        // Threads parked for a pool lease are the connection-pool-starvation finding's evidence, not a problem of their own.
        if (th.frames.length === 0 || isIdle(th) || isSleeping(th) || deadlocked.has(lastOf(t)) || leaseWaitOf(th) !== undefined) continue;
        if (explained.has(lastOf(t)) || parkedForLife(th)) continue;
        const where = activityFrame(th);
        const key = `${th.state} ${where}`;
        const group = groups.get(key) ?? { state: th.state, where, members: [] };
        group.members.push(t);
        groups.set(key, group);
      }
      const first = model.dumps[series.dumps[0]!]!;
      const last = model.dumps[lastDump]!;
      const span =
        first.timestampIso && last.timestampIso ? (Date.parse(last.timestampIso) - Date.parse(first.timestampIso)) / 1000 : null;
      for (const { state, where, members } of groups.values()) {
        const th = last.threads[lastOf(members[0]!)]!;
        const evidence: Evidence[] = members.slice(0, 50).map((m) => threadEvidence(model, { dump: lastDump, thread: lastOf(m), name: m.name }));
        const cpu = members.map((m) => {
          const a = first.threads[m.indexes[0]!]!.cpuMs;
          const b = last.threads[lastOf(m)]!.cpuMs;
          return a !== undefined && b !== undefined ? b - a : null;
        });
        const cpuKnown = cpu.filter((c): c is number => c !== null);
        drafts.push({
          subject: `${where} (${state})`,
          message:
            `${plural(members.length, 'thread')} stayed ${state} in ${where} with the same stack in all ${series.dumps.length} dumps` +
            (span !== null ? ` (${span.toFixed(0)} s)` : '') +
            (cpuKnown.length > 0 && state === 'RUNNABLE' ? `, burning ${Math.max(...cpuKnown).toFixed(0)} ms of CPU between the first and last dump` : '') +
            `: ${members.slice(0, 5).map((m) => `"${m.name}"`).join(', ')}${members.length > 5 ? ', ...' : ''}.`,
          facts: {
            threads: members.map((m) => m.name),
            threadCount: members.length,
            state,
            frame: where,
            topFrame: th.frames[0]?.qualified ?? '',
            dumps: series.dumps,
            spanSeconds: span,
            cpuMsDelta: cpuKnown.length > 0 ? Math.max(...cpuKnown) : null,
          },
          evidence,
        });
      }
    }
    return drafts;
  },
};
