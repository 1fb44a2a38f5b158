#!/usr/bin/env node
/**
 * Capture benchmark: starts the capture fixture program (fixtures/programs/capture/CaptureTarget.java:
 * a spinning thread and an idle pool), then runs `dumpsleuth capture <pid> --no-analyze` with 3 dumps
 * 2 s apart, 3 times. Prints the capture's own span (capture.json: first step to manifest) beside
 * twice the interval, and the whole process's time (node's start, finding the JVM with jcmd -l).
 * Needs a build (npm run build) and a JDK.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const classes = mkdtempSync(join(tmpdir(), 'dumpsleuth-capture-bench-'));
const javac = spawnSync('javac', ['-d', classes, join(root, 'fixtures/programs/capture/CaptureTarget.java')], { encoding: 'utf8' });
if (javac.status !== 0) throw new Error(`javac: ${javac.stderr || javac.error}`);
// In a directory of its own: an attach leaves `.attach_pid<pid>` in the JVM's working directory.
const jvm = spawn('java', ['-cp', classes, 'CaptureTarget', '120'], { cwd: classes, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve) => jvm.stdout.on('data', (d) => d.toString().includes('ready') && resolve()));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spans = [];
const wholes = [];
try {
  for (let run = 0; run < 3; run++) {
    const out = mkdtempSync(join(tmpdir(), 'dumpsleuth-capture-bench-out-'));
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'capture', String(jvm.pid), '-n', '3', '-i', '2', '-o', out, '--no-analyze'], {
      encoding: 'utf8',
    });
    wholes.push(Number(process.hrtime.bigint() - t0) / 1e9);
    if (r.status !== 0) throw new Error(r.stderr);
    const manifest = JSON.parse(readFileSync(join(out, readdirSync(out)[0], 'capture.json'), 'utf8'));
    spans.push((Date.parse(manifest.finishedAt) - Date.parse(manifest.startedAt)) / 1000);
  }
} finally {
  jvm.kill('SIGKILL');
}
const span = median(spans);
console.log(
  `capture of 3 dumps 2 s apart, median of 3, node ${process.version}: capture ${span.toFixed(2)} s (2 x interval + ${(span - 4).toFixed(2)} s), whole ` +
    `process ${median(wholes).toFixed(2)} s`,
);
process.exit(0);
