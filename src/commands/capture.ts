/**
 * `dumpsleuth capture <pid | name>`: takes an incident from a live JVM with the JDK's own tools into
 * `<out>/<host>-<pid>-<time>/` (src/capture/), says what it took and what went wrong, then analyses
 * the directory as `analyze` would, unless asked not to.
 */
import { captureIncident, type CaptureOptions } from '../capture/capture.js';
import { resolveTarget } from '../capture/find-jvm.js';
import { findTool } from '../capture/jvm-tools.js';
import { UsageError } from '../errors.js';
import { stripControl } from '../report/sanitize.js';
import { analyzeCommand, type CommandIo } from './analyze.js';

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
  if (!opts.analyze) return 0;
  io.stderr.write('\n');
  return analyzeCommand([dir], { failOn: opts.failOn, progress: false }, io);
}
