import type { Rule } from './rule.js';
import { describeThread, plural, threadEvidence } from './evidence.js';

/** Many threads queued on one lock: names the owner and what it is doing. */
export const lockContention: Rule = {
  meta: {
    id: 'lock-contention',
    defaultSeverity: 'warning',
    title: 'Lock contention',
    description: 'Many threads blocked or parked on the same monitor or java.util.concurrent lock.',
    remedy:
      'Look at what the owner does while holding the lock (I/O, a remote call, a long loop) and move it outside the critical section, or split the lock.',
    options: {
      minWaiters: { default: 5, description: 'Waiting threads on one lock that make it a finding.' },
    },
  },
  check({ model, options }) {
    const min = Number(options['minWaiters']);
    const deadlocked = new Set(model.locks.deadlocks.flatMap((d) => d.locks.map((l) => `${d.dump}:${l.id}`)));
    const bySubject = new Map<string, (typeof model.locks.contended)[number][]>();
    for (const l of model.locks.contended) {
      if (l.waiters.length < min || deadlocked.has(`${l.dump}:${l.lock.id}`)) continue;
      // A semaphore has permits, not an owner: threads queued on it are a saturated limit (connection-pool-starvation).
      if (/\.Semaphore\$\w*Sync$/.test(l.lock.className)) continue;
      const subject = `${l.lock.className}@${l.lock.id}`;
      const list = bySubject.get(subject) ?? [];
      list.push(l);
      bySubject.set(subject, list);
    }
    return [...bySubject].map(([subject, seen]) => {
      const worst = seen.reduce((a, b) => (b.waiters.length > a.waiters.length ? b : a));
      const ownerText = worst.owner ? `held by "${worst.owner.name}", which is ${describeThread(model, worst.owner)}` : 'whose owner the dump does not name';
      return {
        subject,
        message: `${plural(worst.waiters.length, 'thread')} wait for ${worst.lock.className} <${worst.lock.id}>, ${ownerText}.`,
        facts: {
          waiters: worst.waiters.length,
          lockClass: worst.lock.className,
          lockId: worst.lock.id,
          owner: worst.owner?.name ?? null,
          ownerActivity: worst.owner ? describeThread(model, worst.owner) : null,
          dumps: seen.map((s) => s.dump),
        },
        evidence: [
          ...(worst.owner ? [threadEvidence(model, worst.owner, 'owner')] : []),
          ...worst.waiters.slice(0, 50).map((w) => threadEvidence(model, w, w.kind === 'parking' ? 'parked' : 'blocked')),
        ],
      };
    });
  },
};
