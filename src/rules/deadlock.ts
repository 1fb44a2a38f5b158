import type { Evidence } from '../model/findings.js';
import { FORMATS_WITHOUT_JVM_DEADLOCK_REPORT } from '../model/thread-dump.js';
import { reportDescribesCycle } from '../threads/lock-graph.js';
import type { Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { lockWaitsByDump } from './support/held-up.js';
import { withCode } from './support/thread-code.js';

/** Cycles of threads waiting for each other's monitors or j.u.c. locks, found in the lock graph. */
export const deadlock: Rule = {
  meta: {
    id: 'deadlock',
    defaultSeverity: 'critical',
    title: 'Deadlock',
    description: 'A cycle of threads each waiting for a lock (monitor or java.util.concurrent) held by the next.',
    remedy: 'Take the locks in one global order everywhere, or use tryLock with a timeout; the cycle never resolves by itself, so restart the JVM to recover.',
    options: {},
  },
  check({ model }) {
    // The same cycle seen in several dumps of a series is one problem.
    const byKey = new Map<string, { dumps: number[]; index: number }>();
    const cycles = model.locks.deadlocks;
    cycles.forEach((c, i) => {
      // Names repeat (two different "DeadlockThread-A"), so ids are part of the identity.
      const key = c.threads
        .map((t) => {
          const th = model.dumps[t.dump]!.threads[t.thread]!;
          return `${t.name}|${th.javaId ?? ''}|${th.nativeId ?? ''}`;
        })
        .sort()
        .join('\u0000');
      const seen = byKey.get(key);
      if (seen) seen.dumps.push(c.dump);
      else byKey.set(key, { dumps: [c.dump], index: i });
    });
    const waitsOf = lockWaitsByDump(model);
    return [...byKey.values()].map(({ dumps, index }) => {
      const c = cycles[index]!;
      const names = c.threads.map((t) => t.name);
      const chain = c.threads
        .map((t, k) => `"${t.name}" waits for ${c.locks[k] ? c.locks[k]!.className : 'a lock'} held by "${names[(k + 1) % names.length]}"`)
        .join('; ');
      // Each thread of the cycle with its code: where it holds one lock and waits for the next.
      const evidence: Evidence[] = withCode(
        model,
        c.threads.map((t, k) => threadEvidence(model, t, c.locks[k] ? `waits for <${c.locks[k]!.id}> (${c.locks[k]!.className})` : undefined)),
        CYCLE_CODE_THREADS,
        true,
      );
      const dump = model.dumps[c.dump]!;
      // The cycle's own report: matched by its edges and locks, not by a name another cycle may share.
      const lockIds = c.locks.length === names.length ? c.locks.map((l) => l.id) : names.map(() => undefined);
      for (const r of dump.jvmDeadlocks) {
        if (reportDescribesCycle(r, names, lockIds))
          evidence.push({ kind: 'jvm-report', dump: c.dump, source: dump.source, line: r.line, note: 'the JVM reported this deadlock' });
      }
      const possible = c.confidence === 'possible';
      // Threads that wait, through any chain of locks, for one of the cycle: they never move either.
      const heldUp = waitsOf(c.dump).heldUpBy(c.threads.map((t) => t.thread));
      const heldUpText =
        heldUp.length > 0
          ? ` It holds up ${plural(heldUp.length, 'more thread')} waiting behind them: ${heldUp
              .slice(0, 8)
              .map((t) => `"${t.name}"`)
              .join(', ')}${heldUp.length > 8 ? ', ...' : ''}.`
          : '';
      for (const t of heldUp.slice(0, 50)) evidence.push(threadEvidence(model, t, 'held up behind the deadlock'));
      const draft = {
        subject: names.join(' <-> '),
        title: possible ? `Possible deadlock (${c.through === 'future' ? 'through a future' : 'read lock'})` : 'Deadlock',
        message: possible
          ? `${names.length} threads are probably deadlocked: ${c.note ?? chain}${heldUpText}`
          : `${names.length} threads are deadlocked` +
            `${c.reportedByJvm || FORMATS_WITHOUT_JVM_DEADLOCK_REPORT.has(model.dumps[c.dump]!.format) ? '' : ' (the JVM did not report it)'}` +
            `: ${chain}.${heldUpText}`,
        facts: {
          threads: names,
          threadCount: names.length,
          lockClasses: c.locks.map((l) => l.className),
          reportedByJvm: c.reportedByJvm,
          confidence: c.confidence,
          dumps: dumps,
          heldUp: heldUp.map((t) => t.name),
          heldUpCount: heldUp.length,
        },
        evidence,
        impact: names.length + heldUp.length * 2,
      };
      if (!possible) return draft;
      // Through a future, no lock order helps: the holder must not wait for a task that needs its lock.
      const remedy =
        c.through === 'future'
          ? 'Do not wait for a task while holding a lock the task needs: submit it and wait for its result outside the lock ' +
            '(or run the call after start-up); the cycle never resolves by itself, so restart the JVM to recover.'
          : undefined;
      return { ...draft, severity: 'error' as const, ...(remedy !== undefined ? { remedy } : {}) };
    });
  },
};

/** Threads of a cycle whose code the finding shows (a cycle is rarely longer; the rest are listed). */
const CYCLE_CODE_THREADS = 5;
