/**
 * Class-initialisation waits of one dump, and the cycles among them, shared by class-init-wait (which
 * reports them) and stuck-threads (whose stuck initialisers and waiters link to that finding): a thread
 * of a cycle links to the cycle, so one cycle is one root cause in the summary.
 */
import type { Model } from '../../model/model.js';
import type { StackFrame, ThreadEntry } from '../../model/thread-dump.js';
import { threadsByStack } from './threads-by-stack.js';

interface ClassInitCycle {
  /** The threads of the cycle (indexes in the dump), each waiting for the class the next initialises. */
  readonly path: readonly number[];
  /** The class each thread of path waits for. */
  readonly classes: readonly string[];
  /** The class-init-wait finding's subject for this cycle. */
  readonly subject: string;
}

export interface ClassInitWaits {
  /** Each waiting thread (index in the dump) with the class it waits for. */
  readonly waitsFor: ReadonlyMap<number, string>;
  /** The thread running each awaited class's static initialiser (the outermost, if nested). */
  readonly initialiserOf: ReadonlyMap<string, number>;
  readonly cycles: readonly ClassInitCycle[];
  /** The cycle each thread of a cycle is in. */
  readonly cycleOfThread: ReadonlyMap<number, ClassInitCycle>;
}

const cache = new WeakMap<Model, Map<number, ClassInitWaits>>();

/** The waits of one dump, their initialisers and cycles; computed once per model and dump. */
export function classInitWaits(model: Model, dump: number): ClassInitWaits {
  let byDump = cache.get(model);
  if (byDump === undefined) cache.set(model, (byDump = new Map()));
  let found = byDump.get(dump);
  if (found === undefined) byDump.set(dump, (found = compute(model, dump)));
  return found;
}

function compute(model: Model, dump: number): ClassInitWaits {
  const threads = model.dumps[dump]!.threads;
  const waitsFor = classWaits(model, dump);
  const initialiserOf = new Map<string, number>();
  const cycles: ClassInitCycle[] = [];
  const cycleOfThread = new Map<number, ClassInitCycle>();
  if (waitsFor.size === 0) return { waitsFor, initialiserOf, cycles, cycleOfThread };
  // Read once per group of identical stacks (threadsByStack), not per thread: only the awaited classes matter.
  const awaited = new Set(waitsFor.values());
  const runsInitialiser = (frames: readonly StackFrame[]) => frames.some((f) => f.method === '<clinit>' && awaited.has(f.className));
  for (const i of threadsByStack(model, dump, runsInitialiser)) {
    for (const f of threads[i]!.frames) if (f.method === '<clinit>' && !initialiserOf.has(f.className)) initialiserOf.set(f.className, i);
  }
  // Cycles: follow waiter -> initialiser of the class it waits for, while that one waits too.
  for (const start of waitsFor.keys()) {
    if (cycleOfThread.has(start)) continue;
    const path: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && !path.includes(at)) {
      path.push(at);
      const cls = waitsFor.get(at);
      at = cls !== undefined ? initialiserOf.get(cls) : undefined;
    }
    if (at === undefined || at !== start) continue;
    const classes = path.map((t) => waitsFor.get(t)!);
    const cycle = { path, classes, subject: `class initialisation cycle: ${[...classes].sort().join(', ')}` };
    cycles.push(cycle);
    for (const t of path) cycleOfThread.set(t, cycle);
  }
  return { waitsFor, initialiserOf, cycles, cycleOfThread };
}

/** The class a thread waits to see initialised, if it does. */
export function classAwaited(th: ThreadEntry): string | undefined {
  // A loop, not find(): it runs for every thread of every dump, and most have no lock line at all.
  for (const l of th.locks) if (l.kind === 'waiting-class-init') return l.lock?.className || undefined;
  return undefined;
}

/**
 * The threads of one dump that wait for a class's initialisation, with the class. The classifier has
 * read every thread's lock lines and said so in its verdict (basis `class-init`): the dense verdicts
 * are scanned, and only those threads' locks read again.
 */
export function classWaits(model: Model, dump: number): Map<number, string> {
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
