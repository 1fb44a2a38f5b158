/**
 * The lock graph of one dump: who owns which monitor or j.u.c. synchronizer, who waits for it,
 * and the cycles in the wait-for graph. Cycles are found here, not taken from the JVM's report,
 * so dumps without a report (VisualVM, ThreadInfo, j.u.c. read-lock cycles) are covered too.
 */
import type { JvmDeadlockReport, LockRef, ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { IdIndex } from './id-index.js';
import { heldLocks, type ThreadWait, type WaitKind, waitOf } from './thread-waits.js';

interface LockNode {
  /** Its place in LockGraph.locks, so analyses keep what they learn of a lock in arrays, not maps. */
  readonly index: number;
  readonly lock: LockRef;
  /** Index into dump.threads of the owner, when known. */
  owner: number | null;
  readonly waiters: Array<{ thread: number; kind: WaitKind }>;
}

interface DeadlockCycle {
  /** Thread indexes in wait order: each waits for a lock held by the next, the last by the first. */
  readonly threads: number[];
  readonly locks: LockRef[];
  /** `certain` when every edge comes from an owner the dump names; `possible` when a read-lock holder was inferred. */
  readonly confidence: 'certain' | 'possible';
  readonly reportedByJvm: boolean;
  readonly note?: string;
}

export interface LockGraph {
  /** Every lock the dump names, in the order first seen. */
  readonly locks: readonly LockNode[];
  /** For each thread, the thread it waits for (null when none or unknown). */
  readonly waitsFor: Array<number | null>;
  /** For each thread, what it waits for (see thread-waits.ts), computed once for every analysis of the dump. */
  readonly waits: Array<ThreadWait | null>;
  /** For each thread, the node of the lock it waits for (null when none, or the lock has no id). */
  readonly waitNodes: Array<LockNode | null>;
  readonly cycles: DeadlockCycle[];
}

const RW_SYNC = /ReentrantReadWriteLock\$(?:Nonfair|Fair)?Sync$/;
const WRITE_LOCK_FRAME = /ReentrantReadWriteLock\$WriteLock\.(?:lock|lockInterruptibly|tryLock)$/;

export function buildLockGraph(dump: ThreadDump): LockGraph {
  const threads = dump.threads;
  const locks: LockNode[] = [];
  const ids = new IdIndex();
  // Threads whose bodies were alike share their lock lines (ThreadBodies remembers bodies), and a
  // pool's threads are listed together: the answers for the last lock line, and for the last
  // thread's lines, are kept (on a dump of 200,000 such threads, each lookup by the id's text cost
  // more than the rest of the graph).
  let lastRef: LockRef | undefined;
  let lastNode: LockNode | undefined;
  const node = (l: LockRef): LockNode => {
    if (l === lastRef) return lastNode!;
    const k = ids.add(l.id);
    let n = locks[k];
    if (n === undefined) {
      n = { index: k, lock: l, owner: null, waiters: [] };
      locks.push(n);
    }
    lastRef = l;
    lastNode = n;
    return n;
  };
  // One pass over the threads for what each holds and what it waits for (each pass over 200,000
  // thread objects costs its cache misses). Held locks are numbered as met; the locks waited for
  // after them, below, so the numbering is the order first seen, holders first.
  let heldFor: ThreadEntry | undefined;
  let held: readonly LockRef[] = [];
  let waitFor: ThreadEntry | undefined;
  let lastWait: ThreadWait | null = null;
  const waits: Array<ThreadWait | null> = [];
  for (let i = 0; i < threads.length; i++) {
    const th = threads[i]!;
    if (heldFor === undefined || th.locks !== heldFor.locks || th.ownableSynchronizers !== heldFor.ownableSynchronizers) {
      held = heldLocks(th);
      heldFor = th;
    }
    for (const l of held) {
      const n = node(l);
      if (n.owner === null) n.owner = i;
    }
    // What a thread waits for follows from its lock lines, its state and its top frame (waitOf).
    if (waitFor === undefined || th.locks !== waitFor.locks || th.state !== waitFor.state || th.frames[0] !== waitFor.frames[0]) {
      lastWait = waitOf(th);
      waitFor = th;
    }
    waits.push(lastWait);
  }
  // Some formats name the owner (by Java id or name) instead of listing what it holds. The indexes are
  // built when the first such thread asks: HotSpot text dumps name no owners, and 100k names cost.
  let owners: { readonly byName: Map<string, number>; readonly byJavaId: Map<string, number> } | undefined;
  const ownerIndexes = () => {
    const byName = new Map<string, number>();
    const byJavaId = new Map<string, number>();
    threads.forEach((th, i) => {
      if (!byName.has(th.name)) byName.set(th.name, i);
      if (th.javaId !== undefined && !byJavaId.has(th.javaId)) byJavaId.set(th.javaId, i);
    });
    return { byName, byJavaId };
  };
  const namedOwner = (i: number): number | null => {
    const th = threads[i]!;
    if (th.lockOwnerId === undefined && th.lockOwnerName === undefined) return null;
    owners ??= ownerIndexes();
    const o =
      (th.lockOwnerId !== undefined ? owners.byJavaId.get(th.lockOwnerId) : undefined) ??
      (th.lockOwnerName !== undefined ? owners.byName.get(th.lockOwnerName) : undefined);
    return o !== undefined && o !== i ? o : null;
  };
  // The JVM's own deadlock report names the holder of each lock in its cycle, also of a j.u.c. lock
  // that a dump without `-l` lists under no thread: a fact the stacks alone do not give.
  const reportedHolders = new Map<string, string>();
  for (const r of dump.jvmDeadlocks)
    for (const e of r.entries) {
      const id = /0x[0-9a-fA-F]+/.exec(e.waitingFor)?.[0];
      if (id !== undefined && e.heldBy !== '') reportedHolders.set(id.toLowerCase(), e.heldBy);
    }
  const reportedOwner = (n: LockNode, waiter: number): number | null => {
    const holder = reportedHolders.size === 0 ? undefined : reportedHolders.get(n.lock.id);
    if (holder === undefined) return null;
    owners ??= ownerIndexes();
    const o = owners.byName.get(holder);
    return o !== undefined && o !== waiter ? o : null;
  };
  const waitNodes: Array<LockNode | null> = new Array<LockNode | null>(threads.length).fill(null);
  const waitsFor: Array<number | null> = waits.map((w, i) => {
    if (!w) return null;
    if (w.lock.id.length === 0) return w.kind === 'object-wait' ? null : namedOwner(i);
    const n = node(w.lock);
    waitNodes[i] = n;
    n.waiters.push({ thread: i, kind: w.kind });
    if (w.kind === 'object-wait') return null;
    n.owner ??= namedOwner(i) ?? reportedOwner(n, i);
    return n.owner !== i ? n.owner : null;
  });
  const cycles = findCycles(
    waitsFor,
    waits.map((w) => w?.lock ?? null),
  );
  cycles.push(...inferReadLockCycles(threads, waits, waitsFor, waitNodes, cycles));
  const marked = cycles.map((c) => {
    const names = c.threads.map((t) => threads[t]!.name);
    const lockIds = c.threads.map((t) => waits[t]?.lock?.id);
    return { ...c, reportedByJvm: dump.jvmDeadlocks.some((r) => reportDescribesCycle(r, names, lockIds)) };
  });
  return { locks, waitsFor, waits, waitNodes, cycles: marked };
}

/**
 * Whether a deadlock report of the JVM describes this cycle (threads in wait order, each waiting
 * for the lock with the id beside it, when known). Names repeat (a pool that names threads after a
 * role, two pairs of "worker-A" and "worker-B"), so a report is the cycle's only when each of its
 * entries is an edge of the cycle, the thread waiting for the one that holds its lock, and names the
 * lock the cycle's thread waits for wherever the report and the dump both give its address.
 */
export function reportDescribesCycle(report: JvmDeadlockReport, names: readonly string[], lockIds: ReadonlyArray<string | undefined>): boolean {
  if (report.entries.length !== names.length) return false;
  return report.entries.every((e) =>
    names.some((name, k) => {
      if (name !== e.thread || names[(k + 1) % names.length] !== e.heldBy) return false;
      const id = lockIds[k];
      // The report names the object's address (`object 0x...`, `ownable synchronizer 0x...`); the dump may pad it differently.
      return id === undefined || id === '' || !/0x[0-9a-f]/i.test(e.waitingFor) || sameAddressIn(e.waitingFor, id);
    }),
  );
}

function sameAddressIn(text: string, id: string): boolean {
  const want = id.toLowerCase().replace(/^0x0*/, '');
  for (const m of text.matchAll(/0x([0-9a-fA-F]{1,16})/g)) if (m[1]!.toLowerCase().replace(/^0*/, '') === want) return true;
  return false;
}

/** Every thread waits for at most one other, so cycles are found by walking the pointers. */
function findCycles(next: Array<number | null>, lockOf: Array<LockRef | null>): DeadlockCycle[] {
  const color = new Uint8Array(next.length); // 0 new, 1 on current path, 2 done
  const cycles: DeadlockCycle[] = [];
  // One path buffer for every walk: most walks are one thread long, and an array per walk (200,000 of
  // them) cost more than the walks. A walk visits each thread once, so the buffer never overflows.
  const path = new Int32Array(next.length);
  for (let start = 0; start < next.length; start++) {
    if (color[start] !== 0) continue;
    let length = 0;
    let cur: number | null = start;
    while (cur !== null && color[cur] === 0) {
      color[cur] = 1;
      path[length++] = cur;
      cur = next[cur] ?? null;
    }
    if (cur !== null && color[cur] === 1) {
      const from = path.subarray(0, length).indexOf(cur);
      const members = Array.from(path.subarray(from, length));
      cycles.push({
        threads: members,
        locks: members.map((t) => lockOf[t]).filter((l): l is LockRef => l !== null),
        confidence: 'certain',
        reportedByJvm: false,
      });
    }
    for (let k = 0; k < length; k++) color[path[k]!] = 2;
  }
  return cycles;
}

/**
 * A writer parked on a ReentrantReadWriteLock with no exclusive owner waits for readers, and thread
 * dumps never name read-lock holders. When threads that wait (directly or through others) for that
 * writer exist, one of them may hold the read lock: a deadlock the JVM cannot report.
 */
function inferReadLockCycles(
  threads: ThreadEntry[],
  waits: Array<ReturnType<typeof waitOf>>,
  waitsFor: Array<number | null>,
  waitNodes: Array<LockNode | null>,
  known: DeadlockCycle[],
): DeadlockCycle[] {
  const inKnown = new Set(known.flatMap((c) => c.threads));
  const out: DeadlockCycle[] = [];
  // Who waits on whom, reversed: the threads whose chain of waits reaches a writer are found by a
  // walk from it, not by walking every thread's chain for every writer (quadratic on big dumps).
  const waitedBy = new Map<number, number[]>();
  waitsFor.forEach((u, t) => {
    if (u === null || u === undefined || u === t) return;
    const list = waitedBy.get(u);
    if (list === undefined) waitedBy.set(u, [t]);
    else list.push(t);
  });
  waits.forEach((w, writer) => {
    if (!w || w.kind !== 'parking' || !RW_SYNC.test(w.lock.className)) return;
    if ((waitNodes[writer]?.owner ?? null) !== null) return;
    if (!threads[writer]!.frames.slice(0, 12).some((f) => WRITE_LOCK_FRAME.test(f.qualified))) return;
    if (inKnown.has(writer)) return;
    const reached = new Set<number>([writer]);
    const queue = [writer];
    for (let i = 0; i < queue.length; i++) {
      for (const t of waitedBy.get(queue[i]!) ?? []) {
        if (!reached.has(t)) {
          reached.add(t);
          queue.push(t);
        }
      }
    }
    reached.delete(writer);
    const dependants = [...reached].sort((a, b) => a - b);
    if (dependants.length === 0) return;
    // The closest dependant (the one waiting on the writer directly) is the likeliest reader.
    const direct = dependants.filter((t) => waitsFor[t] === writer);
    const reader = direct[0] ?? dependants[0]!;
    const cycleThreads = [writer];
    let cur: number | null = reader;
    const chain: number[] = [];
    while (cur !== null && cur !== writer && !chain.includes(cur)) {
      chain.push(cur);
      cur = waitsFor[cur] ?? null;
    }
    cycleThreads.push(...chain);
    out.push({
      threads: cycleThreads,
      locks: cycleThreads.map((t) => waits[t]?.lock).filter((l): l is LockRef => l !== undefined),
      confidence: 'possible',
      reportedByJvm: false,
      note:
        `"${threads[writer]!.name}" waits for the write lock of a ReentrantReadWriteLock that no thread holds exclusively, ` +
        `so readers hold it; thread dumps do not name read-lock holders. ` +
        dependants.map((t) => `"${threads[t]!.name}"`).join(', ') +
        ` wait${dependants.length === 1 ? 's' : ''} for "${threads[writer]!.name}" and cannot ` +
        `release a read lock if ${dependants.length === 1 ? 'it holds' : 'they hold'} one.`,
    });
  });
  return out;
}
