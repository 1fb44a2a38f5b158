#!/usr/bin/env node
/**
 * Thread-dump benchmark: builds a large dump (default 200k threads, 155 MB) by repeating real thread blocks
 * from the fixtures with unique names, then measures in separate processes:
 *   baseline: reading the same bytes with no parsing,
 *   analyze:  load + parse + model + rules (what `dumpsleuth analyze` does, minus printing).
 * Then the same analysis on a copy in which every thread holds its own lock addresses, so no two
 * thread bodies are alike: the parser's cache of repeated bodies never pays off there (worst case).
 * Prints MB/s and peak RSS. Run `npm run build` first (npm run bench does).
 * BENCH_BEFORE=<dir> also measures the build in <dir>/dist (another checkout, built), interleaved
 * with this one's runs, so a change is compared with what it replaced on the same machine, same minute.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { buildDeepSeries, buildThreadDump } from './build-thread-dump.mjs';
import { importFirst } from './import-build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** The model builder moved from dist/model to dist/reconstruct; an older build has it at the old path. */
async function importBuildModel(distRoot) {
  try {
    return await import(join(distRoot, 'dist/reconstruct/build-model.js'));
  } catch {
    return await import(join(distRoot, 'dist/model/build-model.js'));
  }
}

async function child(mode, file, distRoot = root) {
  const t0 = process.hrtime.bigint();
  const since = (t) => Number(process.hrtime.bigint() - t) / 1e9;
  // Garbage collection pauses on the main thread, summed (work on helper threads is not in it).
  let gcSeconds = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcSeconds += e.duration / 1000;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let extra;
  if (mode === 'baseline') {
    let n = 0;
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) n += chunk.length;
    extra = { bytes: n };
  } else if (mode === 'lines') {
    // The least any reader of a text dump does: decode the bytes and split them into lines.
    let lines = 0;
    let rest = '';
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop();
      lines += parts.length;
    }
    extra = { lines };
  } else {
    const { loadThreadInput } = await importFirst(distRoot, 'dist/analysis/load-threads.js', 'dist/input/load.js');
    const { buildModel } = await importBuildModel(distRoot);
    const { RULES } = await import(join(distRoot, 'dist/rules/index.js'));
    const { defaultConfig } = await import(join(distRoot, 'dist/engine/config.js'));
    const { runRules } = await import(join(distRoot, 'dist/engine/run-rules.js'));
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
    extra = {
      threads: model.inputs[0].threads,
      findings: findings.length,
      unparsed: model.inputs[0].unparsedLines,
      phases: { imports, load, model: modelSeconds, rules },
    };
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
  const [, , flag, childMode, childFile, childRoot] = process.argv;
  if (flag === '--child') return child(childMode, childFile, childRoot);
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
  const before = process.env.BENCH_BEFORE;
  const once = (mode, file, distRoot) => {
    if (mode === 'cli') return endToEnd(file, distRoot ?? root, outDir);
    const p = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode, file, distRoot ?? root], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (p.status !== 0) throw new Error(p.stderr);
    return JSON.parse(p.stdout);
  };
  const median = (results) => results.sort((a, b) => a.seconds - b.seconds)[Math.floor(results.length / 2)];
  // This build and the one before run in turns, so a slow minute of the machine hits both.
  const measure = (mode, file) => {
    const now = [];
    const then = [];
    for (let r = 0; r < runs; r++) {
      now.push(once(mode, file));
      if (before !== undefined && (mode === 'analyze' || mode === 'cli')) then.push(once(mode, file, before));
    }
    return { now: median(now), then: then.length > 0 ? median(then) : null };
  };
  const base = measure('baseline', file).now;
  const lines = measure('lines', file).now;
  const fullBoth = measure('analyze', file);
  const uniqueBoth = measure('analyze', uniqueFile);
  const full = fullBoth.now;
  const unique = uniqueBoth.now;
  const line = (name, r, size) =>
    `${name.padEnd(34)} ${r.seconds.toFixed(2).padStart(6)} s  ${(size / r.seconds).toFixed(0).padStart(5)} MB/s  peak RSS ` +
    `${r.maxRssMb.toFixed(0).padStart(5)} MB`;
  console.log(`input: ${mb.toFixed(1)} MB, ${threads} threads (${relative(root, file)}), median of ${runs} runs, node ${process.version}`);
  console.log(line('read bytes only (baseline)', base, mb));
  console.log(line('read, decode, split into lines', lines, mb));
  console.log(line('parse + model + rules', full, mb));
  console.log(
    `threads parsed: ${full.threads}, unparsed lines: ${full.unparsed}, findings: ${full.findings}, live heap after the run: ${full.liveHeapMb.toFixed(0)} MB`,
  );
  console.log(
    `peak RSS / input size: ${(full.maxRssMb / mb).toFixed(2)}x; end-to-end vs read: ${(full.seconds / base.seconds).toFixed(1)}x the time, ` +
      `vs read and split into lines: ${(full.seconds / lines.seconds).toFixed(1)}x`,
  );
  console.log(phasesLine(full));
  console.log(`worst case, no two thread bodies alike: ${uniqueMb.toFixed(1)} MB (${relative(root, uniqueFile)})`);
  console.log(line('parse + model + rules', unique, uniqueMb));
  console.log(
    `threads parsed: ${unique.threads}, unparsed lines: ${unique.unparsed}, findings: ${unique.findings}; peak RSS / input size: ` +
      `${(unique.maxRssMb / uniqueMb).toFixed(2)}x`,
  );
  console.log(phasesLine(unique));
  const cliBoth = measure('cli', file);
  console.log(line('analyze -f json, end to end', cliBoth.now, mb), ` (${(cliBoth.now.maxRssMb / mb).toFixed(2)}x the input)`);

  // The shape of most big dumps handed over: fewer threads, deep framework stacks, several dumps in one file.
  const deepFile = join(outDir, 'threads-deep-series.txt');
  const deep = await buildDeepSeries(deepFile);
  const deepMb = statSync(deepFile).size / 1048576;
  const deepLines = measure('lines', deepFile).now;
  const deepBoth = measure('analyze', deepFile);
  const deepCli = measure('cli', deepFile);
  console.log(
    `deep stacks: ${deepMb.toFixed(1)} MB, ${deep.threads} threads in a series of dumps (${relative(root, deepFile)}), ` +
      `real blocks of >= 30 frames: ${deep.blocks}`,
  );
  console.log(line('read, decode, split into lines', deepLines, deepMb));
  console.log(line('parse + model + rules', deepBoth.now, deepMb));
  console.log(phasesLine(deepBoth.now));
  console.log(line('analyze -f json, end to end', deepCli.now, deepMb), ` (${(deepCli.now.maxRssMb / deepMb).toFixed(2)}x the input)`);
  console.log(
    `  end to end vs read and split into lines: ${(deepCli.now.seconds / deepLines.seconds).toFixed(1)}x the time; threads parsed: ${deepBoth.now.threads}, ` +
      `unparsed lines: ${deepBoth.now.unparsed}, findings: ${deepBoth.now.findings}`,
  );
  if (before !== undefined) {
    console.log(`the build before (${before}), same runs, interleaved:`);
    console.log(line('analyze -f json, end to end', cliBoth.then, mb));
    console.log(line('deep: parse + model + rules', deepBoth.then, deepMb));
    console.log(line('deep: analyze -f json, end to end', deepCli.then, deepMb));
    console.log(line('parse + model + rules', fullBoth.then, mb));
    console.log(phasesLine(fullBoth.then));
    console.log(line('worst case: parse + model + rules', uniqueBoth.then, uniqueMb));
    console.log(phasesLine(uniqueBoth.then));
  }
}

