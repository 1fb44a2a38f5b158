/**
 * Per-thread CPU of a live process on Linux, from `/proc/<pid>/task/<tid>/stat` (utime + stime, in
 * clock ticks), written as a `top -H -b` frame so the same reader takes it as it takes top's own
 * output: a thread's TID is the `nid` of its thread in a dump.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpuReading {
  readonly at: Date;
  /** TID -> [thread name, CPU ticks used so far]. */
  readonly threads: ReadonlyMap<number, readonly [string, number]>;
}

/** Whether /proc can tell this process's threads apart (Linux). */
export function procAvailable(pid: number): boolean {
  try {
    readdirSync(`/proc/${pid}/task`);
    return true;
  } catch {
    return false;
  }
}

/** One reading of every thread's CPU ticks; threads that end while it is read are left out. */
export function readThreadCpu(pid: number): ThreadCpuReading {
  const threads = new Map<number, readonly [string, number]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `tid (comm) state ppid ...`: comm may hold spaces and parentheses, so split after its last `)`.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const rest = stat.slice(close + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the state.
    const ticks = Number(rest[11]) + Number(rest[12]);
    if (Number.isFinite(ticks)) threads.set(Number(tid), [name, ticks]);
  }
  return { at: new Date(), threads };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `top - 10:42:07 ...` and one row per thread: %CPU over the time since `before`, TIME+ as top writes it. */
export function asTopFrame(pid: number, before: ThreadCpuReading, now: ThreadCpuReading, ticksPerSecond: number): string {
  const wall = Math.max(0.001, (now.at.getTime() - before.at.getTime()) / 1000);
  const t = now.at;
  const lines = [
    `top - ${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())} up ?, per-thread CPU ` +
      `of PID ${pid} from /proc/${pid}/task (dumpsleuth capture, over the last ${wall.toFixed(2)} s)`,
    `Threads: ${now.threads.size} total`,
    '',
    '  PID S  %CPU     TIME+ COMMAND',
  ];
  const rows = [...now.threads].map(([tid, [name, ticks]]) => {
    // A thread born after the first reading used all its CPU between the two.
    const used = (ticks - (before.threads.get(tid)?.[1] ?? 0)) / ticksPerSecond;
    const cpu = (100 * used) / wall;
    const total = ticks / ticksPerSecond;
    const time = `${Math.floor(total / 60)}:${(total % 60).toFixed(2).padStart(5, '0')}`;
    return { tid, cpu, line: `${String(tid).padStart(5)} S ${cpu.toFixed(1).padStart(5)} ${time.padStart(9)} ${name}` };
  });
  rows.sort((a, b) => b.cpu - a.cpu || a.tid - b.tid);
  return [...lines, ...rows.map((r) => r.line), ''].join('\n');
}
