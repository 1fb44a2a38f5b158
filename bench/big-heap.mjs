/**
 * Makes a heap dump of a real JVM running bench/java/BigHeap.java with a given number of records
 * (a pool with queued tasks, maps, strings), as jmap writes it: plain and, when asked, jmap's gzip.
 * The benches share it, each caching its dumps in bench/out/.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const JAVA_HOME = process.env.JAVA_HOME ?? '/usr/lib/jvm/java-17-openjdk-amd64';

/**
 * `heap`: the JVM's -Xms/-Xmx (default 4g); `histo`: a file for `jmap -histo:live` of the same JVM,
 * taken just before the dump (what the JVM itself counts as live).
 */
export async function makeBigHeap({ records, plain, gz, heap = '4g', histo }) {
  const classes = join(here, 'out', 'bigheap-classes');
  mkdirSync(classes, { recursive: true });
  execFileSync(join(JAVA_HOME, 'bin/javac'), ['-d', classes, join(here, 'java/BigHeap.java')], { stdio: 'inherit' });
  const jvm = spawn(join(JAVA_HOME, 'bin/java'), [`-Xms${heap}`, `-Xmx${heap}`, '-XX:+UseParallelGC', '-cp', classes, 'BigHeap', String(records)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise((resolve, reject) => {
      let seen = '';
      jvm.stdout.on('data', (d) => {
        seen += d;
        if (seen.includes('READY')) resolve();
      });
      jvm.on('exit', (code) => reject(new Error(`BigHeap exited with ${code} before READY`)));
    });
    for (const f of [plain, gz]) if (f !== undefined) rmSync(f, { force: true });
    if (histo !== undefined) writeFileSync(histo, execFileSync(join(JAVA_HOME, 'bin/jmap'), ['-histo:live', String(jvm.pid)], { maxBuffer: 1 << 28 }));
    execFileSync(join(JAVA_HOME, 'bin/jmap'), [`-dump:live,format=b,file=${plain}`, String(jvm.pid)], { stdio: 'inherit' });
    if (gz !== undefined) execFileSync(join(JAVA_HOME, 'bin/jmap'), [`-dump:live,format=b,gz=1,file=${gz}`, String(jvm.pid)], { stdio: 'inherit' });
  } finally {
    jvm.kill('SIGKILL');
  }
}
