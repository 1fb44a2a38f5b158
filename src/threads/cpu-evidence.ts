/**
 * Physical evidence before frames. Where a series of dumps carries each thread's CPU time (`cpu=` of
 * JDK 11+ headers, the same thread matched across dumps), what the thread did between two dumps is
 * measured, not read from its stack:
 * - a RUNNABLE thread that used no CPU between two dumps, in the same place, was blocked in the kernel
 *   (a read, an accept, a vendor's native wait under any name): waiting, not running or spinning; it is
 *   working only when a task or request lies beneath it;
 * - a thread that used most of a core is working, whatever its frames say (a selector that spins).
 * The JVM's own threads are left as they are: their CPU is the JVM's.
 */
import type { ThreadActivity } from '../model/activity.js';
import type { SeriesModel } from '../model/model.js';
import type { ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { workBeneath } from './thread-activity.js';

/** Below this share of a core between two dumps a thread did not run: the kernel held it (a wake-up now and then costs less). */
const STILL_SHARE = 0.02;
/** From this share of a core between two dumps (most of it, as cpu-hot-threads reads it) a thread ran: work, whatever its frames say. */
const BUSY_SHARE = 0.5;
/** Intervals shorter than this say little: cpu= is printed in milliseconds and a thread may be between two reads. */
const MIN_INTERVAL_S = 1;

/** Verdicts a measured CPU time revises: the RUNNABLE threads judged running, and those judged idle by their frames. */
const REVISABLE_WHEN_STILL: ReadonlySet<ThreadActivity['basis']> = new Set(['running', 'native', 'in-task']);

interface Interval {
  readonly from: number;
  readonly to: number;
  readonly share: number;
  readonly seconds: number;
}

/**
 * The activity verdicts of every dump, revised by the CPU each thread used between the dumps of its
 * series. Returns new arrays where a verdict changed (verdict objects are shared: none is mutated).
 */
export function reviseByCpu(dumps: readonly ThreadDump[], series: readonly SeriesModel[], activity: readonly ThreadActivity[][]): ThreadActivity[][] {
  const out = activity.map((a) => a);
  const copied = new Set<number>();
  const set = (dump: number, thread: number, v: ThreadActivity) => {
    if (!copied.has(dump)) {
      out[dump] = [...out[dump]!];
      copied.add(dump);
    }
    out[dump]![thread] = v;
  };
  for (const s of series) {
    if (s.dumps.length < 2) continue;
    for (const t of s.threads) {
      for (let pos = 0; pos < s.dumps.length; pos++) {
        const ti = t.indexes[pos];
        if (ti === null || ti === undefined) continue;
        const dump = s.dumps[pos]!;
        const th = dumps[dump]!.threads[ti]!;
        if (th.cpuMs === undefined || th.state !== 'RUNNABLE') continue;
        const was = out[dump]![ti]!;
        if (was.activity === 'housekeeping' || was.activity === 'blocked') continue;
        const around = [pos - 1, pos + 1].map((other) => intervalOf(dumps, s, t.indexes, pos, other)).filter((x): x is Interval => x !== undefined);
        if (around.length === 0) continue;
        const busy = around.find((x) => x.share >= BUSY_SHARE);
        if (was.activity === 'idle' && busy !== undefined) {
          set(
            dump,
            ti,
            working(
              'cpu-used',
              `used ${pct(busy.share)} of a core between dumps #${busy.from} and #${busy.to} (cpu= of its header) although its frames read as ` +
                `a wait (${was.reason}): it runs, it does not wait`,
              was.frame,
            ),
          );
          continue;
        }
        // Still in the same place with no CPU: the kernel held it there the whole interval.
        const still = around.find(
          (x) => x.share < STILL_SHARE && sameTop(th, dumps[x.from === dump ? x.to : x.from]!.threads[otherIndex(s, t.indexes, x, dump)]!),
        );
        if (still === undefined || was.activity !== 'working' || !REVISABLE_WHEN_STILL.has(was.basis)) continue;
        const measured =
          `RUNNABLE in ${th.frames[0]?.qualified ?? '(no frame)'} but used no CPU between dumps #${still.from} and #${still.to} ` +
          `(cpu= did not move in ${still.seconds.toFixed(0)} s): blocked in the kernel, waiting`;
        const work = workBeneath(th);
        if (work !== undefined) {
          // A read inside a request or task waits for its peer: still part of that work.
          if (was.basis !== 'in-task') set(dump, ti, working('in-task', `${measured}, inside ${work}`, was.frame));
          continue;
        }
        set(dump, ti, {
          activity: 'idle',
          basis: 'no-cpu',
          reason: `${measured}, with no task or request beneath: waiting for input, not working`,
          ...frameOf(was),
        });
      }
    }
  }
  return out;
}

/** The interval between the thread at `pos` and at `other` of the series, when both carry cpu= and a clock. */
function intervalOf(dumps: readonly ThreadDump[], s: SeriesModel, indexes: ReadonlyArray<number | null>, pos: number, other: number): Interval | undefined {
  if (other < 0 || other >= s.dumps.length) return undefined;
  const oi = indexes[other];
  if (oi === null || oi === undefined) return undefined;
  const [a, b] = pos < other ? [pos, other] : [other, pos];
  const first = dumps[s.dumps[a]!]!.threads[indexes[a]!]!;
  const second = dumps[s.dumps[b]!]!.threads[indexes[b]!]!;
  if (first.cpuMs === undefined || second.cpuMs === undefined) return undefined;
  const seconds = wallSeconds(dumps[s.dumps[a]!]!, dumps[s.dumps[b]!]!, first, second);
  const cpuSeconds = (second.cpuMs - first.cpuMs) / 1000;
  // A thread restarted under the same name used "negative" CPU: two threads, no measure.
  if (seconds === undefined || seconds < MIN_INTERVAL_S || cpuSeconds < 0) return undefined;
  return { from: s.dumps[a]!, to: s.dumps[b]!, share: cpuSeconds / seconds, seconds };
}

/** The thread's own clock (elapsed=) when both dumps print it, else the dumps' timestamps. */
function wallSeconds(d1: ThreadDump, d2: ThreadDump, t1: ThreadEntry, t2: ThreadEntry): number | undefined {
  if (t1.elapsedS !== undefined && t2.elapsedS !== undefined) return t2.elapsedS - t1.elapsedS;
  if (d1.timestampIso === undefined || d2.timestampIso === undefined) return undefined;
  return (Date.parse(d2.timestampIso) - Date.parse(d1.timestampIso)) / 1000;
}

function otherIndex(s: SeriesModel, indexes: ReadonlyArray<number | null>, x: Interval, dump: number): number {
  const otherDump = x.from === dump ? x.to : x.from;
  return indexes[s.dumps.indexOf(otherDump)]!;
}

/** The same top frame: the thread sat in one place (a read returns and is called again in a loop, at the same frame). */
function sameTop(a: ThreadEntry, b: ThreadEntry): boolean {
  return a.frames[0]?.qualified === b.frames[0]?.qualified && b.state === 'RUNNABLE';
}

function working(basis: ThreadActivity['basis'], reason: string, frame: string | undefined): ThreadActivity {
  return { activity: 'working', basis, reason, ...(frame !== undefined ? { frame } : {}) };
}

function frameOf(v: ThreadActivity): { frame?: string } {
  return v.frame !== undefined ? { frame: v.frame } : {};
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
