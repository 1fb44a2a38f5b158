#!/usr/bin/env node
/**
 * Thread-dump benchmark: builds a large dump (default 200k threads, 155 MB) by repeating real thread blocks
 * from the fixtures with unique names, then measures in separate processes:
 *   baseline: reading the same bytes with no parsing,
 *   analyze:  load + parse + model + rules (what `dumpsleuth analyze` does, minus printing).
 * Then the same analysis on a copy in which every thread holds its own lock addresses, so no two
 * thread bodies are alike: the parser's cache of repeated bodies never pays off there (worst case).
 * Prints MB/s and peak RSS. Run `npm run build` first (npm run bench does).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, statSync } from 'node:fs';
import { buildThreadDump } from './build-thread-dump.mjs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

async function child(mode, file) {
  const t0 = process.hrtime.bigint();
  const since = (t) => Number(process.hrtime.bigint() - t) / 1e9;
  // Garbage collection pauses on the main thread, summed (work on helper threads is not in it).
  let gcSeconds = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcSeconds += e.duration / 1000;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let extra = {};
  if (mode === 'baseline') {
    let n = 0;
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) n += chunk.length;
    extra = { bytes: n };
  } else {
    const { loadThreadInput } = await import(join(root, 'dist/input/load.js'));
    const { buildModel } = await import(join(root, 'dist/reconstruct/build-model.js'));
    const { RULES } = await import(join(root, 'dist/rules/index.js'));
    const { defaultConfig } = await import(join(root, 'dist/engine/config.js'));
    const { runRules } = await import(join(root, 'dist/engine/run-rules.js'));
    const imports = since(t0);
    let t = process.hrtime.bigint();
    const input = await loadThreadInput(file);
    const load = since(t);
    t = process.hrtime.bigint();
    const model = buildModel([input]);
    const modelSeconds = since(t);
    t = process.hrtime.bigint();
    const findings = runRules(model, RULES, defaultConfig(RULES));
    const rules = since(t);
    extra = { threads: model.inputs[0].threads, findings: findings.length, unparsed: model.inputs[0].unparsedLines, phases: { imports, load, model: modelSeconds, rules } };
  }
  const seconds = since(t0);
  // GC entries arrive after the work that caused them.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gcObserver.disconnect();
  extra.gcSeconds = gcSeconds;
  // What stays alive (the model), as opposed to the garbage that makes up the rest of the peak; after the clock.
  globalThis.gc();
  extra.liveHeapMb = process.memoryUsage().heapUsed / 1048576;
  process.stdout.write(JSON.stringify({ seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, ...extra }));
}


async function main() {
  const [, , flag, childMode, childFile] = process.argv;
  if (flag === '--child') return child(childMode, childFile);
  const threads = Number(process.env.BENCH_THREADS ?? 200000);
  const outDir = join(here, 'out');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `threads-${threads}.txt`);
  const uniqueFile = join(outDir, `threads-${threads}-unique-bodies.txt`);
  // Rebuilt every run, so the figures always come from the fixtures in this tree.
  await buildThreadDump(file, threads);
  await buildThreadDump(uniqueFile, threads, { uniqueBodies: true });
  const mb = statSync(file).size / 1048576;
  const uniqueMb = statSync(uniqueFile).size / 1048576;
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const measure = (mode, file) => {
    const results = [];
    for (let r = 0; r < runs; r++) {
      const p = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (p.status !== 0) throw new Error(p.stderr);
      results.push(JSON.parse(p.stdout));
    }
    results.sort((a, b) => a.seconds - b.seconds);
    return results[Math.floor(results.length / 2)];
  };
  const base = measure('baseline', file);
  const full = measure('analyze', file);
  const unique = measure('analyze', uniqueFile);
  const line = (name, r, size) => `${name.padEnd(34)} ${r.seconds.toFixed(2).padStart(6)} s  ${(size / r.seconds).toFixed(0).padStart(5)} MB/s  peak RSS ${r.maxRssMb.toFixed(0).padStart(5)} MB`;
  console.log(`input: ${mb.toFixed(1)} MB, ${threads} threads (${file}), median of ${runs} runs, node ${process.version}`);
  console.log(line('read bytes only (baseline)', base, mb));
  console.log(line('parse + model + rules', full, mb));
  console.log(`threads parsed: ${full.threads}, unparsed lines: ${full.unparsed}, findings: ${full.findings}, live heap after the run: ${full.liveHeapMb.toFixed(0)} MB`);
  console.log(`peak RSS / input size: ${(full.maxRssMb / mb).toFixed(2)}x; end-to-end vs read: ${(full.seconds / base.seconds).toFixed(1)}x the time`);
  console.log(phasesLine(full));
  console.log(`worst case, no two thread bodies alike: ${uniqueMb.toFixed(1)} MB (${uniqueFile})`);
  console.log(line('parse + model + rules', unique, uniqueMb));
  console.log(`threads parsed: ${unique.threads}, unparsed lines: ${unique.unparsed}, findings: ${unique.findings}; peak RSS / input size: ${(unique.maxRssMb / uniqueMb).toFixed(2)}x`);
  console.log(phasesLine(unique));
}

/** Where the median run's time went. */
function phasesLine(r) {
  const s = (x) => `${x.toFixed(2)} s`;
  return `  of which: loading modules ${s(r.phases.imports)}, reading and parsing ${s(r.phases.load)}, model ${s(r.phases.model)}, rules ${s(r.phases.rules)}; GC pauses in all ${s(r.gcSeconds)}`;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
