/** What the pool and executor rules share: waiting threads, which pool starves which executor, drain speed. */
import type { ConnectionPoolModel, ExecutorModel, Model, ThreadRef } from '../../model/model.js';
import { inHttpCall } from '../../reconstruct/stack-signs.js';

/** Most threads waiting for this pool in any one dump, with that dump's threads. */
export function peakWaiters(p: ConnectionPoolModel): { count: number; threads: ThreadRef[] } {
  let best: ThreadRef[] = [];
  for (const w of p.waitingThreads) if (w.threads.length > best.length) best = w.threads;
  return { count: best.length, threads: best };
}

/** A pool is starved when requests wait while every connection it may open is leased. */
export function isStarved(p: ConnectionPoolModel, minWaiting: number): boolean {
  const waiting = Math.max(p.pending ?? 0, peakWaiters(p).count);
  if (waiting < minWaiting) return false;
  if (p.source === 'threads') return true;
  if (p.kind === 'semaphore') return p.idle === 0;
  return p.width === null || p.leased === null || p.leased >= p.width;
}

export function poolSubject(p: ConnectionPoolModel): string {
  return p.name;
}

/** Every thread name of an executor over all dumps where it was seen by name. */
function executorThreadNames(model: Model, name: string): ReadonlySet<string> {
  let byName = threadNamesByExecutor.get(model);
  if (byName === undefined) {
    // Once per model, not once per executor asked about: a series of dumps has an executor per dump and pool.
    byName = new Map();
    for (const e of model.executors) {
      let names = byName.get(e.name);
      if (names === undefined) byName.set(e.name, (names = new Set()));
      for (const t of e.busyThreads) names.add(t.name);
      for (const t of e.idleThreads) names.add(t.name);
    }
    threadNamesByExecutor.set(model, byName);
  }
  return byName.get(name) ?? NO_NAMES;
}

const threadNamesByExecutor = new WeakMap<Model, Map<string, Set<string>>>();
const NO_NAMES: ReadonlySet<string> = new Set();

/** The starved pools that at least half of an executor's busy workers are waiting for. */
export function starvingPoolsOf(model: Model, e: ExecutorModel, starved: readonly ConnectionPoolModel[]): ConnectionPoolModel[] {
  if (starved.length === 0) return [];
  const names = executorThreadNames(model, e.name);
  if (names.size === 0 || e.busy === 0) return [];
  return starved.filter((p) => p.waitingThreads.some((w) => w.threads.filter((t) => names.has(t.name)).length * 2 >= Math.min(e.busy, names.size)));
}

/**
 * Tasks completed per second by an executor whose workers call through a starved pool, from a series:
 * the threads holding a connection (inside the HTTP call) in one dump that no longer do in the next
 * finished their call in between. A lower bound when every holder changed.
 */
export function measuredThroughput(model: Model, e: ExecutorModel): { perSecond: number; basis: string } | undefined {
  const names = executorThreadNames(model, e.name);
  const holders = model.dumps.map((d, di) => ({
    at: d.timestampIso !== undefined ? Date.parse(d.timestampIso) : NaN,
    di,
    names: new Set(d.threads.filter((th) => names.has(th.name) && inHttpCall(th)).map((th) => th.name)),
  }));
  const withTime = holders.filter((h) => Number.isFinite(h.at) && names.size > 0).sort((a, b) => a.at - b.at);
  let done = 0;
  let seconds = 0;
  for (let i = 0; i + 1 < withTime.length; i++) {
    const a = withTime[i]!;
    const b = withTime[i + 1]!;
    const dt = (b.at - a.at) / 1000;
    if (dt <= 0 || a.names.size === 0) continue;
    done += [...a.names].filter((n) => !b.names.has(n)).length;
    seconds += dt;
  }
  if (seconds === 0) return undefined;
  // Calls were in flight and none finished in the whole series: the queue did not move at all.
  if (done === 0) return { perSecond: 0, basis: `no call finished in ${seconds.toFixed(1)} s between thread dumps` };
  return { perSecond: done / seconds, basis: `${done} calls finished over ${seconds.toFixed(1)} s between thread dumps` };
}

/**
 * Why measuredThroughput found no rate, in words: there is no series to measure over, or there is one
 * but none of the executor's workers was seen inside a call in it (they wait for the pool's calls,
 * parked on a future or a lease, which says nothing of when a call ends).
 */
export function throughputUnknownWhy(model: Model, e: ExecutorModel): string {
  const timed = model.dumps.filter((d) => d.timestampIso !== undefined && Number.isFinite(Date.parse(d.timestampIso))).length;
  if (timed < 2) return 'no series of thread dumps with timestamps: throughput unknown';
  const names = executorThreadNames(model, e.name);
  return names.size === 0
    ? `none of its workers is named in the ${timed} thread dumps with timestamps: throughput unknown`
    : `none of its workers was inside a call in the ${timed} thread dumps with timestamps (they wait for the calls): throughput unknown`;
}
