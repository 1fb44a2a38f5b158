/**
 * The code of the threads a finding names: each thread's top frames down to the first frame of the
 * application's own code, the frames where it took a lock, and the lock lines with the owner of the
 * lock it waits for. Built once here, where findings are made, so every format draws the same lines
 * (a user needs the line of code, not only the dump's file and line).
 */
import { isFrameworkClass, isJdkClass, isKnownFrame, libraryOf } from '../../knowledge/index.js';
import type { Evidence, EvidenceFrame, EvidenceLock, ThreadCode } from '../../model/findings.js';
import type { Model } from '../../model/model.js';
import type { FrameLock, StackFrame, ThreadEntry } from '../../model/thread-dump.js';
import { type LockWaits, lockWaitsByDump } from './held-up.js';

/** Threads whose code a finding shows by default; its other threads are listed by name and line. */
const CODE_THREADS = 3;

/** Frames shown per thread at most; the rest are counted. */
const MAX_FRAMES = 8;

/** Above the first application frame, frames shown one by one when there are at most this many. */
const TOP_RUN = 4;

/** A thread with no application frame (a JDK or framework thread): its top frames. */
const NO_APP_FRAMES = 4;

type ThreadEvidence = Extract<Evidence, { kind: 'thread' }>;

/**
 * The evidence with the code of its first `limit` threads attached. Skipped, and not counted: idle
 * threads (a thread waiting for work has no line of code to blame), threads without frames, and a
 * thread with the very frames of one already shown (a pool's workers queued on one lease print the
 * same lines, but for the addresses), unless `everyStack` (a deadlock's threads may run the same code
 * and differ in the locks, which is the point).
 */
export function withCode(model: Model, evidence: readonly Evidence[], limit = CODE_THREADS, everyStack = false): Evidence[] {
  const waitsOf = lockWaitsOf(model);
  const shown = new Set<string>();
  const stacks = new Set<StackFrame[]>();
  let count = 0;
  return evidence.map((e) => {
    if (count >= limit || e.kind !== 'thread' || e.frames !== undefined) return e;
    const th = model.dumps[e.dump]?.threads[e.index];
    if (th === undefined || th.frames.length === 0) return e;
    if (model.activity[e.dump]?.[e.index]?.activity === 'idle') return e;
    const key = `${e.dump}:${e.index}`;
    if (shown.has(key) || (!everyStack && stacks.has(th.frames))) return e;
    stacks.add(th.frames);
    shown.add(key);
    count++;
    return { ...e, ...threadCode(th, e.index, waitsOf(e.dump)) } satisfies ThreadEvidence;
  });
}

// One index of each dump's lock waits for every finding of a run (a dump may hold 100k waiters).
const waitsByModel = new WeakMap<Model, (dump: number) => LockWaits>();

function lockWaitsOf(model: Model): (dump: number) => LockWaits {
  let w = waitsByModel.get(model);
  if (w === undefined) waitsByModel.set(model, (w = lockWaitsByDump(model)));
  return w;
}

/** One thread's code: which frames, their lock lines, and what it holds beside them. */
function threadCode(th: ThreadEntry, index: number, waits: LockWaits): ThreadCode {
  const app = firstApplicationFrame(th.frames);
  const picked = pickFrames(th, app);
  const owner = ownerOfWait(th, index, waits);
  const frames: EvidenceFrame[] = picked.map((depth) => {
    const f = th.frames[depth]!;
    return {
      frame: `${f.qualified}${f.location ? `(${f.location})` : ''}`,
      depth,
      application: depth === app,
      locks: th.locks.filter((l) => l.frameIndex === depth).map((l) => lockOf(l, owner)),
    };
  });
  return {
    state: `${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''}`,
    frames,
    stackDepth: th.frames.length,
    // A pool's worker holds its own Worker lock while it runs a task: nobody waits on that one.
    holds: th.ownableSynchronizers.filter((s) => !s.className.endsWith('ThreadPoolExecutor$Worker')).map((s) => ({ lock: s.id, className: s.className })),
  };
}

function lockOf(l: FrameLock, owner: { id: string; name: string } | undefined): EvidenceLock {
  const lock = l.lock?.id ?? '';
  const className = l.lock?.className ?? '';
  const waits = l.kind === 'waiting-to-lock' || l.kind === 'blocked-on' || l.kind === 'parking' || l.kind === 'waiting-to-relock';
  return owner !== undefined && waits && lock !== '' && lock === owner.id
    ? { kind: l.kind, lock, className, heldBy: owner.name }
    : { kind: l.kind, lock, className };
}

/** The owner of the lock the thread waits for: from the lock graph, else as the dump names it (ThreadInfo, JSON dumps). */
function ownerOfWait(th: ThreadEntry, index: number, waits: LockWaits): { id: string; name: string } | undefined {
  const l = waits.lockOf(index);
  if (l?.owner) return { id: l.lock.id, name: l.owner.name };
  if (th.lockOwnerName === undefined) return undefined;
  const awaited = th.locks.find((x) => x.lock !== null && (x.kind === 'waiting-to-lock' || x.kind === 'blocked-on' || x.kind === 'parking'));
  return awaited?.lock ? { id: awaited.lock.id, name: th.lockOwnerName } : undefined;
}

/**
 * Depths of the frames to show, top first: the top frame (where it waits), the run down to the
 * first application frame (or, past TOP_RUN, the call the application made and its own frame), and
 * every frame that carries a lock line (where it took what it holds); at most MAX_FRAMES.
 */
function pickFrames(th: ThreadEntry, app: number): number[] {
  const n = th.frames.length;
  const first: number[] = [];
  if (app < 0) for (let i = 0; i < Math.min(n, NO_APP_FRAMES); i++) first.push(i);
  else if (app <= TOP_RUN) for (let i = 0; i <= app; i++) first.push(i);
  else first.push(0, app - 1, app);
  const picked = new Set(first);
  for (const l of th.locks) {
    if (picked.size >= MAX_FRAMES) break;
    if (l.frameIndex >= 0 && l.frameIndex < n) picked.add(l.frameIndex);
  }
  return [...picked].sort((a, b) => a - b).slice(0, MAX_FRAMES);
}

const appFrameCache = new WeakMap<readonly StackFrame[], number>();

/**
 * The first frame of the application's own code, or -1: outside the JDK and the framework libraries
 * the knowledge registry names, not a frame it names (a framework's wait, loop or lease), and not in
 * the library of such a frame above it (beneath a shaded `com.zaxxer.hikari.util.ConcurrentBag.borrow`,
 * the `com.zaxxer.hikari` frames that called it are the pool's too).
 */
function firstApplicationFrame(frames: readonly StackFrame[]): number {
  const cached = appFrameCache.get(frames);
  if (cached !== undefined) return cached;
  const libraries = new Set<string>();
  let found = -1;
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    if (isJdkClass(f.className) || isFrameworkClass(f.className)) continue;
    const root = libraryOf(f.className);
    if (isKnownFrame(f)) {
      if (root !== '') libraries.add(root);
      continue;
    }
    if (root !== '' && libraries.has(root)) continue;
    found = i;
    break;
  }
  appFrameCache.set(frames, found);
  return found;
}