/**
 * `dumpsleuth analyze -f json -o <file>` as a user runs it: a process of its own, start to exit
 * (wall time from here; peak RSS from the preloaded report-rss.mjs).
 */
function endToEnd(file, distRoot, outDir) {
  const rssFile = join(outDir, 'cli-rss.json');
  const report = join(outDir, 'cli-report.json');
  const t0 = process.hrtime.bigint();
  const p = spawnSync(
    process.execPath,
    ['--import', join(here, 'report-rss.mjs'), join(distRoot, 'dist/cli.js'), 'analyze', '--fail-on', 'never', '-f', 'json', '-o', report, file],
    { encoding: 'utf8', env: { ...process.env, DUMPSLEUTH_RSS_FILE: rssFile } },
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (p.status !== 0) throw new Error(`dumpsleuth analyze exited ${p.status}: ${p.stderr}`);
  const { rssMb } = JSON.parse(readFileSync(rssFile, 'utf8'));
  rmSync(report, { force: true });
  return { seconds, maxRssMb: rssMb };
}

/** Where the median run's time went. */
function phasesLine(r) {
  const s = (x) => `${x.toFixed(2)} s`;
  return (
    `  of which: loading modules ${s(r.phases.imports)}, reading and parsing ${s(r.phases.load)}, model ${s(r.phases.model)}, rules ` +
    `${s(r.phases.rules)}; GC pauses in all ${s(r.gcSeconds)}`
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
