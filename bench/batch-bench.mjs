#!/usr/bin/env node
/**
 * Batch benchmark: `dumpsleuth batch` over at least 100 incidents, with -j 1 and -j 2. Prints wall
 * time, incidents/s, MB/s of input, CPU use (cores busy on average), peak RSS and the speed-up of
 * -j 2 over -j 1 (target: at least 1.6x on 2 cores).
 *
 * Two batches, because they scale differently:
 *   - whole incidents: the bundled fixture incidents (thread dumps + a gzip HPROF each), each linked
 *     `copies` times. Even -j 1 keeps more than one core busy here (zlib inflates on Node's thread
 *     pool while the worker parses), so the headroom left for -j 2 is smaller;
 *   - thread dumps only: the dump files of the same incidents and of fixtures/threads, one incident
 *     per file: one core per job.
 * Baselines in the same run: reading every input byte with no parsing, and this machine's own
 * speed-up of 2 workers over 1 on plain arithmetic and on allocation-heavy JavaScript.
 *
 *   npm run build && node bench/batch-bench.mjs [copies, default 10]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const copies = Number(process.argv[2] ?? 10);
const work = mkdtempSync(join(tmpdir(), 'dumpsleuth-batch-bench-'));
const dirsUnder = (d) =>
  readdirSync(d)
    .map((x) => join(d, x))
    .filter((p) => statSync(p).isDirectory());
const incidentDirs = dirsUnder(join(root, 'fixtures/incidents'));

/** Links `copies` of each source into a fresh folder: the batch's folder, arguments, incident count and bytes. */
function makeBatch(name, sources) {
  const dir = join(work, name);
  mkdirSync(dir);
  let bytes = 0;
  for (let c = 0; c < copies; c++) {
    sources.forEach((src, i) => {
      symlinkSync(src, join(dir, `${String(c).padStart(3, '0')}-${String(i).padStart(3, '0')}-${src.split('/').pop()}`));
      const files = statSync(src).isDirectory() ? readdirSync(src).map((f) => join(src, f)) : [src];
      for (const f of files) bytes += statSync(f).size;
    });
  }
  // A folder of incident directories is one argument; files are given one by one (a folder of files
  // would be one incident).
  const args = statSync(sources[0]).isDirectory()
    ? [dir]
    : readdirSync(dir)
        .sort()
        .map((f) => join(dir, f));
  return { dir, args, count: sources.length * copies, bytes };
}

function threadDumpFiles() {
  const out = [];
  for (const d of [...incidentDirs, ...dirsUnder(join(root, 'fixtures/threads'))]) {
    for (const f of readdirSync(d)) if (/\.(txt|log)$/.test(f) && f !== 'app.log') out.push(join(d, f)); // app.log alone holds no dump
  }
  return out;
}

function timeReadAll(dir) {
  const t0 = process.hrtime.bigint();
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) readFileSync(join(p, f));
    else readFileSync(p);
  }
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function runBatch(batch, jobs) {
  const usageFile = join(work, `usage-${jobs}.json`);
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      join(root, 'bench/report-rss.mjs'),
      join(root, 'dist/cli.js'),
      'batch',
      '--no-progress',
      '--fail-on',
      'never',
      '-j',
      String(jobs),
      ...batch.args,
    ],
    {
      env: { ...process.env, DUMPSLEUTH_RSS_FILE: usageFile },
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`batch -j ${jobs} exited ${r.status}: ${r.stderr.slice(-500)}`);
  const lines = r.stdout.trim().split('\n');
  if (lines.length !== batch.count) throw new Error(`expected ${batch.count} lines, got ${lines.length}`);
  return { seconds, ...JSON.parse(readFileSync(usageFile, 'utf8')) };
}

async function machineSpeedUp(body) {
  const once = (n) =>
    new Promise((done) => {
      const t0 = process.hrtime.bigint();
      let left = n;
      for (let i = 0; i < n; i++) {
        const w = new Worker(`${body}; require('node:worker_threads').parentPort.postMessage(0)`, { eval: true });
        w.on('message', () => {
          void w.terminate();
          if (--left === 0) done(Number(process.hrtime.bigint() - t0) / 1e9);
        });
      }
    });
  const one = await once(1);
  const two = await once(2);
  return (2 * one) / two;
}

const fmt = (n, d = 2) => n.toFixed(d);
console.log(`${availableParallelism()} cores, Node ${process.version}`);
const arithmetic = await machineSpeedUp('let x = 0; for (let i = 0; i < 3e8; i++) x = (x * 31 + i) | 0');
const allocating = await machineSpeedUp("let a = []; for (let i = 0; i < 1.5e7; i++) { a.push({ i, s: 'x' + i }); if (a.length > 1e5) a = []; }");
console.log(`baseline  this machine, 2 workers over 1: arithmetic ${fmt(arithmetic)}x, allocation-heavy JavaScript ${fmt(allocating)}x`);

for (const [label, batch] of [
  ['whole incidents (thread dumps + gzip HPROF)', makeBatch('incidents', incidentDirs)],
  ['thread dumps only', makeBatch('threads', threadDumpFiles())],
]) {
  const mb = batch.bytes / 1e6;
  console.log(`\n${label}: ${batch.count} incidents, ${fmt(mb, 1)} MB on disk`);
  timeReadAll(batch.dir); // warm the page cache so every run below reads from memory
  const read = timeReadAll(batch.dir);
  console.log(`  baseline  read every byte, no parsing  ${fmt(read)} s  ${fmt(mb / read, 0)} MB/s`);
  runBatch(batch, 2); // warm-up
  const one = runBatch(batch, 1);
  const two = runBatch(batch, 2);
  for (const [j, r] of [
    ['-j 1', one],
    ['-j 2', two],
  ]) {
    console.log(
      `  batch ${j}  ${fmt(r.seconds).padStart(6)} s  ${fmt(batch.count / r.seconds, 1).padStart(6)} incidents/s  ` +
        `${fmt(mb / r.seconds, 1).padStart(6)} MB/s  cores busy ${fmt(r.cpuSeconds / r.seconds)}  peak RSS ${fmt(r.rssMb, 0)} MB`,
    );
  }
  console.log(`  speed-up of -j 2 over -j 1: ${fmt(one.seconds / two.seconds)}x (target 1.6x)`);
}
rmSync(work, { recursive: true, force: true });
