#!/usr/bin/env node
/**
 * Incident benchmark: the whole `dumpsleuth analyze <incident dir>` on a bundled incident (three
 * jstack dumps and one HPROF of a real JVM), as a command from a cold start (what a person waits
 * for) and in-process per step. Prints seconds, input sizes and peak RSS.
 *
 *   node bench/incident-bench.mjs [incident dir]     (default fixtures/incidents/http-pool-starvation)
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { importFirst } from './import-build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

async function inProcess(dir) {
  const { loadAnyInput } = await importFirst(root, 'dist/analysis/load-incident.js', 'dist/input/load-incident.js');
  const { ANALYSIS_PLAN } = await import(join(root, 'dist/heap/analysis-plan.js'));
  const { buildModel } = await import(join(root, 'dist/reconstruct/build-model.js'));
  const { RULES } = await import(join(root, 'dist/rules/index.js'));
  const { defaultConfig } = await import(join(root, 'dist/engine/config.js'));
  const { runRules } = await import(join(root, 'dist/engine/run-rules.js'));
  const t = () => Number(process.hrtime.bigint()) / 1e9;
  const t0 = t();
  const threads = [];
  const heaps = [];
  const logs = [];
  let tHeap = 0;
  let tThreads = 0;
  for (const f of readdirSync(dir).sort()) {
    if (f === 'truth.json') continue;
    const s = t();
    const l = await loadAnyInput(join(dir, f), ANALYSIS_PLAN);
    if (l.kind === 'heap') {
      heaps.push(l.heap);
      tHeap += t() - s;
    } else {
      if (l.kind === 'threads') threads.push(l.input);
      else logs.push(l.log);
      tThreads += t() - s;
    }
  }
  const t1 = t();
  const model = buildModel(threads, { heaps, logs });
  const t2 = t();
  const findings = runRules(model, RULES, defaultConfig(RULES));
  const t3 = t();
  return {
    total: t3 - t0,
    heap: tHeap,
    threadsAndLogs: tThreads,
    model: t2 - t1,
    rules: t3 - t2,
    findings: findings.map((f) => f.id),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function main() {
  if (process.argv[2] === '--child') {
    process.stdout.write(JSON.stringify(await inProcess(process.argv[3])));
    return;
  }
  const dir = process.argv[2] ?? join(root, 'fixtures/incidents/http-pool-starvation');
  const files = readdirSync(dir).filter((f) => f !== 'truth.json');
  const sizes = files.map((f) => {
    const p = join(dir, f);
    const onDisk = statSync(p).size;
    const raw = f.endsWith('.gz') ? gunzipSync(readFileSync(p)).length : onDisk;
    return `${f} ${(raw / 1048576).toFixed(1)} MB${f.endsWith('.gz') ? ` (${(onDisk / 1048576).toFixed(1)} MB gzip)` : ''}`;
  });
  console.log(`incident: ${dir}\n  ${sizes.join('\n  ')}\nnode ${process.version}, median of 3 runs`);
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    const p = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'analyze', '--format', 'json', '--fail-on', 'never', '--no-progress', dir], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (p.status !== 0) throw new Error(p.stderr);
    runs.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  runs.sort((a, b) => a - b);
  console.log(`dumpsleuth analyze (command, cold start)   ${runs[1].toFixed(2)} s`);
  const inner = [];
  for (let i = 0; i < 3; i++) {
    const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dir], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(p.stderr);
    inner.push(JSON.parse(p.stdout));
  }
  inner.sort((a, b) => a.total - b.total);
  const m = inner[1];
  console.log(
    `in process: total ${m.total.toFixed(2)} s = heap ${m.heap.toFixed(2)} s + thread dumps ${m.threadsAndLogs.toFixed(2)} s + model ` +
      `${m.model.toFixed(2)} s + rules ${m.rules.toFixed(3)} s; peak RSS ${m.maxRssMb.toFixed(0)} MB`,
  );
  console.log(`findings: ${m.findings.join(', ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
