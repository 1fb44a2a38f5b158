import type { Evidence } from '../model/findings.js';
import type { Model, SeriesThreadModel } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { inHttpCall, leaseWaitOf } from '../reconstruct/stack-signs.js';
import { activityFrame, isSleeping } from '../threads/thread-activity.js';
import type { Rule } from './rule.js';
import { CauseLinks, stuckThreadsSubject } from './support/cause-links.js';
import { classInitWaits } from './support/class-init.js';
import { plural, threadEvidence } from './support/evidence.js';
import { deadlockSubject, heldUpByDeadlocks, lockSubject, lockWaits } from './support/held-up.js';
import { loggingWaitSubject } from './support/logging-frames.js';
import { isStarved } from './support/pool-evidence.js';
import { withCode } from './support/thread-code.js';
import { isCarrier } from './support/virtual-threads.js';

/**
 * Across a series of dumps, threads that were working or blocked, in one place, in every dump.
 * Idle and housekeeping threads wait in the same place by design and are never stuck.
 */
export const stuckThreads: Rule = {
  meta: {
    id: 'stuck-threads',
    defaultSeverity: 'warning',
    title: 'Stuck threads',
    description:
      'Across a series of dumps of one JVM, threads working or blocked in one place in every dump (a ' +
      'running thread may move within its top frames and recursion); threads waiting for work are not stuck.',
    remedy:
      'Find what the stuck threads wait for (the lock owner, the remote call, the loop) and add a ' +
      'timeout or fix the owner; a thread that burns a core in one place is a runaway: look at its loop.',
    remedyKind: 'search',
    options: {
      minDumps: { type: 'integer', min: 2, default: 2, description: 'Dumps in which the thread must be in the same place.' },
    },
  },
  check({ model, options }) {
    const minDumps = Number(options['minDumps']);
    const drafts = [];
    for (const series of model.series) {
      if (series.dumps.length < minDumps) continue;
      const lastDump = series.dumps[series.dumps.length - 1]!;
      const groups = new Map<string, { state: string; where: string; members: SeriesThreadModel[] }>();
      // Deadlocked threads are stuck by definition; the deadlock finding already says so.
      const deadlocked = new Set(model.locks.deadlocks.filter((d) => d.dump === lastDump).flatMap((d) => d.threads.map((t) => t.thread)));
      const explained = explainedElsewhere(model, lastDump);
      const waits = lockWaits(model, lastDump);
      const behindDeadlocks = heldUpByDeadlocks(model, lastDump, waits);
      const lastOf = (t: SeriesThreadModel): number => t.indexes[t.indexes.length - 1]!;
      for (const t of series.threads) {
        if (!t.samePlace) continue;
        const activities = t.indexes.map((ti, pos) => model.activity[series.dumps[pos]!]![ti!]!);
        if (activities.some((a) => a.activity === 'idle' || a.activity === 'housekeeping')) continue;
        const th = model.dumps[lastDump]!.threads[lastOf(t)]!;
        // A nap ends by itself: a thread seen napping in one place is slow or periodic, not held by
        // anything; unless it naps holding a lock others wait for, which makes it their cause.
        if (isSleeping(th) && waits.heldUpCount([lastOf(t)]) === 0) continue;
        // Threads parked for a pool lease are the connection-pool-starvation finding's evidence, not a problem of their own.
        if (deadlocked.has(lastOf(t)) || leaseWaitOf(th) !== undefined || explained.has(lastOf(t))) continue;
        const where = activityFrame(th);
        const key = `${th.state} ${where}`;
        const group = groups.get(key) ?? { state: th.state, where, members: [] };
        group.members.push(t);
        groups.set(key, group);
      }
      const span = series.spanSeconds;
      for (const { state, where, members } of groups.values()) {
        const th = model.dumps[lastDump]!.threads[lastOf(members[0]!)]!;
        const why = model.activity[lastDump]![lastOf(members[0]!)]!;
        const evidence: Evidence[] = withCode(
          model,
          members.slice(0, 50).map((m) => threadEvidence(model, { dump: lastDump, thread: lastOf(m), name: m.name })),
        );
        // A reduce, not Math.max(...): a group may hold 100k threads, past the arguments a call can take.
        const cpuMax = members.reduce<number | null>((m, t) => (t.cpuMsDelta === null ? m : m === null ? t.cpuMsDelta : Math.max(m, t.cpuMsDelta)), null);
        const runaway = state === 'RUNNABLE' && cpuMax !== null && span !== null && span > 0 && cpuMax >= span * 1000 * RUNAWAY_CPU_SHARE;
        const cpuText =
          cpuMax === null || state !== 'RUNNABLE'
            ? ''
            : runaway
              ? `, burning ${(cpuMax / 1000).toFixed(1)} s of CPU in ${span!.toFixed(0)} s (` +
                `${Math.round((cpuMax / (span! * 1000)) * 100)} % of a core): a runaway in one place, not progress`
              : `, using ${cpuMax.toFixed(0)} ms of CPU between the first and last dump`;
        const sameExactly = members.every((m) => m.sameStack);
        // Blocked threads wait behind a contended lock or a deadlock: that finding is their cause.
        const causedBy = new CauseLinks();
        // A runaway's CPU is the cpu-hot-threads finding; a wait for a class's initialisation is the
        // class-init-wait finding of that class (a link to a finding that was not made is dropped).
        if (runaway) for (const m of members) causedBy.add('cpu-hot-threads', m.name);
        for (const m of members) {
          const th = model.dumps[lastDump]!.threads[lastOf(m)]!;
          const cls = th.locks.find((l) => l.kind === 'waiting-class-init')?.lock?.className;
          // A thread of a class-initialisation cycle: the cycle's finding (its class has none of its own).
          const cycle = cls ? classInitWaits(model, lastDump).cycleOfThread.get(lastOf(m)) : undefined;
          if (cls) causedBy.add('class-init-wait', cycle?.subject ?? cls);
          // Held inside a log call: the logging-contention finding of that appender.
          const logging = loggingWaitSubject(th);
          if (logging !== undefined) causedBy.add('logging-contention', logging);
          if (isCarrier(th)) causedBy.add('virtual-thread-pinning', 'virtual thread scheduler');
        }
        for (const m of members) {
          const lock = waits.lockOf(lastOf(m));
          if (lock === undefined) continue;
          // A link to a lock with too few waiters to be a finding is dropped by the engine.
          causedBy.add('lock-contention', lockSubject(lock));
          for (const { deadlock, heldUp } of behindDeadlocks)
            if (heldUp.some((t) => t.thread === lastOf(m))) causedBy.add('deadlock', deadlockSubject(deadlock));
        }
        // What it does: the threads held, more when others wait behind them; a core burned weighs most.
        const heldUp = waits.heldUpCount(members.map(lastOf));
        const impact = members.length + heldUp * 2 + (runaway ? 10 * (cpuMax! / (span! * 1000)) : 0);
        // Unknown means silent: RUNNABLE in a native method no row knows, with no task or request beneath and
        // no CPU figure, a thread may be blocked in the kernel as well as running; nothing shows work.
        const nothingShowsWork = cpuMax === null && members.every((m) => model.activity[lastDump]![lastOf(m)]!.basis === 'native');
        drafts.push({
          ...(nothingShowsWork ? { severity: 'info' as const } : {}),
          subject: stuckThreadsSubject(th),
          message:
            `${plural(members.length, 'thread')} stayed ${state} in ${where} ` +
            `${sameExactly ? 'with the same stack' : 'in the same place (only the top frames or recursion depth changed)'}` +
            ` in all ${series.dumps.length} dumps` +
            (span !== null ? ` (${span.toFixed(0)} s)` : '') +
            cpuText +
            `: ${namesText(members.map((m) => m.name))}. Why it counts as ${why.activity}: ${why.reason}.` +
            (nothingShowsWork
              ? ' Nothing shows work (no task or request beneath, no lock others wait for, no cpu= in these dumps): reported as a note only.'
              : ''),
          facts: {
            // A thread with no name (a virtual thread, usually) by the id the JDK names it with (`VirtualThread[#26]`).
            threads: members.map((m) => m.name || idName(model.dumps[lastDump]!.threads[lastOf(m)]!)),
            threadCount: members.length,
            state,
            frame: where,
            topFrame: th.frames[0]?.qualified ?? '',
            dumps: series.dumps,
            spanSeconds: span,
            cpuMsDelta: cpuMax,
            runaway,
            activity: why.activity,
            activityReason: why.reason,
          },
          evidence,
          causedBy: causedBy.list(),
          impact,
        });
      }
    }
    return drafts;
  },
};

