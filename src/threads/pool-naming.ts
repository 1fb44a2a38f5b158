/**
 * How servers name their pool threads, read for what the name says: the pool a worker belongs to.
 * The naming schemes are the registry's `pool-naming` rows. A name no row knows falls back to the
 * generic reading: the name without its last number (`pool-3-thread-7` → `pool-3`).
 */
import { rowsOf } from '../knowledge/index.js';

/** The registry's `pool-naming` rows: the pool's name is the pattern's first group. */
const POOL_NAMING = rowsOf('pool-naming').map((r) => new RegExp(r.match));

const SERVER_POOL_NAMING = rowsOf('pool-naming').flatMap((r) =>
  r.detail?.server === undefined ? [] : [{ pattern: new RegExp(r.match), server: r.detail.server }],
);

/** The server whose request pool this is (Dubbo's provider pool), when its naming says so: a worker of it would be named by that server's scheme. */
export function serverOfPool(poolName: string): string | undefined {
  const worker = `${poolName}-thread-1`;
  return SERVER_POOL_NAMING.find((n) => n.pattern.exec(worker)?.[1] === poolName)?.server;
}

const ANNOTATIONS = rowsOf('name-annotation').map((r) => new RegExp(r.match));

/** The worker's own name, without what the application appended while it works (group 1 of a `name-annotation` row). */
export function workerName(threadName: string): string {
  if (!threadName.includes(' ')) return threadName;
  for (const a of ANNOTATIONS) {
    const m = a.exec(threadName);
    if (m?.[1] !== undefined) return threadName.slice(0, threadName.length - m[1].length);
  }
  return threadName;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Where the name's last number starts; its end is workerNumberEnd. -1 when the name has no number. */
export function workerNumberStart(threadName: string, end: number = workerNumberEnd(threadName)): number {
  if (end === 0) return -1;
  let start = end - 1;
  while (start > 0 && isDigit(threadName.charCodeAt(start - 1))) start--;
  return start;
}

/** The end of the name's last number (0 when it has none). */
export function workerNumberEnd(threadName: string): number {
  let end = threadName.length;
  while (end > 0 && !isDigit(threadName.charCodeAt(end - 1))) end--;
  return end;
}

/** The name with its last number replaced by `*`, or null when it has no number. */
export function poolPattern(threadName: string): string | null {
  const end = workerNumberEnd(threadName);
  const start = workerNumberStart(threadName, end);
  if (start < 0) return null;
  return threadName.slice(0, start) + '*' + threadName.slice(end);
}

const SEPARATORS = '-_ #.:';
const WORKER_WORDS = ['thread', 'worker', 'Thread', 'Worker'];

/** `pool-3-thread-*` → `pool-3`: the text before the number, without separators and a trailing thread/worker word. */
export function poolDisplayName(pattern: string): string {
  // Written out rather than as patterns: it runs once per thread of a 200k-thread dump.
  let end = pattern.indexOf('*');
  if (end < 0) end = pattern.length;
  while (end > 0 && SEPARATORS.includes(pattern.charAt(end - 1))) end--;
  for (const w of WORKER_WORDS) {
    if (end > w.length && pattern.startsWith(w, end - w.length) && '-_ '.includes(pattern.charAt(end - w.length - 1))) {
      end -= w.length + 1;
      break;
    }
  }
  let out = pattern.slice(0, end);
  if (out.endsWith('[')) out = out.slice(0, -1).trimEnd();
  return out.trim();
}

/**
 * The pool a thread's name says it belongs to (null when the name carries no worker number). Pools
 * call it once per group of threads with one name pattern, not once per thread.
 */
export function poolNameOf(fullName: string): string | null {
  const threadName = workerName(fullName);
  for (const pattern of POOL_NAMING) {
    const m = pattern.exec(threadName);
    if (m?.[1] !== undefined) return m[1];
  }
  const p = poolPattern(threadName);
  if (p === null) return null;
  return poolDisplayName(p) || p;
}
