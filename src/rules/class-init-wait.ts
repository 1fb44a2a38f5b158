/**
 * Threads waiting for another thread's class initialisation. The idea: a thread that touches a class
 * being initialised waits for the thread running that class's static initialiser (`<clinit>` in its
 * stack; JDK 17+ dumps say `waiting on the Class initialization monitor for X`); when that thread
 * itself waits for a class the first one initialises, neither can finish: a deadlock the JVM's
 * detector does not report (no monitor is owned). Otherwise every caller waits as long as the
 * initialiser takes.
 */
import type { Evidence } from '../model/findings.js';
import type { ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { activityFrame } from '../threads/thread-activity.js';
import type { FindingDraft, Rule } from './rule.js';
import { classAwaited, classInitWaits, classWaits } from './support/class-init.js';
import { plural, threadEvidence } from './support/evidence.js';
import { withCode } from './support/thread-code.js';

export const classInitWait: Rule = {
  meta: {
    id: 'class-init-wait',
    defaultSeverity: 'warning',
    title: "Threads waiting for a class's initialisation",
    description:
      "Threads waiting for the class another thread is initialising (its <clinit> in that thread's stack; JDK 17+ " +
      'dumps print `waiting on the Class initialization monitor`): the initialiser, what it does, and the waiters; ' +
      "a cycle of them (A's initialiser needs B while B's needs A) is a deadlock the JVM does not report (critical).",
    remedy:
      'A static initialiser must not wait for other threads, remote services or classes that may be initialising at the same ' +
      'time: move slow work (configuration fetches, connections) out of static blocks into lazily initialised holders with ' +
      "timeouts, and break cycles between classes' static initialisers by initialising them from one place, in one order.",
    options: {},
  },
  check({ model }) {
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    const threads = model.dumps[last]!.threads;
    const { waitsFor, initialiserOf, cycles, cycleOfThread } = classInitWaits(model, last);
    if (waitsFor.size === 0) return [];
    const ref = (i: number): ThreadRef => model.threadRefs[last]![i]!;
    // How many dumps a thread (by name) waited for this class in: each dump's waits read once.
    const waitsByDump = model.dumps.map((d, k) => {
      const waits = new Map<string, string>();
      for (const [t, cls] of k === last ? waitsFor : classWaits(model, k)) waits.set(d.threads[t]!.name, cls);
      return waits;
    });
    const dumpsWaiting = (i: number, cls: string) => waitsByDump.filter((w) => w.get(threads[i]!.name) === cls).length;

    const drafts: FindingDraft[] = cycles.map(({ path, classes, subject }) => {
      const steps = path.map(
        (t, k) => `"${threads[t]!.name}" initialises ${waitsFor.get(path[(k + path.length - 1) % path.length]!)} and waits for ${classes[k]}`,
      );
      return {
        subject,
        severity: 'critical' as const,
        message:
          `A deadlock in class initialisation, which the JVM does not report (no monitor is owned): ${steps.join('; ')}. ` +
          `Neither class will ever be initialised; every thread that touches one of them will wait too.`,
        facts: { classes: [...classes], threads: path.map((t) => threads[t]!.name), dumpsWaiting: path.map((t) => dumpsWaiting(t, waitsFor.get(t)!)) },
        evidence: withCode(
          model,
          path.map((t) => threadEvidence(model, ref(t), `waits for ${waitsFor.get(t)}`)),
        ),
        impact: path.length * 5,
      };
    });

    // The other waits, by the class waited for.
    const byClass = new Map<string, number[]>();
    for (const [t, cls] of waitsFor) if (!cycleOfThread.has(t)) byClass.set(cls, [...(byClass.get(cls) ?? []), t]);
    for (const [cls, waiters] of byClass) {
      const init = initialiserOf.get(cls);
      // Waiters of a class whose initialiser is in a cycle wait forever: the cycle is their cause (one root).
      const cycleBehind = init !== undefined ? cycleOfThread.get(init) : undefined;
      const evidence: Evidence[] = withCode(model, [
        ...(init !== undefined ? [threadEvidence(model, ref(init), `the initialiser: ${doing(threads[init]!, cls)}`)] : []),
        ...waiters.slice(0, 50).map((t) => threadEvidence(model, ref(t), `waits for ${cls}`)),
      ]);
      const longest = Math.max(...waiters.map((t) => dumpsWaiting(t, cls)));
      drafts.push({
        subject: cls,
        ...(cycleBehind !== undefined ? { severity: 'critical' as const } : {}),
        message:
          `${plural(waiters.length, 'thread waits', 'threads wait')} for ${cls} to be initialised (${waiters
            .slice(0, 5)
            .map((t) => `"${threads[t]!.name}"`)
            .join(', ')}${waiters.length > 5 ? ', ...' : ''})` +
          (init !== undefined
            ? `, which "${threads[init]!.name}" is initialising; it ${doing(threads[init]!, cls)}` +
              `${cycleBehind !== undefined ? ', in a class initialisation deadlock: they will wait forever' : ''}.`
            : ': no thread of the dump runs its static initialiser (it may have just finished, or failed).') +
          (longest > 1 ? ` Seen waiting in ${longest} of ${model.dumps.length} dumps.` : ''),
        facts: {
          class: cls,
          initialiser: init !== undefined ? threads[init]!.name : null,
          initialiserDoing: init !== undefined ? doing(threads[init]!, cls) : null,
          waiters: waiters.map((t) => threads[t]!.name),
          waiterCount: waiters.length,
          dumpsWaiting: longest,
        },
        evidence,
        ...(cycleBehind !== undefined ? { causedBy: [{ rule: 'class-init-wait', subject: cycleBehind.subject }] } : {}),
        impact: waiters.length * 2,
      });
    }
    return drafts;
  },
};

/** What the initialiser does, in words: its state and where it is inside the static initialiser. */
function doing(th: ThreadEntry, cls: string): string {
  const awaited = classAwaited(th);
  if (awaited !== undefined) return `waits for ${awaited}'s initialisation, in ${cls}.<clinit>`;
  const where = activityFrame(th);
  const inside = where === `${cls}.<clinit>` ? '' : `, inside ${cls}.<clinit>`;
  return `is ${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''} in ${where}${inside}`;
}