/** A thread that used at least this share of a core between the first and last dump ran, it did not wait. */
const RUNAWAY_CPU_SHARE = 0.5;

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
  // While a pool starves, the threads waiting for it (parked for a lease, or on the future of a call
  // queued in it) and the callers of its calls in flight are that finding's evidence.
  for (const p of model.connectionPools) {
    if (!isStarved(p, 2)) continue;
    for (const w of p.waitingThreads) if (w.dump === dump) for (const r of w.threads) out.add(r.thread);
    const inFlight = new Set(p.callersWaiting?.inFlight ?? []);
    if (inFlight.size > 0) model.dumps[dump]!.threads.forEach((th, i) => inFlight.has(th.name) && out.add(i));
  }
  for (const d of model.shutdown.dumps) {
    if (d.dump !== dump) continue;
    for (const h of d.hooks) out.add(h.thread.thread);
    for (const r of d.inFlight) out.add(r.thread);
  }
  return out;
}

/**
 * The first names of the threads, quoted, and those with no name counted (virtual threads usually
 * have none: a list of `""` reads as a fault of the report).
 */
function namesText(names: readonly string[]): string {
  const named = names.filter((n) => n !== '');
  const unnamed = names.length - named.length;
  const listed = named.slice(0, 5).map((n) => `"${n}"`);
  if (named.length > 5) listed.push('...');
  if (unnamed > 0) listed.push(named.length > 0 ? `${unnamed} more with no name` : unnamed === 1 ? 'with no name' : `all ${unnamed} with no name`);
  return listed.join(', ');
}

/** `virtual thread #26` for a thread with no name but a Java id; else its (empty) name. */
function idName(th: ThreadEntry): string {
  return th.javaId === undefined ? th.name : `${th.virtual ? 'virtual thread' : 'thread'} #${th.javaId}`;
}
