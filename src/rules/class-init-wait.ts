/**
 * Threads waiting for another thread's class initialisation. The idea: a thread that touches a class
 * being initialised waits for the thread running that class's static initialiser (`<clinit>` in its
 * stack; JDK 17+ dumps say `waiting on the Class initialization monitor for X`); when that thread
 * itself waits for a class the first one initialises, neither can finish: a deadlock the JVM's
 * detector does not report (no monitor is owned). Otherwise every caller waits as long as the
 * initialiser takes.
 */
import type { Evidence } from '../model/findings.js';
import type { Model, ThreadRef } from '../model/model.js';
import type { StackFrame, ThreadEntry } from '../model/thread-dump.js';
import { activityFrame } from '../threads/thread-activity.js';
import type { FindingDraft, Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { withCode } from './support/thread-code.js';
import { threadsByStack } from './support/threads-by-stack.js';

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
    const waitsFor = classWaits(model, last);
    if (waitsFor.size === 0) return [];
    // The thread running each class's static initialiser (the outermost, if nested), by class name.
    // Read once per group of identical stacks (threadsByStack), not per thread: only the awaited classes matter.
    const awaited = new Set(waitsFor.values());
    const initialiserOf = new Map<string, number>();
    const runsInitialiser = (frames: readonly StackFrame[]) => frames.some((f) => f.method === '<clinit>' && awaited.has(f.className));
    for (const i of threadsByStack(model, last, runsInitialiser)) {
      for (const f of threads[i]!.frames) if (f.method === '<clinit>' && !initialiserOf.has(f.className)) initialiserOf.set(f.className, i);
    }
    const ref = (i: number): ThreadRef => model.threadRefs[last]![i]!;
    // How many dumps a thread (by name) waited for this class in: each dump's waits read once.
    const waitsByDump = model.dumps.map((d, k) => {
      const waits = new Map<string, string>();
      for (const [t, cls] of k === last ? waitsFor : classWaits(model, k)) waits.set(d.threads[t]!.name, cls);
      return waits;
    });
    const dumpsWaiting = (i: number, cls: string) => waitsByDump.filter((w) => w.get(threads[i]!.name) === cls).length;

    // Cycles: follow waiter -> initialiser of the class it waits for, while that one waits too.
    const inCycle = new Set<number>();
    const drafts: FindingDraft[] = [];
    for (const start of waitsFor.keys()) {
      if (inCycle.has(start)) continue;
      const path: number[] = [];
      let at: number | undefined = start;
      while (at !== undefined && !path.includes(at)) {
        path.push(at);
        const cls = waitsFor.get(at);
        at = cls !== undefined ? initialiserOf.get(cls) : undefined;
      }
      if (at === undefined || at !== start) continue;
      for (const t of path) inCycle.add(t);
      const classes = path.map((t) => waitsFor.get(t)!);
      const steps = path.map(
        (t, k) => `"${threads[t]!.name}" initialises ${waitsFor.get(path[(k + path.length - 1) % path.length]!)} and waits for ${classes[k]}`,
      );
      drafts.push({
        subject: `class initialisation cycle: ${[...classes].sort().join(', ')}`,
        severity: 'critical',
        message:
          `A deadlock in class initialisation, which the JVM does not report (no monitor is owned): ${steps.join('; ')}. ` +
          `Neither class will ever be initialised; every thread that touches one of them will wait too.`,
        facts: { classes, threads: path.map((t) => threads[t]!.name), dumpsWaiting: path.map((t) => dumpsWaiting(t, waitsFor.get(t)!)) },
        evidence: withCode(
          model,
          path.map((t) => threadEvidence(model, ref(t), `waits for ${waitsFor.get(t)}`)),
        ),
        impact: path.length * 5,
      });
    }

    // The other waits, by the class waited for.
    const byClass = new Map<string, number[]>();
    for (const [t, cls] of waitsFor) if (!inCycle.has(t)) byClass.set(cls, [...(byClass.get(cls) ?? []), t]);
    for (const [cls, waiters] of byClass) {
      const init = initialiserOf.get(cls);
      const cycleBehind = init !== undefined && inCycle.has(init);
      const evidence: Evidence[] = withCode(model, [
        ...(init !== undefined ? [threadEvidence(model, ref(init), `the initialiser: ${doing(threads[init]!, cls)}`)] : []),
        ...waiters.slice(0, 50).map((t) => threadEvidence(model, ref(t), `waits for ${cls}`)),
      ]);
      const longest = Math.max(...waiters.map((t) => dumpsWaiting(t, cls)));
      drafts.push({
        subject: cls,
        ...(cycleBehind ? { severity: 'critical' as const } : {}),
        message:
          `${plural(waiters.length, 'thread waits', 'threads wait')} for ${cls} to be initialised (${waiters
            .slice(0, 5)
            .map((t) => `"${threads[t]!.name}"`)
            .join(', ')}${waiters.length > 5 ? ', ...' : ''})` +
          (init !== undefined
            ? `, which "${threads[init]!.name}" is initialising; it ${doing(threads[init]!, cls)}` +
              `${cycleBehind ? ', in a class initialisation deadlock: they will wait forever' : ''}.`
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
        impact: waiters.length * 2,
      });
    }
    return drafts;
  },
};

/** The class a thread waits to see initialised, if it does. */
function classAwaited(th: ThreadEntry): string | undefined {
  // A loop, not find(): it runs for every thread of every dump, and most have no lock line at all.
  for (const l of th.locks) if (l.kind === 'waiting-class-init') return l.lock?.className || undefined;
  return undefined;
}

/**
 * The threads of one dump that wait for a class's initialisation, with the class. The classifier has
 * read every thread's lock lines and said so in its verdict (basis `class-init`): the dense verdicts
 * are scanned, and only those threads' locks read again.
 */
function classWaits(model: Model, dump: number): Map<number, string> {
  const threads = model.dumps[dump]!.threads;
  const activity = model.activity[dump]!;
  const out = new Map<number, string>();
  for (let i = 0; i < activity.length; i++) {
    if (activity[i]!.basis !== 'class-init') continue;
    const cls = classAwaited(threads[i]!);
    if (cls !== undefined) out.set(i, cls);
  }
  return out;
}

/** What the initialiser does, in words: its state and where it is inside the static initialiser. */
function doing(th: ThreadEntry, cls: string): string {
  const awaited = classAwaited(th);
  if (awaited !== undefined) return `waits for ${awaited}'s initialisation, in ${cls}.<clinit>`;
  const where = activityFrame(th);
  const inside = where === `${cls}.<clinit>` ? '' : `, inside ${cls}.<clinit>`;
  return `is ${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''} in ${where}${inside}`;
}
