#!/usr/bin/env node
/**
 * Thread-dump benchmark: builds a large dump (default 100k threads, 150+ MB) by repeating real thread
 * blocks from the fixtures with unique names, then measures in separate processes:
 *   baseline: reading the same bytes with no parsing,
 *   analyze:  load + parse + model + rules (what `dumpsleuth analyze` does, minus printing).
 * Prints MB/s and peak RSS. Run `npm run build` first (npm run bench does).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

async function child(mode, file) {
  const t0 = process.hrtime.bigint();
  let extra = {};
  if (mode === 'baseline') {
    let n = 0;
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) n += chunk.length;
    extra = { bytes: n };
  } else {
    const { loadThreadInput } = await import(join(root, 'dist/input/load.js'));
    const { buildModel } = await import(join(root, 'dist/model/build-model.js'));
    const { RULES } = await import(join(root, 'dist/rules/index.js'));
    const { defaultConfig } = await import(join(root, 'dist/engine/config.js'));
    const { runRules } = await import(join(root, 'dist/engine/run-rules.js'));
    const input = await loadThreadInput(file);
    const model = buildModel([input]);
    const findings = runRules(model, RULES, defaultConfig(RULES));
    extra = { threads: model.inputs[0].threads, findings: findings.length, unparsed: model.inputs[0].unparsedLines };
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // What stays alive (the model), as opposed to the garbage that makes up the rest of the peak; after the clock.
  globalThis.gc();
  extra.liveHeapMb = process.memoryUsage().heapUsed / 1048576;
  process.stdout.write(JSON.stringify({ seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, ...extra }));
}

async function build(file, threads) {
  // Real thread blocks (header to blank line) from fixtures taken by real JVMs.
  const sources = ['fixtures/threads/pool/dump-1.txt', 'fixtures/threads/contention/dump-1.txt', 'fixtures/threads/series/dump-1.txt'];
  const blocks = [];
  for (const s of sources) {
    const text = readFileSync(join(root, s), 'utf8');
    for (const b of text.split(/\n(?=")/)) if (b.startsWith('"') && b.includes('\tat ')) blocks.push(b.trimEnd() + '\n\n');
  }
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  await write('2026-11-30 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n');
  for (let i = 0; i < threads; i++) {
    const b = blocks[i % blocks.length];
    // Unique names and native ids, as in a real 100k-thread JVM.
    await write(b.replace(/^"([^"]*)"/, `"$1-b${i}"`).replace(/ nid=0x[0-9a-f]+/, ` nid=0x${(0x10000 + i).toString(16)}`));
  }
  await write('JNI global refs: 15, weak refs: 0\n');
  await new Promise((r) => out.end(r));
}

async function main() {
  const [, , flag, childMode, childFile] = process.argv;
  if (flag === '--child') return child(childMode, childFile);
  const threads = Number(process.env.BENCH_THREADS ?? 100000);
  const outDir = join(here, 'out');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `threads-${threads}.txt`);
  // Rebuilt every run, so the figures always come from the fixtures in this tree.
  await build(file, threads);
  const mb = statSync(file).size / 1048576;
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const measure = (mode) => {
    const results = [];
    for (let r = 0; r < runs; r++) {
      const p = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (p.status !== 0) throw new Error(p.stderr);
      results.push(JSON.parse(p.stdout));
    }
    results.sort((a, b) => a.seconds - b.seconds);
    return results[Math.floor(results.length / 2)];
  };
  const base = measure('baseline');
  const full = measure('analyze');
  const line = (name, r) => `${name.padEnd(28)} ${r.seconds.toFixed(2).padStart(6)} s  ${(mb / r.seconds).toFixed(0).padStart(5)} MB/s  peak RSS ${r.maxRssMb.toFixed(0).padStart(5)} MB`;
  console.log(`input: ${mb.toFixed(1)} MB, ${threads} threads (${file}), median of ${runs} runs, node ${process.version}`);
  console.log(line('read bytes only (baseline)', base));
  console.log(line('parse + model + rules', full));
  console.log(`threads parsed: ${full.threads}, unparsed lines: ${full.unparsed}, findings: ${full.findings}, live heap after the run: ${full.liveHeapMb.toFixed(0)} MB`);
  console.log(`peak RSS / input size: ${(full.maxRssMb / mb).toFixed(2)}x; end-to-end vs read: ${(full.seconds / base.seconds).toFixed(1)}x the time`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
