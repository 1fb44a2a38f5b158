/**
 * Physical evidence before frames. Where the input measures each thread's CPU, what the thread did is
 * measured, not read from its stack:
 * - a RUNNABLE thread that used no CPU between two dumps, in the same place, was blocked in the kernel
 *   (a read, an accept, a vendor's native wait under any name): waiting, not running or spinning; it is
 *   working only when a task or request lies beneath it;
 * - a thread that used most of a core is working, whatever its frames say (a selector that spins).
 * The measures: `cpu=` of JDK 11+ headers between the dumps of a series (the same thread matched across
 * them), and `top -H` samples given beside the dumps (matched by native id). The JVM's own threads are
 * left as they are: their CPU is the JVM's.
 */
import type { ThreadActivity } from '../model/activity.js';
import type { CpuSampleModel, SeriesModel } from '../model/model.js';
import type { ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { workBeneath } from './thread-activity.js';

/** Below this share of a core a thread did not run: the kernel held it (a wake-up now and then costs less). */
const STILL_SHARE = 0.02;
/** From this share of a core (most of it, as cpu-hot-threads reads it) a thread ran: work, whatever its frames say. */
const BUSY_SHARE = 0.5;
/** Intervals shorter than this say little: cpu= is printed in milliseconds and a thread may be between two reads. */
const MIN_INTERVAL_S = 1;

/**
 * Verdicts a thread's stillness revises: RUNNABLE threads judged running on their frames alone. A read
 * already judged work (a client call, a task or request beneath) stays work: its peer is what is slow.
 */
const REVISABLE_WHEN_STILL: ReadonlySet<ThreadActivity['basis']> = new Set(['running', 'native']);

/** One measure of a thread's CPU around a dump: between two dumps of its series, or top's samples. */
interface Measure {
  readonly share: number;
  /** How it was measured, for the reason: `between dumps #0 and #1 (cpu= did not move in 5 s)`. */
  readonly text: string;
  /** The thread in the other dump of the interval (to tell it stayed in one place); none for top. */
  readonly other?: ThreadEntry;
}

/**
 * The activity verdicts of every dump, revised by the CPU each thread used. Returns new arrays where
 * a verdict changed (verdict objects are shared by threads of one stack: none is mutated).
 */
export function reviseByCpu(
  dumps: readonly ThreadDump[],
  series: readonly SeriesModel[],
  activity: readonly ThreadActivity[][],
  samples: readonly CpuSampleModel[] = [],
): ThreadActivity[][] {
  const out = activity.map((a) => a);
  const copied = new Set<number>();
  const set = (dump: number, thread: number, v: ThreadActivity) => {
    if (!copied.has(dump)) {
      out[dump] = [...out[dump]!];
      copied.add(dump);
    }
    out[dump]![thread] = v;
  };
  const revise = (dump: number, ti: number, measures: readonly Measure[]) => {
    const th = dumps[dump]!.threads[ti]!;
    const was = out[dump]![ti]!;
    if (th.state !== 'RUNNABLE' || measures.length === 0 || was.activity === 'housekeeping' || was.activity === 'blocked') return;
    const busy = measures.find((x) => x.share >= BUSY_SHARE);
    if (was.activity === 'idle' && busy !== undefined) {
      const reason = `used ${pct(busy.share)} of a core ${busy.text} although its frames read as a wait (${was.reason}): it runs, it does not wait`;
      set(dump, ti, working('cpu-used', reason, was.frame));
      return;
    }
    // Still in the same place with no CPU: the kernel held it there the whole interval. Only a native
    // method can be held so: a thread dumped in Java code was running that code when the dump was taken.
    if (th.frames[0]?.location !== 'Native Method') return;
    const still = measures.find((x) => x.share < STILL_SHARE && (x.other === undefined || sameTop(th, x.other)));
    if (still === undefined || was.activity !== 'working' || !REVISABLE_WHEN_STILL.has(was.basis)) return;
    const measured = `RUNNABLE in ${th.frames[0]?.qualified ?? '(no frame)'} but used no CPU ${still.text}: blocked in the kernel, waiting`;
    const work = workBeneath(th);
    if (work !== undefined) {
      // A wait inside a request or task is part of that work, however still.
      set(dump, ti, working('in-task', `${measured}, inside ${work}`, was.frame));
      return;
    }
    set(dump, ti, {
      activity: 'idle',
      basis: 'no-cpu',
      reason: `${measured}, with no task or request beneath: waiting for input, not working`,
      ...(was.frame !== undefined ? { frame: was.frame } : {}),
    });
  };

  const byTop = topShares(samples);
  if (byTop.size > 0)
    dumps.forEach((d, dump) =>
      d.threads.forEach((th, ti) => {
        const share = th.nativeId === undefined ? undefined : byTop.get(th.nativeId);
        if (share !== undefined) revise(dump, ti, [share]);
      }),
    );
  for (const s of series) {
    if (s.dumps.length < 2) continue;
    for (const t of s.threads)
      for (let pos = 0; pos < s.dumps.length; pos++) {
        const ti = t.indexes[pos];
        if (ti === null || ti === undefined) continue;
        const around = [pos - 1, pos + 1].map((other) => intervalOf(dumps, s, t.indexes, pos, other)).filter((x): x is Measure => x !== undefined);
        revise(s.dumps[pos]!, ti, around);
      }
  }
  return out;
}

/** The CPU the thread used between the dump at `pos` and at `other` of the series, when both carry cpu= and a clock. */
function intervalOf(dumps: readonly ThreadDump[], s: SeriesModel, indexes: ReadonlyArray<number | null>, pos: number, other: number): Measure | undefined {
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
  const share = cpuSeconds / seconds;
  const grew = share < STILL_SHARE ? 'did not move' : `grew by ${cpuSeconds.toFixed(1)} s`;
  return {
    share,
    text: `between dumps #${s.dumps[a]!} and #${s.dumps[b]!} (cpu= ${grew} in ${seconds.toFixed(0)} s)`,
    other: dumps[s.dumps[other]!]!.threads[oi]!,
  };
}

/** The thread's own clock (elapsed=) when both dumps print it, else the dumps' timestamps. */
function wallSeconds(d1: ThreadDump, d2: ThreadDump, t1: ThreadEntry, t2: ThreadEntry): number | undefined {
  if (t1.elapsedS !== undefined && t2.elapsedS !== undefined) return t2.elapsedS - t1.elapsedS;
  if (d1.timestampIso === undefined || d2.timestampIso === undefined) return undefined;
  return (Date.parse(d2.timestampIso) - Date.parse(d1.timestampIso)) / 1000;
}

/** Each thread's median share of a core in the `top -H` samples, by native id (`0x3c05`). */
function topShares(samples: readonly CpuSampleModel[]): Map<string, Measure> {
  const byId = new Map<string, number[]>();
  for (const s of samples)
    for (const r of s.threads) {
      const list = byId.get(r.nativeId);
      if (list === undefined) byId.set(r.nativeId, [r.cpuPercent]);
      else list.push(r.cpuPercent);
    }
  const out = new Map<string, Measure>();
  for (const [id, list] of byId) {
    const sorted = [...list].sort((a, b) => a - b);
    const text = `in top -H beside the dumps (${list.length === 1 ? 'one sample' : `median of ${list.length} samples`})`;
    out.set(id, { share: sorted[Math.floor(sorted.length / 2)]! / 100, text });
  }
  return out;
}

/** The same top frame: the thread sat in one place (a read returns and is called again in a loop, at the same frame). */
function sameTop(a: ThreadEntry, b: ThreadEntry): boolean {
  return a.frames[0]?.qualified === b.frames[0]?.qualified && b.state === 'RUNNABLE';
}

function working(basis: ThreadActivity['basis'], reason: string, frame: string | undefined): ThreadActivity {
  return { activity: 'working', basis, reason, ...(frame !== undefined ? { frame } : {}) };
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
