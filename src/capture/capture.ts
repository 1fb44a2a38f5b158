/**
 * Takes an incident from a live JVM into a directory that `analyze`, `ui` and `batch` read: a series
 * of thread dumps (`jcmd <pid> Thread.print -l`, or `jstack -l`), beside each the threads' CPU from
 * /proc and, where the JVM has it (JDK 21+), the JSON thread dump that lists its virtual threads, the
 * JVM's identity, optionally a heap dump after the thread dumps (it pauses the JVM), and the tails of
 * application logs. `capture.json` lists every step: what, when, with which tool, and what went wrong.
 * A step counts as taken only when its file is there and starts as its format does (check-output.ts):
 * jcmd exits 0 when the JVM failed to write. Every path handed to the JVM is absolute: the JVM
 * resolves a relative one against its own working directory, not ours. A JVM that stops answering,
 * or exits, leaves what was taken, with a warning.
 */
import { copyFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join, resolve } from 'node:path';

import { UsageError } from '../errors.js';
import { readFailure } from '../model/read-failure.js';
import { heapFileProblem, jsonThreadDumpProblem, threadDumpTextProblem, toolSaysFailed } from './check-output.js';
import { qosLog } from './dubbo-qos.js';
import type { TargetJvm } from './find-jvm.js';
import { runTool, type ToolRun } from './jvm-tools.js';
import { asTopFrame, procAvailable, readThreadCpu, type ThreadCpuReading } from './proc-cpu.js';

export interface CaptureOptions {
  readonly dumps: number;
  readonly intervalSeconds: number;
  readonly outDir: string;
  readonly heap?: 'live' | 'all';
  readonly logs: readonly string[];
  /** The port of a Dubbo QoS console on localhost to record (`ls`, `ps`, `count`). */
  readonly dubboQosPort?: number;
  /** Seconds a tool may take before the JVM counts as not answering. */
  readonly timeoutSeconds: number;
  readonly jcmd?: string;
  readonly jstack?: string;
  /** Bytes of each log kept (its end). */
  readonly logTailBytes?: number;
  readonly onStep?: (what: string) => void;
}

interface CaptureStep {
  readonly what: string;
  readonly file?: string;
  readonly tool?: string;
  readonly startedAt: string;
  readonly seconds: number;
  readonly ok: boolean;
  readonly error?: string;
  /** What to do about the error, apart from it, so that a reader who says the remedy itself can leave it out. */
  readonly remedy?: string;
}

export interface CaptureManifest {
  readonly schema: 'dumpsleuth.capture/1';
  readonly host: string;
  readonly pid: number;
  readonly command: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly jvm: Readonly<Record<string, string>>;
  readonly steps: CaptureStep[];
  readonly warnings: string[];
}

/** System properties worth keeping for a diagnosis (the rest may hold secrets and says little). */
const KEPT_PROPERTIES = [
  'java.version',
  'java.vendor',
  'java.vm.name',
  'java.vm.version',
  'java.home',
  'java.runtime.version',
  'os.name',
  'os.arch',
  'os.version',
  'user.name',
  'sun.java.command',
  'file.encoding',
  'java.io.tmpdir',
  'jdk.virtualThreadScheduler.parallelism',
];

