import type { LockModel, SeriesModel } from '../model/model.js';
import type { Rule } from './rule.js';
import { stuckThreadsSubjectOf } from './support/cause-links.js';
import { describeThread, plural, threadEvidence } from './support/evidence.js';
import { deadlockSubject, heldUpByDeadlocks, lockSubject, lockWaitsByDump, waitChain } from './support/held-up.js';
import { withCode } from './support/thread-code.js';

/** Many threads queued on one lock: names the owner and what it is doing. */
export const lockContention: Rule = {
  meta: {
    id: 'lock-contention',
    defaultSeverity: 'warning',
    title: 'Lock contention',
    description: 'Many threads blocked or parked on the same monitor or java.util.concurrent lock.',
    remedy: 'Look at what the owner does while holding the lock (I/O, a remote call, a long loop) and move it outside the critical section, or split the lock.',
    remedyKind: 'search',
    options: {
      minWaiters: { type: 'integer', min: 1, default: 5, description: 'Waiting threads on one lock that make it a finding.' },
    },
  },
  check({ model, options }) {
    const min = Number(options['minWaiters']);
    const bySubject = new Map<string, (typeof model.locks.contended)[number][]>();
    for (const l of model.locks.contended) {
      // A lock of a deadlock cycle counts too when others queue on it (the deadlock is then its cause):
      // the cycle's own threads are one waiter per lock, below any minimum.
      if (l.waiters.length < min) continue;
      // A semaphore has permits, not an owner: threads queued on it are a saturated limit (connection-pool-starvation).
      if (/\.Semaphore\$\w*Sync$/.test(l.lock.className)) continue;
      const subject = lockSubject(l);
      const list = bySubject.get(subject) ?? [];
      list.push(l);
      bySubject.set(subject, list);
    }
    const waitsOf = lockWaitsByDump(model);
    return mergeMovedLocks([...bySubject], model.series).map(([subject, seen]) => {
      const worst = seen.reduce((a, b) => (b.waiters.length > a.waiters.length ? b : a));
      const lockIds = [...new Set(seen.map((s) => s.lock.id))];
      // An owner that is itself in a deadlock (or waits behind one) never lets go: the deadlock is the cause.
      const waits = waitsOf(worst.dump);
      const owner = worst.owner?.thread;
      const behind =
        owner === undefined
          ? []
          : heldUpByDeadlocks(model, worst.dump, waits).filter(
              ({ deadlock, heldUp }) => deadlock.threads.some((t) => t.thread === owner) || heldUp.some((t) => t.thread === owner),
            );
      const heldUp = owner === undefined ? 0 : waits.heldUpCount([owner]);
      // Not an owner that waits for a lock itself: that lock's contention is the next link (and its
      // stuck group may be these waiters' own, which would make each the other's cause).
      const ownerStuck =
        worst.owner && behind.length === 0 && waits.lockOf(worst.owner.thread) === undefined ? stuckThreadsSubjectOf(model, worst.owner) : undefined;
      // Past the first hop: what the owner itself waits for, as far as the dump shows it.
      const chain = worst.owner ? waitChain(model, worst.dump, worst.owner, waits) : '';
      const ownerText = worst.owner
        ? `held by "${worst.owner.name}", which is ${describeThread(model, worst.owner)}${chain !== '' ? `; it ${chain}` : ''}`
        : 'whose owner the dump does not name';
      // Idle threads queued on a loop's lock take turns at waiting for work (accepting on one server
      // socket, a muxer's turn): nothing waits that has work to do.
      const takingTurns = worst.waiters.every((w) => model.activity[w.dump]![w.thread]!.activity === 'idle');
      const turnReason = takingTurns ? model.activity[worst.waiters[0]!.dump]![worst.waiters[0]!.thread]!.reason : '';
      return {
        subject,
        ...(takingTurns ? { severity: 'info' as const } : {}),
        message: takingTurns
          ? `${plural(worst.waiters.length, 'idle thread')} take turns on ${worst.lock.className} <${worst.lock.id}>, ${ownerText}: ` +
            `not contention, each ${turnReason}.`
          : `${plural(worst.waiters.length, 'thread')} wait for ${worst.lock.className} <${worst.lock.id}>, ${ownerText}.`,
        facts: {
          waiters: worst.waiters.length,
          lockClass: worst.lock.className,
          lockId: worst.lock.id,
          owner: worst.owner?.name ?? null,
          ownerActivity: worst.owner ? describeThread(model, worst.owner) : null,
          ownerWaitChain: chain || null,
          dumps: seen.map((s) => s.dump),
          takingTurns,
          ...(lockIds.length > 1 ? { lockIds } : {}),
        },
        // The owner's code first: what it does while it holds the lock; then where the waiters queue.
        evidence: withCode(model, [
          ...(worst.owner ? [threadEvidence(model, worst.owner, 'owner')] : []),
          ...worst.waiters.slice(0, 50).map((w) => threadEvidence(model, w, w.kind === 'parking' ? 'parked' : 'blocked')),
        ]),
        causedBy: [
          ...behind.map(({ deadlock }) => ({ rule: 'deadlock', subject: deadlockSubject(deadlock) })),
          // An owner stuck in one place in every dump (a write that does not return) is what keeps the lock taken.
          ...(ownerStuck !== undefined ? [{ rule: 'stuck-threads', subject: ownerStuck }] : []),
        ],
        // The owner holds up everyone behind it, through any chain of locks.
        impact: Math.max(worst.waiters.length, heldUp) * 2,
      };
    });
  },
};

/**
 * A compacting GC between dumps moves a lock, so the same contention shows under a new address in
 * the next dump of the series. Groups of one lock class with the same named owner, in the same
 * series and never in the same dump, are one contention: one finding, under the first address.
 */
function mergeMovedLocks(groups: Array<[string, LockModel[]]>, series: readonly SeriesModel[]): Array<[string, LockModel[]]> {
  const seriesOf = new Map<number, number>();
  series.forEach((s, i) => s.dumps.forEach((d) => seriesOf.set(d, i)));
  const out: Array<[string, LockModel[]]> = [];
  for (const [subject, seen] of [...groups].sort((a, b) => Math.min(...a[1].map((l) => l.dump)) - Math.min(...b[1].map((l) => l.dump)))) {
    const first = seen[0]!;
    const owner = first.owner?.name;
    const ser = seriesOf.get(first.dump);
    const into =
      owner === undefined || ser === undefined
        ? undefined
        : out.find(([, other]) => {
            const o = other[0]!;
            return (
              o.lock.className === first.lock.className &&
              o.owner?.name === owner &&
              other.every((l) => l.owner?.name === owner) &&
              seen.every((l) => l.owner?.name === owner && seriesOf.get(l.dump) === ser) &&
              seriesOf.get(o.dump) === ser &&
              !other.some((l) => seen.some((m) => m.dump === l.dump))
            );
          });
    if (into !== undefined) into[1].push(...seen);
    else out.push([subject, [...seen]]);
  }
  return out;
}
