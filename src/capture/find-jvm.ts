/**
 * Which JVM to capture: a pid, checked to be a JVM this user can attach to, or a piece of its main
 * class, jar or arguments, matched against `jcmd -l`. A name that matches none, or several, is a
 * usage error that lists what runs.
 */
import { existsSync, readFileSync } from 'node:fs';

import { UsageError } from '../errors.js';
import { runTool } from './jvm-tools.js';

export interface TargetJvm {
  readonly pid: number;
  /** What `jcmd -l` says it runs (main class or jar, and arguments). */
  readonly command: string;
}

/** The JVMs `jcmd -l` lists (those of this user that allow attach), without jcmd itself. */
async function listJvms(jcmd: string): Promise<TargetJvm[]> {
  const r = await runTool(jcmd, ['-l'], 20_000);
  return r.stdout
    .split('\n')
    .map((l) => {
      const t = l.trim();
      const pid = /^\d+/.exec(t);
      return pid === null ? null : { pid: Number(pid[0]), command: t.slice(pid[0].length).trim() };
    })
    .filter((j): j is { pid: number; command: string } => j !== null)
    .filter((j) => !/^(?:sun\.tools\.jcmd\.JCmd|jdk\.jcmd\/sun\.tools\.jcmd\.JCmd)\b/.test(j.command));
}

/** Whether the process has libjvm mapped (Linux, and readable: our own or root's view). */
function loadsTheJvm(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/maps`, 'utf8').includes('/libjvm.so');
  } catch {
    return false;
  }
}

const SAME_USER =
  'the JDK attaches only to JVMs of the same user: run as that user (sudo -u <user> ' +
  'dumpsleuth capture ...), or inside its container (kubectl exec / docker exec)';

export async function resolveTarget(target: string, jcmd: string): Promise<TargetJvm> {
  const jvms = await listJvms(jcmd);
  if (/^\d+$/.test(target)) {
    const pid = Number(target);
    if (!existsSync(`/proc/${pid}`) && process.platform === 'linux')
      throw new UsageError(`no process ${pid} is running`, 'give the pid of a running JVM (`jcmd -l` lists them)');
    const listed = jvms.find((j) => j.pid === pid);
    if (listed !== undefined) return listed;
    // A JVM in a container, seen from the host, is not listed (its perf data sits in the container's
    // /tmp) but may still answer an attach: ask it directly before saying no. Only a process that
    // has the JVM loaded is asked: attaching sends SIGQUIT, which ends most other programs.
    if (loadsTheJvm(pid)) {
      const asked = await runTool(jcmd, [String(pid), 'VM.command_line'], 20_000);
      if (asked.code === 0 && /java_command:/.test(asked.stdout)) return { pid, command: /java_command: (.*)/.exec(asked.stdout)![1]!.trim() };
    }
    throw new UsageError(`process ${pid} is not a JVM this user can attach to (jcmd -l does not list it)`, SAME_USER);
  }
  const matches = jvms.filter((j) => j.command.includes(target));
  if (matches.length === 1) return matches[0]!;
  const running = jvms.length === 0 ? 'jcmd -l lists no JVM of this user' : `running: ${jvms.map((j) => `${j.pid} ${j.command.slice(0, 80)}`).join('; ')}`;
  if (matches.length === 0)
    throw new UsageError(`no JVM runs anything named "${target}" (${running})`, `give its pid, or a piece of its main class or jar; ${SAME_USER}`);
  throw new UsageError(
    `${matches.length} JVMs match "${target}": ${matches.map((j) => `${j.pid} ${j.command.slice(0, 80)}`).join('; ')}`,
    'give its pid, or a longer piece of its main class or jar',
  );
}
