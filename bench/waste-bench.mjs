#!/usr/bin/env node
/**
 * What the memory-waste analysis (issue 49) costs the memory analysis: `analyseMemory` of a heap
 * with and without its waste section, each run in a process of its own, in alternate turns; wall
 * time and peak RSS by /usr/bin/time, the phases as the analysis announces them, and the peak RSS of
 * each phase (Linux: VmHWM, reset at each phase). Target (issue 49): at most 10 % more time and
 * memory with the waste than without.
 *
 *   npm run build && node bench/waste-bench.mjs [heap.hprof ...]     (BENCH_RUNS=3 turns)
 *
 * Without arguments: the 1.9 GB heap of bench/java/BigHeap.java (3,000,000 records, cached in bench/out/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeBigHeap } from './big-heap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 3);

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4]);
  process.exit(0);
}

const files = process.argv.length > 2 ? process.argv.slice(2) : [join(root, 'bench/out/big-3000000.hprof')];
if (process.argv.length <= 2 && !existsSync(files[0])) await makeBigHeap({ records: 3_000_000, plain: files[0] });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`memory analysis with and without its waste section, median of ${runs} alternate turns, node ${process.version}`);
for (const file of files) {
  const by = { without: [], with: [] };
  for (let r = 0; r < runs; r++) {
    for (const step of ['without', 'with']) {
      const p = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, fileURLToPath(import.meta.url), '--child', step, file], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`${step} ${file}: exit ${p.status}\n${p.stderr}`);
      const [seconds, kb] = p.stderr.trim().split('\n').pop().split(' ').map(Number);
      by[step].push({ seconds, rssMb: kb / 1024, said: JSON.parse(p.stdout.trim().split('\n').pop()) });
    }
  }
  const row = (step) => {
    const rows = by[step];
    const phases = Object.keys(rows[0].said.phases)
      .map((k) => `${k} ${median(rows.map((r) => r.said.phases[k])).toFixed(2)} s / ${median(rows.map((r) => r.said.peaks[k]))} MB`)
      .join(', ');
    // The peak is the highest of the phases' (the phases' peaks are reset as each ends, and so is what /usr/bin/time reads).
    const peakOf = (r) => Math.max(...Object.values(r.said.peaks).filter((v) => v !== null), 0) || r.rssMb;
    return { seconds: median(rows.map((r) => r.seconds)), rss: median(rows.map(peakOf)), phases };
  };
  const without = row('without');
  const withWaste = row('with');
  for (const [name, r] of [
    ['without waste', without],
    ['with waste', withWaste],
  ])
    console.log(`${relative(root, file)}  ${name.padEnd(13)}  ${r.seconds.toFixed(2)} s wall, peak RSS ${r.rss.toFixed(0)} MB  (${r.phases})`);
  console.log(
    `${relative(root, file)}  the waste costs ${(100 * (withWaste.seconds / without.seconds - 1)).toFixed(1)} % more time, ` +
      `${(100 * (withWaste.rss / without.rss - 1)).toFixed(1)} % more peak memory; waste found: ${by.with[0].said.wasted}`,
  );
}

/** One analysis, in this process: prints its phases' seconds and peaks as one JSON line. */
async function child(step, file) {
  const { analyseMemory } = await import(join(root, 'dist/heap/memory/analyse-memory.js'));
  const hwm = () => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
      writeFileSync('/proc/self/clear_refs', '5');
      return m === null ? null : Math.round(Number(m[1]) / 1024);
    } catch {
      return null;
    }
  };
  const phases = {};
  const peaks = {};
  let phase = 'read';
  let t = performance.now();
  const end = (next) => {
    phases[phase] = (performance.now() - t) / 1000;
    peaks[phase] = hwm();
    t = performance.now();
    phase = next;
  };
  const a = await analyseMemory(file, { waste: step === 'with', suspectPaths: true, onProgress: (e) => e.phase !== phase && end(e.phase) });
  end('');
  const w = a.summary.waste;
  console.log(JSON.stringify({ phases, peaks, wasted: w !== undefined ? `${w.wastedBytes} bytes (${(100 * w.shareOfHeap).toFixed(1)} % of the heap)` : null }));
}
