#!/usr/bin/env node
/**
 * Heap-dump benchmark. Makes (once, cached in bench/out/) a 1.5-2 GB HPROF with a real JVM
 * (bench/java/BigHeap.java) and jmap's gzip copy of it, then measures in separate processes:
 *   read:        the file's bytes with no parsing (the baseline),
 *   histogram:   `dumpsleuth histogram` on the plain file (one thread a core), then on one thread,
 *   targeted:    loading what the analyses need (the analysis plan: pools, counters, threads, ...),
 *   analyze:     the whole analysis of the heap dump (load, reconstruct, rules), as `analyze` runs it,
 *   memory:      `dumpsleuth memory`: the whole object graph, the dominator tree, retained sizes and
 *                the summary, with the time of each phase and the graph's bytes per object,
 *   gunzip:      the gzip file inflated with no parsing (the gzip baseline),
 *   histogram-gz: the histogram of the gzip file.
 * Prints MB/s (of the file as stored), the ratio to the raw read, and peak RSS.
 *
 *   node bench/heap-bench.mjs            (BENCH_RECORDS=3000000 by default; BENCH_REBUILD=1 to remake the dump;
 *                                         BENCH_HISTOGRAM_ONLY=1 stops after the histograms)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

import { makeBigHeap } from './big-heap.mjs';
import { importFirst } from './import-build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = join(here, 'out');

async function child(mode, file) {
  const t0 = process.hrtime.bigint();
  const extra = {};
  if (mode === 'read') {
    const fd = openSync(file, 'r');
    const buf = Buffer.allocUnsafe(8 << 20);
    let n = 0;
    let pos = 0;
    for (;;) {
      const r = readSync(fd, buf, 0, buf.length, pos);
      if (r === 0) break;
      pos += r;
      n += r;
    }
    closeSync(fd);
    extra.bytes = n;
  } else if (mode === 'gunzip') {
    let n = 0;
    for await (const c of createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }))) n += c.length;
    extra.inflatedBytes = n;
  } else if (mode === 'histogram-one-thread') {
    // The same pass on one thread (the file in one part): what both cores bring.
    const { hprofHistogram } = await import(join(root, 'dist/heap/hprof/hprof-histogram.js'));
    const h = await hprofHistogram(file, undefined, undefined, 1);
    extra.classes = h.rows.length;
    extra.instances = h.totalInstances;
  } else if (mode === 'histogram' || mode === 'histogram-gz') {
    const m = await importFirst(root, 'dist/analysis/heap-file.js', 'dist/heap/open-heap.js');
    const h = await (m.heapHistogramOfFile ?? m.heapHistogram)(file);
    extra.classes = h.rows.length;
    extra.instances = h.totalInstances;
  } else if (mode === 'analyze') {
    // What `dumpsleuth analyze big.hprof` does, minus printing: load, reconstruct, rules.
    const { loadAnyInput } = await importFirst(root, 'dist/analysis/load-incident.js', 'dist/input/load-incident.js');
    const { ANALYSIS_PLAN } = await import(join(root, 'dist/heap/analysis-plan.js'));
    const { buildModel } = await import(join(root, 'dist/reconstruct/build-model.js'));
    const { RULES } = await import(join(root, 'dist/rules/index.js'));
    const { defaultConfig } = await import(join(root, 'dist/engine/config.js'));
    const { runRules } = await import(join(root, 'dist/engine/run-rules.js'));
    const loaded = await loadAnyInput(file, ANALYSIS_PLAN);
    const model = buildModel([], { heaps: [loaded.heap] });
    const findings = runRules(model, RULES, defaultConfig(RULES));
    extra.findings = findings.map((f) => f.id);
  } else if (mode === 'memory') {
    // What `dumpsleuth memory` runs (analyseMemory: the graph, the dominator tree with its columns set
    // aside on disk for a big heap, the summary, the suspects' paths), each step timed by its progress events.
    // Builds before the heap's front door (heap/memory/) had it in heap/graph/.
    const { analyseMemory } = await importFirst(root, 'dist/heap/memory/analyse-memory.js', 'dist/heap/graph/heap-memory.js');
    const { retainerTree } = await import(join(root, 'dist/heap/graph/retainer-tree.js'));
    const { renderMemoryText } = await import(join(root, 'dist/report/memory-text.js'));
    const started = {};
    let last = process.hrtime.bigint();
    let step = 'graph';
    const phases = {};
    // The peak RSS so far as each phase ends: which phase holds the analysis's peak.
    const peakAt = {};
    const enter = (next) => {
      const now = process.hrtime.bigint();
      phases[step] = (phases[step] ?? 0) + Number(now - last) / 1e9;
      peakAt[step] = process.resourceUsage().maxRSS / 1024;
      last = now;
      step = next;
    };
    const a = await analyseMemory(file, {
      suspectPaths: true,
      onProgress: (e) => {
        if (e.phase in { dominators: 1, summary: 1, paths: 1 } && started[e.phase] === undefined) {
          started[e.phase] = true;
          enter(e.phase);
        }
      },
    });
    enter('report');
    const text = renderMemoryText({
      source: file,
      summary: a.summary,
      tree: retainerTree(a.graph, a.tree, a.lists, { top: 10, children: 3, depth: 3 }),
      warnings: a.graph.warnings,
    });
    enter('done');
    const g = a.graph;
    extra.objects = g.objects;
    extra.edges = g.edges.length;
    extra.reachable = a.tree.reachable;
    // What the analysis keeps per object at its end: the graph, the retained sizes, the dominated lists.
    const kept = [g.ids, g.classOf, g.shallow, g.edgeStart, g.edges, g.roots, a.tree.retained, a.lists.start, a.lists.children];
    extra.keptBytesPerObject = kept.reduce((sum, x) => sum + x.byteLength, 0) / g.objects;
    extra.phases = {
      graph: phases.graph,
      dominators: phases.dominators,
      retainedAndSummary: phases.summary,
      suspectPaths: phases.paths ?? 0,
      report: phases.report,
    };
    extra.peakAt = peakAt;
    extra.suspects = a.summary.suspects.length;
    extra.reportChars = text.length;
  } else if (mode === 'targeted') {
    const m = await importFirst(root, 'dist/analysis/heap-file.js', 'dist/heap/open-heap.js');
    const openHeap = m.openHeapFile ?? m.openHeap;
    const { ANALYSIS_PLAN } = await import(join(root, 'dist/heap/analysis-plan.js'));
    const store = await openHeap(file, ANALYSIS_PLAN);
    extra.loadedObjects = store.objects.size;
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, ...extra }));
}

async function main() {
  const [, , flag, childMode, childFile] = process.argv;
  if (flag === '--child') return child(childMode, childFile);
  mkdirSync(out, { recursive: true });
  const plain = join(out, 'big.hprof');
  const gz = join(out, 'big.hprof.gz');
  if (process.env.BENCH_REBUILD || !existsSync(plain) || !existsSync(gz))
    await makeBigHeap({ records: Number(process.env.BENCH_RECORDS ?? 3_000_000), plain, gz });
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  // The environment the command would run in: `analyze` and `memory` run again with huge pages on a big heap (src/huge-pages.ts).
  const { hugePagesEnvironment } = await import(join(root, 'dist/huge-pages.js'));
  const commandOf = { analyze: 'analyze', memory: 'memory' };
  const measure = (mode, file) => {
    const results = [];
    const env = (commandOf[mode] && hugePagesEnvironment([commandOf[mode], file])) || process.env;
    for (let r = 0; r < runs; r++) {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, file], { encoding: 'utf8', maxBuffer: 1 << 20, env });
      if (p.status !== 0) throw new Error(p.stderr);
      results.push(JSON.parse(p.stdout));
    }
    results.sort((a, b) => a.seconds - b.seconds);
    return results[Math.floor(results.length / 2)];
  };
  const mb = (f) => statSync(f).size / 1048576;
  const plainMb = mb(plain);
  const gzMb = mb(gz);
  console.log(`input: ${plainMb.toFixed(0)} MB HPROF (${plain}), ${gzMb.toFixed(0)} MB gzip copy (jmap gz=1); median of ${runs} runs, node ${process.version}`);
  const line = (label, r, sizeMb, base) =>
    console.log(
      `${label.padEnd(34)} ${r.seconds.toFixed(2).padStart(6)} s ${(sizeMb / r.seconds).toFixed(0).padStart(6)} MB/s  ` +
        `${base ? `${(r.seconds / base.seconds).toFixed(1).padStart(5)}x read` : '          '}  peak RSS ${r.maxRssMb.toFixed(0).padStart(5)} MB`,
    );
  const read = measure('read', plain);
  line('read bytes only (baseline)', read, plainMb);
  const histogram = measure('histogram', plain);
  line(`histogram (${availableParallelism()} threads)`, histogram, plainMb, read);
  line('histogram on one thread', measure('histogram-one-thread', plain), plainMb, read);
  if (process.env.BENCH_HISTOGRAM_ONLY) return;
  const targeted = measure('targeted', plain);
  line('targeted reads (analysis plan)', targeted, plainMb, read);
  const analyze = measure('analyze', plain);
  line('full analysis (analyze)', analyze, plainMb, read);
  console.log(`full analysis / histogram time: ${(analyze.seconds / histogram.seconds).toFixed(2)}x; findings: ${analyze.findings.join(', ') || 'none'}`);
  const memory = measure('memory', plain);
  line('memory (dominator tree)', memory, plainMb, read);
  console.log(`  huge pages: ${hugePagesEnvironment(['memory', plain]) ? 'asked for (glibc.malloc.hugetlb=1)' : 'not asked for (see src/huge-pages.ts)'}`);
  const p = memory.phases;
  console.log(
    `  ${memory.objects} objects (${memory.reachable} reachable), ${memory.edges} references; ` +
      `kept at the end ${memory.keptBytesPerObject.toFixed(1)} bytes per object, ` +
      `peak ${((memory.maxRssMb * 1048576) / memory.objects).toFixed(1)} bytes per object; ` +
      `phases: parse + graph ${p.graph.toFixed(2)} s, dominators ${p.dominators.toFixed(2)} s, retained + summary ${p.retainedAndSummary.toFixed(2)} ` +
      `s, suspect paths ${p.suspectPaths.toFixed(2)} s, report ${p.report.toFixed(2)} s; ` +
      `${(memory.seconds / histogram.seconds).toFixed(1)}x the histogram; ${memory.suspects} suspects`,
  );
  const at = memory.peakAt;
  console.log(
    `  peak RSS by the end of: graph ${at.graph.toFixed(0)} MB, dominators ${at.dominators.toFixed(0)} MB, ` +
      `summary ${at.summary.toFixed(0)} MB, suspect paths ${(at.paths ?? at.summary).toFixed(0)} MB`,
  );
  const gunzip = measure('gunzip', gz);
  line('gunzip only (gzip baseline)', gunzip, gzMb);
  const histogramGz = measure('histogram-gz', gz);
  line('histogram of the gzip file', histogramGz, gzMb, gunzip);
  console.log(`histogram: ${histogram.instances} instances in ${histogram.classes} classes; targeted: ${targeted.loadedObjects} objects loaded`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
