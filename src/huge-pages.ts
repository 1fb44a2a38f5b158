/**
 * A big heap's memory analysis runs in a process whose large arrays sit on huge pages, where Linux
 * gives them only when asked (transparent huge pages set to `madvise`, the default of Debian and
 * Ubuntu). The analysis makes and drops arrays of hundreds of megabytes; on 4 KiB pages the first
 * touch of each page is a fault, and on a virtual machine a fault is slow: a new 144 MB array took
 * 400 ms to fill, 43 ms on 2 MiB pages, and `memory` of a 1.9 GB heap 24 s instead of 14.5 (same
 * peak). Node cannot ask for huge pages itself; glibc asks for every block it maps when the process
 * starts with the tunable `glibc.malloc.hugetlb=1` (glibc 2.35 and later; others ignore it). So a
 * command given a heap dump that big runs again, at once, as a child with that tunable set, its
 * streams the same, its exit code and signals passed through. Only a heap dump, as its first bytes say
 * (gzip inflated): a big thread dump or log has no big arrays to place, and paid the restart for nothing
 * (a 150 MB thread dump: 1.67 s without it, about 2 s with it).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { constants as zlib, gunzipSync } from 'node:zlib';

import { formatOfHead } from './input/formats.js';
import { inputHead } from './input/sniff.js';

/** Commands whose work on a big heap is the memory analysis. */
const COMMANDS = new Set(['analyze', 'memory', 'batch']);
/** Inputs from this size: below it, starting again costs more than the pages save. */
const BIG_INPUT_BYTES = 64 * 1024 * 1024;
const TUNABLE = 'glibc.malloc.hugetlb=1';
/** Entries looked at in a folder given (batch's incidents, an incident's files), so the look stays short. */
const MAX_ENTRIES = 2000;

/** What the choice depends on, so that it is tested without the machine's own. */
export interface HugePagesHost {
  readonly platform: string;
  readonly env: NodeJS.ProcessEnv;
  /** The contents of /sys/kernel/mm/transparent_hugepage/enabled, undefined when there is none. */
  readonly transparentHugePages: string | undefined;
  /** The C library's version when it is glibc, else undefined. */
  readonly glibc: string | undefined;
}

export function thisHost(): HugePagesHost {
  let transparentHugePages: string | undefined;
  try {
    transparentHugePages = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
  } catch {
    transparentHugePages = undefined;
  }
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return { platform: process.platform, env: process.env, transparentHugePages, glibc: header?.glibcVersionRuntime };
}

/**
 * The environment to run `args` again in, or undefined to run them here: when the command may run a
 * memory analysis, one of its paths is (or holds, two folders deep) a heap dump of 64 MiB or more, the
 * kernel gives huge pages on request, glibc is 2.35 or later, the tunable is not set already, and
 * DUMPSLEUTH_HUGE_PAGES is not `0`.
 */
export function hugePagesEnvironment(args: readonly string[], host: () => HugePagesHost = thisHost): NodeJS.ProcessEnv | undefined {
  if (!COMMANDS.has(args[0] ?? '') || !args.slice(1).some((a) => !a.startsWith('-') && holdsBigFile(a, 2))) return undefined;
  const { platform, env, transparentHugePages, glibc } = host();
  if (platform !== 'linux' || env['DUMPSLEUTH_HUGE_PAGES'] === '0' || env['GLIBC_TUNABLES']?.includes('glibc.malloc.hugetlb')) return undefined;
  if (!transparentHugePages?.includes('[madvise]')) return undefined;
  const [major, minor] = (glibc ?? '').split('.').map(Number);
  if (major === undefined || minor === undefined || major < 2 || (major === 2 && minor < 35)) return undefined;
  const tunables = env['GLIBC_TUNABLES'];
  return { ...env, GLIBC_TUNABLES: tunables ? `${tunables}:${TUNABLE}` : TUNABLE };
}

/** Bytes read from a file's start to tell a heap dump (an HPROF header, a V8 snapshot's first key). */
const HEAD_BYTES = 64 * 1024;
/** Compressed bytes inflated to read a gzip file's head. */
const GZIP_HEAD_BYTES = 4 * 1024;

/** Whether a file's first bytes are a heap dump's, gzip inflated as far as they go. */
function startsLikeHeap(path: string): boolean {
  const fd = openSync(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    head = buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) {
    try {
      // A stream cut anywhere: what inflates of its first few KiB is enough to read a header, and is
      // bounded (deflate inflates at most about 1,000-fold: a few MiB, not the 64 MiB a whole head of zeros gives).
      head = gunzipSync(head.subarray(0, GZIP_HEAD_BYTES), { finishFlush: zlib.Z_SYNC_FLUSH }).subarray(0, HEAD_BYTES);
    } catch {
      return false;
    }
  }
  const kind = formatOfHead(inputHead(head, head.toString('latin1')))?.kind;
  return kind === 'hprof' || kind === 'v8-heapsnapshot';
}

function holdsBigFile(path: string, depth: number): boolean {
  try {
    const s = statSync(path);
    if (s.isFile()) return s.size >= BIG_INPUT_BYTES && startsLikeHeap(path);
    if (!s.isDirectory() || depth === 0) return false;
    return readdirSync(path)
      .slice(0, MAX_ENTRIES)
      .some((name) => holdsBigFile(join(path, name), depth - 1));
  } catch {
    // Not there, not readable: the command says so itself.
    return false;
  }
}

/**
 * Runs this program (`program`, the script node was given) again with `args` in `env`, its streams this process's, and resolves to its exit
 * code (128 + the signal's number when a signal ended it, as shells report it). A signal for this
 * process is the child's too: Ctrl-C and a hangup reach the terminal's whole group, and a service
 * manager signals every process of the service, so the child most often has it already and is
 * cleaning up; passed on at once it would come twice. It is passed on when the child has not ended a
 * second later (it was sent to this process alone, by `kill`).
 */
export function runAgain(args: readonly string[], env: NodeJS.ProcessEnv, program = process.argv[1]!): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, program, ...args], { stdio: 'inherit', env });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const passOn = (signal: NodeJS.Signals) => {
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    }, PASS_ON_AFTER_MS).unref();
  };
  for (const s of signals) process.on(s, passOn);
  return new Promise((resolve) => {
    const done = (code: number) => {
      for (const s of signals) process.off(s, passOn);
      resolve(code);
    };
    child.once('error', (e) => {
      process.stderr.write(`dumpsleuth: could not start again with huge pages (${e.message}); DUMPSLEUTH_HUGE_PAGES=0 runs without\n`);
      done(70);
    });
    child.once('exit', (code, signal) => done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}

const PASS_ON_AFTER_MS = 1000;
