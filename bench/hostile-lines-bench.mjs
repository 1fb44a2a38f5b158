#!/usr/bin/env node
/**
 * How the time of `dumpsleuth analyze` grows with the length of hostile lines: a thread dump whose
 * thread headers (HotSpot, JRockit, ThreadInfo), lock lines and log lines are followed by a long run
 * of one character (`"`, `[`, `(`, `<`, `0x`, `a`, a space, `=`), at 8, 16, 32 and 64 KB per line,
 * beside `analyze` of a plain dump of the same size (the baseline, measured in the same turns). A
 * run that grows like the line's square shows as its time quadrupling when the line doubles; a
 * linear one stays near the baseline. Printed, never asserted (a time depends on the machine).
 * BENCH_BEFORE=<dir>: also runs the build in <dir>/dist in the same turns.
 *
 *   node bench/hostile-lines-bench.mjs
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'bench', 'out', 'hostile');
mkdirSync(out, { recursive: true });
const before = process.env.BENCH_BEFORE;
const builds = [{ label: 'this build', cli: join(root, 'dist/cli.js') }, ...(before ? [{ label: before, cli: join(before, 'dist/cli.js') }] : [])];

const BANNER = 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n';
/** Where a hostile run goes: the line each context writes before it. */
const CONTEXTS = {
  'hotspot header': '"worker" #12 prio=5 os_prio=0 cpu=1.00ms elapsed=2.00s tid=0x1 nid=0x2 runnable ',
  'jrockit header': '"Main Thread" id=1 idx=0x4 tid=4567 prio=5 alive, in native ',
  'threadinfo header': '"worker" Id=12 WAITING on java.lang.Object@1 owned by "',
  'bare name': '"x" ',
  'lock line': '\t- waiting to lock <0x1> (a ',
  'log line': '2026-12-03 10:00:00 WARN Thread pool is EXHAUSTED! Thread Name: ',
};
const RUNS = ['"', '[', '(', '<', '0x', 'a', ' ', '='];
const SIZES = [8, 16, 32, 64];

function dumpWith(line) {
  return `${BANNER}${line}\n   java.lang.Thread.State: RUNNABLE\n\tat com.acme.Work.run(Work.java:1)\n\n`;
}

function time(cli, file) {
  const started = process.hrtime.bigint();
  const p = spawnSync(process.execPath, [cli, 'analyze', '--format', 'json', '--fail-on', 'never', file], { encoding: 'utf8', timeout: 300_000 });
  const s = Number(process.hrtime.bigint() - started) / 1e9;
  return p.error !== undefined ? Infinity : s;
}

console.log(`analyze on one hostile line, by its length, node ${process.version}; baseline: a plain line of the same length`);
for (const b of builds) {
  console.log(`\n${b.label}`);
  let worst = { ratio: 0, what: '' };
  for (const [context, head] of Object.entries(CONTEXTS)) {
    for (const run of RUNS) {
      const cells = [];
      for (const kb of SIZES) {
        const hostile = join(out, 'hostile.txt');
        const plain = join(out, 'plain.txt');
        const n = Math.ceil((kb * 1024) / run.length);
        writeFileSync(hostile, dumpWith(head + run.repeat(n)));
        writeFileSync(plain, dumpWith(head + 'x'.repeat(kb * 1024)));
        const h = time(b.cli, hostile);
        const p = time(b.cli, plain);
        cells.push(`${kb} KB ${h.toFixed(2)} s (plain ${p.toFixed(2)})`);
        if (h / p > worst.ratio) worst = { ratio: h / p, what: `${context}, ${JSON.stringify(run)}, ${kb} KB: ${h.toFixed(2)} s against ${p.toFixed(2)} s` };
      }
      console.log(`  ${context.padEnd(18)} ${JSON.stringify(run).padEnd(6)} ${cells.join('  ')}`);
    }
  }
  console.log(`  worst against its baseline: ${worst.what} (${worst.ratio.toFixed(2)}x)`);
}
