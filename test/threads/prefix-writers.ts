/**
 * Imitations of the log writers that cannot run here (no container runtime, cluster, service wrapper
 * or sbt on this machine): each turns the real kill -3 output of fixtures/threads/prefixed/
 * kill3-stdout.txt into its own format, as its documentation shows it. The writers that do run here
 * (script(1), journald) are captured for real by fixtures/generate-prefixed-logs.sh.
 */

/** Lines a service writes to stderr while the dump goes to stdout (another stream, to be left out). */
const STDERR_LINES = ['2026-12-03 10:00:01,001 WARN  [main] a line on stderr, beside the dump', '2026-12-03 10:00:02,000 WARN  [main] still waiting 0'];

const time = (i: number) => `2026-12-03T10:00:${String(Math.floor(i / 100) % 60).padStart(2, '0')}.${String(123456789 + i * 1000).slice(0, 9)}Z`;

/** Where the stderr lines go: among the dump's threads, so that a writer's stream filter is put to work. */
const middle = (lines: readonly string[]) => lines.findIndex((l) => l.startsWith('"housekeeping-timer"'));

export const PREFIX_WRITERS: Readonly<Record<string, (lines: readonly string[]) => string>> = {
  // The kubelet's CRI log: `<time> <stream> <F|P> <content>`; a long line is split into P records ending in one F.
  'cri node log': (lines) => {
    const out: string[] = [];
    lines.forEach((l, i) => {
      if (i === middle(lines)) for (const e of STDERR_LINES) out.push(`${time(i)} stderr F ${e}`);
      if (l.startsWith('Full thread dump')) {
        out.push(`${time(i)} stdout P ${l.slice(0, 20)}`, `${time(i)} stdout P ${l.slice(20, 40)}`, `${time(i)} stdout F ${l.slice(40)}`);
      } else out.push(`${time(i)} stdout F ${l}`);
    });
    return out.join('\n') + '\n';
  },
  'kubectl logs --timestamps': (lines) => lines.map((l, i) => `${time(i)} ${l}`).join('\n') + '\n',
  // One JSON object a line; a line longer than the writer's buffer is split, its first part with no "\n".
  "docker's json-file log": (lines) => {
    const out: string[] = [];
    const record = (log: string, stream: string, i: number) => JSON.stringify({ log, stream, time: time(i) });
    lines.forEach((l, i) => {
      if (i === middle(lines)) for (const e of STDERR_LINES) out.push(record(`${e}\n`, 'stderr', i));
      if (l.startsWith('Full thread dump')) out.push(record(l.slice(0, 30), 'stdout', i), record(`${l.slice(30)}\n`, 'stdout', i));
      else out.push(record(`${l}\n`, 'stdout', i));
    });
    return out.join('\n') + '\n';
  },
  // Two containers' lines interleaved, each under its service name padded to one width.
  'docker compose logs': (lines) => {
    const out: string[] = [];
    lines.forEach((l, i) => {
      if (i % 17 === 5) out.push(`db-1   | 2026-12-03 10:00:0${i % 10}.000 UTC [1] LOG:  checkpoint starting: time`);
      out.push(`app-1  | ${l}`.trimEnd());
    });
    return out.join('\n') + '\n';
  },
  'a Tanuki service wrapper': (lines) => lines.map((l) => `INFO   | jvm 1    | 2026/12/03 10:00:00 | ${l}`.trimEnd()).join('\n') + '\n',
  sbt: (lines) => lines.map((l) => `[info] ${l}`).join('\n') + '\n',
  Maven: (lines) => lines.map((l) => `[INFO] ${l}`).join('\n') + '\n',
  'a logging pattern on every line of an event': (lines) =>
    lines.map((l, i) => `2026-12-03 10:00:00.${String(i % 1000).padStart(3, '0')} [Signal Dispatcher] INFO  c.e.ThreadDumps - ${l}`).join('\n') + '\n',
};