const DEFAULT_LOG_TAIL = 8 * 1024 * 1024;
const FIRST_CPU_WINDOW_MS = 500;

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** Whether the process still runs: a zombie (exited, not yet reaped by its parent) does not. */
const pidAlive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc (not Linux), or the process is gone.
  }
  try {
    process.kill(pid, 0);
    return !existsSync('/proc') || existsSync(`/proc/${pid}`);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A tool's failure in one line: its timeout, its stderr's first line, or its exit code. */
function failure(r: ToolRun): string | undefined {
  if (r.timedOut)
    return (
      `${basename(r.tool)} did not answer within its timeout (${r.seconds.toFixed(0)} s): the JVM may ` +
      'be hung in a safepoint or stopped; try again, or kill -3 <pid> (the dump goes to its stdout)'
    );
  if (r.code !== 0) {
    const firstOutputLine = (r.stderr.trim() || r.stdout.trim()).split('\n')[0]?.slice(0, 300) ?? '';
    return `${basename(r.tool)} ${r.args.join(' ')} failed (exit ${r.code ?? '?'}): ${firstOutputLine}`;
  }
  return undefined;
}

/** jcmd prints `<pid>:` before the dump; the dump itself starts on the next line. */
function dumpText(r: ToolRun, pid: number): string {
  return r.stdout.startsWith(`${pid}:\n`) ? r.stdout.slice(`${pid}:\n`.length) : r.stdout;
}

export async function captureIncident(target: TargetJvm, opts: CaptureOptions): Promise<{ dir: string; manifest: CaptureManifest }> {
  const started = new Date();
  const host = hostname().replace(/[^\w.-]/g, '_');
  // Absolute: the JVM writes the heap and JSON dumps itself, from its own working directory.
  const dir = resolve(opts.outDir, `${host}-${target.pid}-${stamp(started)}`);
  // One level, under a folder that is there (the command made -o): a recursive mkdir under /proc/sys
  // waits for ever, and a folder that takes no new entries is the user's to change, said in one line.
  try {
    mkdirSync(dir);
  } catch (e) {
    throw new UsageError(`cannot make the incident folder ${dir}: ${readFailure(e)}`, 'give -o a folder you may write to, such as -o /tmp/incidents');
  }
  const steps: CaptureStep[] = [];
  const warnings: string[] = [];
  const timeout = opts.timeoutSeconds * 1000;
  const step = async <T>(what: string, run: () => Promise<StepResult<T>>): Promise<T | undefined> => {
    opts.onStep?.(what);
    const at = new Date();
    const t0 = process.hrtime.bigint();
    let r: StepResult<T>;
    try {
      r = await run();
    } catch (e) {
      r = { error: (e as Error).message };
    }
    steps.push({
      what,
      ...(r.file !== undefined ? { file: r.file } : {}),
      ...(r.tool !== undefined ? { tool: r.tool } : {}),
      startedAt: at.toISOString(),
      seconds: Number(process.hrtime.bigint() - t0) / 1e9,
      ok: r.error === undefined,
      ...(r.error !== undefined ? { error: r.error } : {}),
      ...(r.error !== undefined && r.remedy !== undefined ? { remedy: r.remedy } : {}),
    });
    if (r.error !== undefined) warnings.push(`${what}: ${r.error}${r.remedy !== undefined ? `; ${r.remedy}` : ''}`);
    return r.value;
  };
  const jcmd = opts.jcmd;

  // Who the JVM is: version, uptime, command line, flags and the properties a diagnosis reads. Each
  // jcmd is a JVM of its own to start (about 0.4 s): they run one at a time in the waits between the
  // dumps, so they never take more than one core from the threads whose CPU is being measured.
  const jvm: Record<string, string> = {};
  const identity = async (): Promise<void> => {
    if (jcmd === undefined) return;
    const keep = (cmd: string, text: string) =>
      cmd === 'VM.system_properties'
        ? text
            .split('\n')
            .filter((l) => KEPT_PROPERTIES.includes(l.split('=')[0]!.trim()))
            .join('\n')
        : text;
    for (const cmd of ['VM.version', 'VM.uptime', 'VM.command_line', 'VM.flags', 'VM.system_properties']) {
      if (!pidAlive(target.pid)) return;
      await step(`JVM identity: ${cmd}${cmd === 'VM.system_properties' ? ' (kept: the ones a diagnosis reads)' : ''}`, async () => {
        const r = await runTool(jcmd, [String(target.pid), cmd], timeout);
        const error = failure(r);
        if (error === undefined) jvm[cmd] = keep(cmd, dumpText(r, target.pid).trim());
        return { tool: `jcmd ${cmd}`, ...(error !== undefined ? { error } : {}) };
      });
    }
  };
  let identityDone: Promise<void> | undefined;

  // The series: each dump with the threads' CPU since the reading before it.
  const proc = procAvailable(target.pid);
  if (!proc)
    warnings.push(
      'no /proc here: the dumps carry no per-thread CPU of their own (their cpu= and ' +
        'elapsed= still measure it, JDK 11+); run top -H -b -n 1 -p <pid> beside them',
    );
  const ticks = await clockTicks();
  // The first dump's CPU is measured over half a second before it, while nothing else runs.
  let before: ThreadCpuReading | undefined = proc ? readThreadCpu(target.pid) : undefined;
  // Whether the JVM has Thread.dump_to_file (JDK 21+; asked once, after the first dump).
  let jsonDumps: boolean | undefined;
  if (before !== undefined) await sleep(FIRST_CPU_WINDOW_MS);
  for (let i = 1; i <= opts.dumps; i++) {
    const t0 = Date.now();
    if (!pidAlive(target.pid)) {
      warnings.push(`the JVM (pid ${target.pid}) exited before dump ${i} of ${opts.dumps}: what was taken is kept`);
      break;
    }
    const file = `threads-${i}.txt`;
    const ok = await step(`thread dump ${i} of ${opts.dumps}`, async () => {
      let r = jcmd !== undefined ? await runTool(jcmd, [String(target.pid), 'Thread.print', '-l'], timeout) : undefined;
      let error = r !== undefined ? failure(r) : 'no jcmd';
      if (error !== undefined && opts.jstack !== undefined && !(r?.timedOut ?? false)) {
        r = await runTool(opts.jstack, ['-l', String(target.pid)], timeout);
        error = failure(r);
      }
      if (r === undefined || error !== undefined)
        return { ...(r !== undefined ? { tool: basename(r.tool) } : {}), error: error ?? 'no tool to take a thread dump (install a JDK: jcmd)' };
      const text = dumpText(r, target.pid);
      const notADump = threadDumpTextProblem(text);
      if (notADump !== undefined) return { tool: basename(r.tool), error: notADump };
      writeFileSync(join(dir, file), text);
      return { file, tool: `${basename(r.tool)} ${r.args.slice(1).join(' ')}`.trim(), value: true };
    });
    if (ok !== true) {
      if (!pidAlive(target.pid)) warnings.push(`the JVM (pid ${target.pid}) exited during the capture: what was taken is kept`);
      break;
    }
    if (before !== undefined) {
      const now = procAvailable(target.pid) ? readThreadCpu(target.pid) : undefined;
      if (now !== undefined) {
        const cpuFile = `cpu-${i}.txt`;
        const reading = before;
        await step(`per-thread CPU ${i} (/proc/${target.pid}/task)`, async () => {
          writeFileSync(join(dir, cpuFile), asTopFrame(target.pid, reading, now, ticks));
          return { file: cpuFile, tool: `/proc/${target.pid}/task/*/stat` };
        });
        before = now;
      }
    }
    // The JSON dump of the same moment: Thread.print leaves out the virtual threads no carrier runs.
    if (jcmd !== undefined && pidAlive(target.pid)) {
      jsonDumps ??= await listsJsonThreadDump(jcmd, target.pid, timeout);
      if (jsonDumps) await takeJsonThreadDump(jcmd, target.pid, dir, i, opts.dumps, timeout, step);
    }
    identityDone ??= identity();
    if (i < opts.dumps) await sleep(opts.intervalSeconds * 1000 - (Date.now() - t0));
  }
  await (identityDone ?? identity());

  if (opts.heap !== undefined && jcmd !== undefined) {
    if (pidAlive(target.pid)) await takeHeap(jcmd, target, dir, opts.heap, timeout, step, warnings);
    else await step(heapStepName(opts.heap, false), async () => ({ error: `not taken: the JVM (pid ${target.pid}) exited before it` }));
  }
  // Two logs with one name (`a/app.log`, `b/app.log`) are kept apart: the second is `app-2.log`.
  const names = uniqueNames(opts.logs.map((log) => basename(log)));
  for (const [k, log] of opts.logs.entries())
    await step(`log ${log}`, async () => copyTail(log, join(dir, 'logs'), names[k]!, opts.logTailBytes ?? DEFAULT_LOG_TAIL));
  if (opts.dubboQosPort !== undefined) {
    const port = opts.dubboQosPort;
    await step(`Dubbo QoS on 127.0.0.1:${port} (ls, ps, count)`, async () => {
      mkdirSync(join(dir, 'logs'), { recursive: true });
      writeFileSync(join(dir, 'logs', 'dubbo-qos.log'), await qosLog('127.0.0.1', port, timeout));
      return { file: join('logs', 'dubbo-qos.log'), tool: `telnet 127.0.0.1:${port}` };
    });
  }

  const manifest: CaptureManifest = {
    schema: 'dumpsleuth.capture/1',
    host: hostname(),
    pid: target.pid,
    command: target.command,
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    jvm,
    steps,
    warnings,
  };
  writeFileSync(join(dir, 'capture.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { dir, manifest };
}

/** Linux's USER_HZ (100 nearly everywhere), from getconf when it answers. */
async function clockTicks(): Promise<number> {
  const r = await runTool('getconf', ['CLK_TCK'], 2000);
  const n = Number(r.stdout.trim());
  return r.code === 0 && Number.isFinite(n) && n > 0 ? n : 100;
}

interface StepResult<T> {
  readonly file?: string;
  readonly tool?: string;
  readonly error?: string;
  readonly remedy?: string;
  readonly value?: T;
}

type StepFn = <T>(what: string, run: () => Promise<StepResult<T>>) => Promise<T | undefined>;

/** The heap dump, after the thread dumps: it stops the JVM while it writes, so the user is told, and the disk is checked first. */
async function takeHeap(jcmd: string, target: TargetJvm, dir: string, which: 'live' | 'all', timeout: number, step: StepFn, warnings: string[]): Promise<void> {
  const help = await runTool(jcmd, [String(target.pid), 'help', 'GC.heap_dump'], timeout);
  const gzip = /-gz\b/.test(help.stdout);
  const file = gzip ? 'heap.hprof.gz' : 'heap.hprof';
  // The heap in use bounds the dump's size (a gzip one is smaller still).
  const used = await runTool(jcmd, [String(target.pid), 'GC.heap_info'], timeout);
  const usedKb = [...used.stdout.matchAll(/used (\d+)K/g)].reduce((n, m) => n + Number(m[1]), 0);
  try {
    const fs = statfsSync(dir);
    const free = fs.bavail * fs.bsize;
    if (usedKb * 1024 > free)
      warnings.push(
        `the heap in use (about ${Math.round(usedKb / 1024)} MB) may not fit the ${Math.round(free / 1048576)} MB free where the capture is written`,
      );
  } catch {
    // statfs is not everywhere; the dump says if it fails
  }
  warnings.push(`the heap dump paused the JVM while it was written${which === 'live' ? ' (and ran a full GC first: live objects only)' : ''}`);
  await step(heapStepName(which, gzip), async () => {
    const path = join(dir, file);
    const args = [String(target.pid), 'GC.heap_dump', ...(which === 'all' ? ['-all'] : []), ...(gzip ? ['-gz=1'] : []), path];
    // A heap dump of gigabytes takes minutes: its own, longer timeout.
    const r = await runTool(jcmd, args, Math.max(timeout, 30 * 60_000));
    const tool = `jcmd GC.heap_dump${which === 'all' ? ' -all' : ''}${gzip ? ' -gz=1' : ''}`;
    const error = failure(r) ?? said(r) ?? (await heapFileProblem(path));
    if (error === undefined) return { file, tool };
    // An empty file is no heap dump to keep; a cut one is kept (its analysis says where it ends).
    const kept = removeIfEmpty(path) ? {} : existsSync(path) ? { file } : {};
    return { ...kept, tool, error, remedy: JVM_WRITES };
  });
}

/** What a failed heap or JSON dump's error adds: who writes the file, and where it must be able to. */
const JVM_WRITES =
  'the JVM writes this file itself: it must be able to write to the capture directory (its user, its disk, its ' +
  'file-size limit; a JVM in a container sees its own filesystem: run capture inside the container)';

function heapStepName(which: 'live' | 'all', gzip: boolean): string {
  return `heap dump (${which === 'live' ? 'live objects' : 'all objects'}${gzip ? ', gzip' : ''})`;
}

/** The line a tool printed saying the JVM failed the command, while exiting 0. */
function said(r: ToolRun): string | undefined {
  // The file is the command's last argument, and its output echoes it.
  const file = r.args[r.args.length - 1];
  const line = toolSaysFailed(r.stdout, file) ?? toolSaysFailed(r.stderr, file);
  return line === undefined ? undefined : `${basename(r.tool)} ${r.args.slice(1, 2).join(' ')} says: ${line}`;
}

function removeIfEmpty(path: string): boolean {
  try {
    if (statSync(path).size > 0) return false;
    rmSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether the JVM lists Thread.dump_to_file (JDK 21+; the JVM answers `help`, so its own commands are listed whatever jcmd asks). */
async function listsJsonThreadDump(jcmd: string, pid: number, timeout: number): Promise<boolean> {
  const help = await runTool(jcmd, [String(pid), 'help'], timeout);
  return help.code === 0 && /^Thread\.dump_to_file$/m.test(help.stdout);
}

/** `jcmd <pid> Thread.dump_to_file -format=json <abs>/threads-<i>.json`: every virtual thread, mounted or not. */
async function takeJsonThreadDump(jcmd: string, pid: number, dir: string, i: number, of: number, timeout: number, step: StepFn): Promise<void> {
  const file = `threads-${i}.json`;
  await step(`JSON thread dump ${i} of ${of} (virtual threads too)`, async () => {
    const path = join(dir, file);
    const r = await runTool(jcmd, [String(pid), 'Thread.dump_to_file', '-format=json', path], timeout);
    const tool = 'jcmd Thread.dump_to_file -format=json';
    const error = failure(r) ?? said(r) ?? jsonThreadDumpProblem(path);
    if (error === undefined) return { file, tool };
    removeIfEmpty(path);
    return { tool, error, remedy: JVM_WRITES };
  });
}

/** Names made unique in order: a repeated name gets `-2`, `-3`, ... before its extension. */
export function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    const dot = n.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [n.slice(0, dot), n.slice(dot)] : [n, ''];
    let name = n;
    for (let k = 2; used.has(name); k++) name = `${stem}-${k}${ext}`;
    used.add(name);
    return name;
  });
}

/** The end of a log, at most `max` bytes, into `logsDir` as `name`. */
async function copyTail(path: string, logsDir: string, name: string, max: number): Promise<{ file?: string; error?: string }> {
  let size: number;
  try {
    const s = statSync(path);
    if (!s.isFile()) return { error: s.isDirectory() ? 'it is a folder, not a log file' : 'it is not a regular file' };
    size = s.size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      error: code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' ? 'permission denied: run as a user who may read it' : (e as Error).message,
    };
  }
  mkdirSync(logsDir, { recursive: true });
  const out = join(logsDir, name);
  if (size <= max) {
    copyFileSync(path, out);
  } else {
    await new Promise<void>((resolve, reject) => {
      const w = createWriteStream(out);
      createReadStream(path, { start: size - max })
        .on('error', reject)
        .pipe(w)
        .on('finish', resolve)
        .on('error', reject);
    });
  }
  return { file: join('logs', name) };
}
