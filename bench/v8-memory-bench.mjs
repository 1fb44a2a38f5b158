#!/usr/bin/env node
/**
 * V8 heap snapshot benchmark: makes (once, cached in bench/out/) a .heapsnapshot of a Node process
 * holding about BENCH_V8_OBJECTS (1,500,000) small objects in maps and arrays, then measures, each
 * in its own process, the file's bytes read with no parsing (the baseline), `dumpsleuth histogram`,
 * and `dumpsleuth memory` (the object graph, dominator tree, retained sizes, summary). Prints
 * seconds, MB/s, the ratio to the read, and peak RSS.
 *
 *   node bench/v8-memory-bench.mjs
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = join(here, 'out');
const objects = Number(process.env.BENCH_V8_OBJECTS ?? 1_500_000);
const file = join(out, `v8-${objects}.heapsnapshot`);

/** The program whose heap is dumped: sessions in a Map (the leak), each with an attribute array and a string. */
const MAKER = `
const { writeHeapSnapshot } = require('node:v8');
class Session { constructor(i) { this.id = 'session-' + i; this.attributes = [i, i + 1, { at: i }]; } }
globalThis.sessions = new Map();
for (let i = 0; i < ${Math.floor(objects / 4)}; i++) globalThis.sessions.set(i, new Session(i));
writeHeapSnapshot(process.argv[1]);
`;

function child(mode) {
  const t0 = process.hrtime.bigint();
  if (mode === 'read') {
    const fd = openSync(file, 'r');
    const buf = Buffer.allocUnsafe(8 << 20);
    for (let pos = 0; ;) {
      const r = readSync(fd, buf, 0, buf.length, pos);
      if (r === 0) break;
      pos += r;
    }
    closeSync(fd);
  } else {
    const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), mode, '--no-progress', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(r.stderr);
  }
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function measure(mode) {
  const p = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, fileURLToPath(import.meta.url), '--child', mode], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(p.stderr);
  const [seconds, kb] = p.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, rssMb: kb / 1024 };
}

if (process.argv[2] === '--child') {
  child(process.argv[3]);
} else {
  mkdirSync(out, { recursive: true });
  if (!existsSync(file)) spawnSync(process.execPath, ['--max-old-space-size=8192', '-e', MAKER, file], { stdio: 'inherit' });
  const mb = statSync(file).size / 1048576;
  console.log(`input: ${mb.toFixed(0)} MB V8 heap snapshot (${file}), whole process each, node ${process.version}`);
  const read = measure('read');
  for (const [label, r] of [
    ['read bytes only (baseline)', read],
    ['histogram', measure('histogram')],
    ['memory (dominator tree)', measure('memory')],
  ]) {
    console.log(
      `${label.padEnd(30)} ${r.seconds.toFixed(2).padStart(6)} s ${(mb / r.seconds).toFixed(0).padStart(6)} MB/s  ` +
        `${r === read ? '          ' : `${(r.seconds / read.seconds).toFixed(1).padStart(5)}x read`}  peak RSS ${r.rssMb.toFixed(0).padStart(5)} MB`,
    );
  }
}
