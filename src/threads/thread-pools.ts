/**
 * Thread pools recognised from thread names: `DubboServerHandler-10.0.0.1:20880-thread-7` belongs to
 * `DubboServerHandler-10.0.0.1:20880`, `pool-3-thread-1` to `pool-3`, `http-nio-8080-exec-4` to
 * `http-nio-8080-exec`. The last number in the name is the worker's number.
 */
import type { ThreadDump } from '../model/thread-dump.js';
import { activityFrame, isIdle } from './thread-activity.js';

export interface ThreadPoolObservation {
  /** Pool name as people say it (`DubboServerHandler-10.0.0.1:20880`). */
  readonly name: string;
  /** Name pattern with the worker number as `*`. */
  readonly pattern: string;
  readonly threads: number[];
  readonly busy: number[];
  readonly idle: number[];
  /**
   * Named like an executor's workers (`-thread-N`, `-exec-N`, `pool-N`, `-worker-N`, ...), not just
   * numbered threads that something else started (`mon-1`, `mon-2`).
   */
  readonly namedLikePool: boolean;
}

const POOL_WORDS = /thread|worker|exec|pool|handler|loop|qtp/i;

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The name with its last number replaced by `*`, or null when it has no number. */
export function poolPattern(threadName: string): string | null {
  let end = threadName.length;
  while (end > 0 && !isDigit(threadName.charCodeAt(end - 1))) end--;
  if (end === 0) return null;
  let start = end - 1;
  while (start > 0 && isDigit(threadName.charCodeAt(start - 1))) start--;
  return threadName.slice(0, start) + '*' + threadName.slice(end);
}

export function poolDisplayName(pattern: string): string {
  return pattern
    .replace(/[-_ #.]*\*.*$/, '')
    .replace(/[-_ ](?:thread|worker|Thread|Worker)$/, '')
    .replace(/\s*\[$/, '')
    .trim();
}

export function findThreadPools(dump: ThreadDump, minThreads = 2): ThreadPoolObservation[] {
  const groups = new Map<string, number[]>();
  dump.threads.forEach((th, i) => {
    if (th.frames.length === 0) return; // JVM-internal threads are not pools people size
    const p = poolPattern(th.name);
    if (p === null) return;
    let g = groups.get(p);
    if (!g) groups.set(p, (g = []));
    g.push(i);
  });
  const pools: ThreadPoolObservation[] = [];
  for (const [pattern, members] of groups) {
    const explicitPoolName = /-thread-\*$|-exec-\*$/.test(pattern);
    if (members.length < minThreads && !explicitPoolName) continue;
    const busy: number[] = [];
    const idle: number[] = [];
    for (const i of members) (isIdle(dump.threads[i]!) ? idle : busy).push(i);
    pools.push({ name: poolDisplayName(pattern) || pattern, pattern, threads: members, busy, idle, namedLikePool: POOL_WORDS.test(pattern) });
  }
  return pools.sort((a, b) => b.threads.length - a.threads.length || a.name.localeCompare(b.name));
}

/** The busy threads' activities, most common first: `{frame, count}`. */
export function busyActivities(dump: ThreadDump, busy: number[]): Array<{ frame: string; count: number }> {
  const counts = new Map<string, number>();
  for (const i of busy) {
    const f = activityFrame(dump.threads[i]!);
    counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  return [...counts].map(([frame, count]) => ({ frame, count })).sort((a, b) => b.count - a.count || a.frame.localeCompare(b.frame));
}
