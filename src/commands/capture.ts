/**
 * `dumpsleuth capture <pid | name>`: takes an incident from a live JVM with the JDK's own tools into
 * `<out>/<host>-<pid>-<time>/` (src/capture/), says what it took and what went wrong, then analyses
 * the directory as `analyze` would, unless asked not to.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { isHeapStepName } from '../analysis/capture-manifest.js';
import { captureIncident, type CaptureManifest, type CaptureOptions } from '../capture/capture.js';
import { resolveTarget } from '../capture/find-jvm.js';
import { findTool } from '../capture/jvm-tools.js';
import { UsageError } from '../errors.js';
import { readFailure } from '../model/read-failure.js';
import { stripControl } from '../report/sanitize.js';
import { analyzeCommand } from './analyze.js';
import type { CommandIo } from './io.js';

/** What the capture takes (CaptureOptions, as the command line says it), and what the command does after. */
export interface CaptureCommandOptions extends Pick<CaptureOptions, 'dumps' | 'intervalSeconds' | 'heap' | 'logs' | 'timeoutSeconds' | 'dubboQosPort'> {
  readonly out: string;
  readonly analyze: boolean;
  readonly failOn: string;
}

export async function captureCommand(target: string, opts: CaptureCommandOptions, io: CommandIo): Promise<number> {
  const jcmd = findTool('jcmd', io.env);
  const jstack = findTool('jstack', io.env);
  if (jcmd === undefined) {
    throw new UsageError(
      'jcmd is not on PATH, in $JAVA_HOME/bin or beside java',
      "capture needs a JDK, not only a JRE, of the JVM's version or newer: apt-get " +
        'install openjdk-17-jdk-headless (or the JDK of your vendor), or set JAVA_HOME',
    );
  }
  makeOutFolder(opts.out);
  const jvm = await resolveTarget(target, jcmd);
  const dumps = opts.dumps === 1 ? '1 thread dump' : `${opts.dumps} thread dumps ${opts.intervalSeconds} s apart`;
  const heap = opts.heap !== undefined ? `, then a heap dump (${opts.heap} objects; it pauses the JVM while it is written)` : '';
  io.stderr.write(`capturing pid ${jvm.pid} (${stripControl(jvm.command.slice(0, 100))}): ${dumps}${heap}\n`);
  const { out, analyze: _analyze, failOn: _failOn, ...taken } = opts;
  const { dir, manifest } = await captureIncident(jvm, { ...taken, outDir: out, jcmd, ...(jstack !== undefined ? { jstack } : {}) });
  const files = manifest.steps.filter((s) => s.ok && s.file !== undefined).length;
  io.stderr.write(`wrote ${stripControl(dir)}: ${files} files and capture.json (${manifest.steps.length} steps)\n`);
  for (const w of manifest.warnings) io.stderr.write(`warning: ${stripControl(w)}\n`);
  const dumpsTaken = manifest.steps.filter((s) => s.ok && s.what.startsWith('thread dump')).length;
  if (dumpsTaken === 0)
    throw new UsageError(
      `no thread dump of pid ${jvm.pid} could be taken (capture.json in ${dir} says why)`,
      "run as the JVM's user (sudo -u <user> dumpsleuth capture ...), inside its container, or with kill -3 <pid> as a last resort",
    );
  // Asked for and not written: what was taken is still analysed, then the run fails (exit 2), so a
  // script or a person reading only the end never takes the capture for complete.
  const heapMissing = opts.heap !== undefined ? missingHeap(manifest) : undefined;
  const analysed = opts.analyze ? (io.stderr.write('\n'), await analyzeCommand([dir], { failOn: opts.failOn, progress: false }, io)) : 0;
  if (heapMissing !== undefined)
    throw new UsageError(
      `the heap dump asked for (--heap) was not written: ${heapMissing} (what was taken is in ${stripControl(dir)})`,
      'the JVM writes the heap dump itself: give it a directory it can write with room for its heap (-o <dir>), ' +
        'and no file-size limit (ulimit -f); in a container, run capture inside it',
    );
  return analysed;
}

/** Why the heap dump step failed (or that it never ran), when no heap dump was taken. */
function missingHeap(manifest: CaptureManifest): string | undefined {
  const heapSteps = manifest.steps.filter((s) => isHeapStepName(s.what));
  if (heapSteps.some((s) => s.ok)) return undefined;
  // The step's error alone: this command's remedy says who writes the file.
  const error = heapSteps.find((s) => s.error !== undefined)?.error;
  return stripControl(error ?? 'the capture ended before it');
}

/**
 * The folder incidents go into, made before the JVM is asked anything, one level at a time: a path
 * through a file, or where no folder can be made (/proc), is one error line, not a bug (a recursive
 * mkdir there loops for ever on some systems).
 */
function makeOutFolder(out: string): void {
  const missing: string[] = [];
  let at = resolve(out);
  while (!existsSync(at) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  const remedy = 'give -o a folder you may write to (it is made when missing), such as -o /tmp/incidents';
  if (!statSync(at).isDirectory()) throw new UsageError(`cannot write the capture into ${out}: ${at} is not a folder`, remedy);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (e) {
      throw new UsageError(`cannot make the folder ${folder} for the capture: ${readFailure(e)}`, remedy);
    }
  }
}
