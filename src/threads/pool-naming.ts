/**
 * How servers name their pool threads, read for what the name says: the pool a worker belongs to.
 * Knowledge as data, one row per naming scheme, with its source. A name no row knows falls back
 * to the generic reading: the name without its last number (`pool-3-thread-7` → `pool-3`).
 */

interface PoolNamingRow {
  readonly scheme: string;
  readonly pattern: RegExp;
  /** The pool's name from the match. */
  readonly pool: (m: RegExpExecArray) => string;
  readonly source: string;
}

const POOL_NAMING: readonly PoolNamingRow[] = [
  {
    // `[ACTIVE] ExecuteThread: '13' for queue: 'weblogic.kernel.Default (self-tuning)'`: ACTIVE, STANDBY and
    // STUCK are states of the one self-tuning pool, and the queue is what names the pool.
    scheme: 'WebLogic execute threads',
    pattern: /^(?:\[(?:ACTIVE|STANDBY|STUCK|HOGGING)\]\s*)*ExecuteThread: '\d+' for queue: '([^']+)'/,
    pool: (m) => m[1]!,
    source: 'TL (NestedWebLogicCategory); corpus (WebLogic 8-12)',
  },
  {
    scheme: 'WebSphere pools (`WebContainer : 18`)',
    pattern: /^(.+?) : \d+$/,
    pool: (m) => m[1]!,
    source: 'IBM-KB; IBM-WC',
  },
  {
    scheme: 'SAP NetWeaver thread managers (`SAPEngine_Application_Thread[impl:3]_12`)',
    pattern: /^(SAPEngine_\w+?_Thread\[impl:\d+\])_\d+$/,
    pool: (m) => m[1]!,
    source: 'SAPN',
  },
  {
    scheme: 'JEUS servlet workers (`AWRB_SOPSI_BAN_01-w09 [container1-223]`)',
    pattern: /^(.+)-w\d+ \[[^\]]*\]$/,
    pool: (m) => m[1]!,
    source: 'corpus (JEUS)',
  },
];

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
export function poolNameOf(threadName: string): string | null {
  for (const row of POOL_NAMING) {
    const m = row.pattern.exec(threadName);
    if (m !== null) return row.pool(m);
  }
  const p = poolPattern(threadName);
  if (p === null) return null;
  return poolDisplayName(p) || p;
}
