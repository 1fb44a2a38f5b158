/**
 * The JDK's own tools, found and run: `jcmd` (or `jstack` where jcmd is missing), from PATH, from
 * JAVA_HOME, or beside the `java` on PATH. Each run has a timeout: a JVM that does not answer (hung
 * in a safepoint, or stopped) is reported, not waited for.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export interface ToolRun {
  readonly tool: string;
  readonly args: readonly string[];
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly seconds: number;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where a JDK tool is: PATH first, then $JAVA_HOME/bin, then the directory of the `java` on PATH (followed through links). */
export function findTool(name: 'jcmd' | 'jstack' | 'java' | 'javac', env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  for (const d of dirs) if (executable(join(d, name))) return join(d, name);
  if (env['JAVA_HOME'] && executable(join(env['JAVA_HOME'], 'bin', name))) return join(env['JAVA_HOME'], 'bin', name);
  for (const d of dirs) {
    const java = join(d, 'java');
    if (!executable(java)) continue;
    try {
      const beside = join(dirname(realpathSync(java)), name);
      if (executable(beside)) return beside;
    } catch {
      // a dangling link: not this one
    }
  }
  return undefined;
}

/** Runs a tool to its end or its timeout; never throws for the tool's own failure (its code and stderr say it). */
export function runTool(tool: string, args: readonly string[], timeoutMs: number): Promise<ToolRun> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    execFile(tool, [...args], { timeout: timeoutMs, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const e = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
      const code = e === null ? 0 : typeof e.code === 'number' ? e.code : null;
      resolve({
        tool,
        args,
        stdout: stdout ?? '',
        stderr: stderr ?? e?.message ?? '',
        code,
        timedOut: e?.killed === true,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
  });
}
