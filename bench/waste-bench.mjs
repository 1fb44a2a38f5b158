#!/usr/bin/env node
/**
 * What the memory-waste analysis (src/heap/waste, issue 49) costs as its data is gathered today: the
 * whole heap loaded into a HeapView, with the object graph built on the same first pass for the
 * shallow sizes. Beside it, in the same turns, the load analyze's memory part makes now (the
 * analysis plan's objects, and the graph on the same pass). Each step in a process of its own,
 * wall time and peak RSS by /usr/bin/time, median of BENCH_RUNS (3).
 *
 *   npm run build && node bench/waste-bench.mjs [heap.hprof ...]
 *
 * Without arguments: the 90 MB heap of bench/java/BigHeap.java (25,000 records, cached in bench/out/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeBigHeap } from './big-heap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 3);

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4]);
  process.exit(0);
}

const files = process.argv.length > 2 ? process.argv.slice(2) : [join(root, 'bench/out/mid-25000.hprof')];
if (process.argv.length <= 2 && !existsSync(files[0])) await makeBigHeap({ records: 25_000, plain: files[0], heap: '1g' });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`memory waste: its load and analysis beside analyze's memory load, median of ${runs}, node ${process.version}`);
for (const file of files) {
  const by = { plan: [], waste: [] };
  for (let r = 0; r < runs; r++) {
    for (const step of ['plan', 'waste']) {
      const p = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, fileURLToPath(import.meta.url), '--child', step, file], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`${step} ${file}: exit ${p.status}\n${p.stderr}`);
      const [seconds, kb] = p.stderr.trim().split('\n').pop().split(' ').map(Number);
      by[step].push({ seconds, rssMb: kb / 1024, said: JSON.parse(p.stdout.trim().split('\n').pop()) });
    }
  }
  for (const step of ['plan', 'waste']) {
    const rows = by[step];
    const said = rows[0].said;
    const phases = Object.keys(said.phases)
      .map((k) => `${k} ${median(rows.map((r) => r.said.phases[k])).toFixed(2)} s`)
      .join(', ');
    console.log(
      `${file}  ${step.padEnd(5)}  ${median(rows.map((r) => r.seconds)).toFixed(2)} s wall, peak RSS ${median(rows.map((r) => r.rssMb)).toFixed(0)} MB` +
        `  (${phases}; objects loaded ${said.loaded} of ${said.objects})`,
    );
  }
}

/** One step, in this process: prints its phases' seconds and what it loaded, as one JSON line. */
async function child(step, file) {
  const { ANALYSIS_PLAN } = await import(join(root, 'dist/heap/analysis-plan.js'));
  const { hprofBytesEstimate } = await import(join(root, 'dist/heap/hprof/byte-source.js'));
  const { hprofGraphBuilder } = await import(join(root, 'dist/heap/hprof/graph/hprof-graph.js'));
  const { loadHprof } = await import(join(root, 'dist/heap/hprof/hprof-loader.js'));
  const { HeapView } = await import(join(root, 'dist/heap/heap-view.js'));
  const { memoryWaste } = await import(join(root, 'dist/heap/waste/memory-waste.js'));
  const { graphShallowSizes } = await import(join(root, 'dist/heap/waste/shallow-sizes.js'));
  const phases = {};
  let t = performance.now();
  const lap = (name) => {
    const now = performance.now();
    phases[name] = (now - t) / 1000;
    t = now;
  };
  let plan = ANALYSIS_PLAN;
  if (step === 'waste') {
    // Every instance, and what every class's statics hold: the class names first.
    const names = [...new Set([...(await loadHprof(file, { roots: [] })).classes.values()].map((c) => c.name))];
    plan = { roots: [{ className: 'java.lang.Object', depth: 2 }], statics: names.map((className) => ({ className, depth: 2 })), maxObjects: 200_000_000 };
  }
  let builder;
  let graph;
  const store = await loadHprof(file, plan, undefined, {
    firstPass: (meta) => (builder = hprofGraphBuilder(hprofBytesEstimate(file), meta, false)).visitor,
    whileOpen: async (_indexed, end) => {
      graph = builder.finish(end);
    },
  });
  lap('load+graph');
  if (step === 'waste') {
    memoryWaste(new HeapView(store), graphShallowSizes(graph));
    lap('waste');
  }
  console.log(JSON.stringify({ phases, loaded: store.objects.size, objects: graph.objects }));
}
