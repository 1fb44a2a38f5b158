#!/usr/bin/env node
/**
 * UI benchmark:
 *   first frame: `dumpsleuth ui <incident>` started in a pseudo-terminal, until its first screen of results shows
 *                (Node start, Ink load, loading, first render);
 *   big dump:    the same on a 155 MB dump of 200,000 threads, beside `dumpsleuth analyze` of the same
 *                file in the same run (the UI's results should come within 1.3x of analyze's);
 *   quit:        `q` pressed while that dump is still loading, until the process has exited;
 *   key to frame: with a 35k-thread dump loaded, the time from a key press (j, G, g, a search letter)
 *                to the next frame, rendered in process through ink-testing-library.
 * Needs a build (npm run build) and util-linux `script` for the terminal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildThreadDump } from './build-thread-dump.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/**
 * The UI in a pseudo-terminal of its own (util-linux `script`), its output read as it comes: nothing
 * polls the screen. (Polling tmux every 10 ms spawned a hundred processes a second on this 2-core
 * machine and slowed the UI it measured by 0.4 s.) Resolves with the seconds from the start to the
 * first frame and to the results; `quitAfter` presses q when that text first shows and adds the
 * milliseconds from the key to the process's exit.
 */
function inTerminal(file, { timeout = 60, quitAfter } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - t0) / 1e9;
    const cmd = `stty cols 130 rows 40; exec node ${join(root, 'dist/cli.js')} ui ${file}`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TERM: 'xterm-256color' } });
    let text = '';
    let first;
    let results;
    let quitAt;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no results within ${timeout} s`));
    }, timeout * 1000);
    child.stdout.on('data', (chunk) => {
      // Escape sequences out, so the words are found whatever colours surround them.
      // eslint-disable-next-line no-control-regex -- the terminal's escape sequences are what is removed
      text += chunk.toString('utf8').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      if (first === undefined && /dumpsleuth|1 Overview/.test(text)) first = since();
      if (quitAfter !== undefined && quitAt === undefined && quitAfter.test(text)) {
        if (/1 Overview/.test(text)) reject(new Error('loaded before q could be pressed'));
        quitAt = process.hrtime.bigint();
        child.stdin.write('q');
      } else if (quitAfter === undefined && results === undefined && /1 Overview/.test(text)) {
        results = since();
        child.stdin.write('q');
      }
      if (text.length > 1 << 20) text = text.slice(-4096);
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (quitAfter !== undefined) resolve({ first, quitMs: quitAt === undefined ? NaN : Number(process.hrtime.bigint() - quitAt) / 1e6 });
      else if (results === undefined) reject(new Error('the UI exited before showing results'));
      else resolve({ first, results });
    });
  });
}

async function firstFrame(incident, timeout = 60) {
  return inTerminal(incident, { timeout });
}

async function keyToFrame(threads) {
  const out = join(here, 'out');
  mkdirSync(out, { recursive: true });
  const file = join(out, `ui-threads-${threads}.txt`);
  await buildThreadDump(file, threads);
  const React = await import('react');
  const { render } = await import('ink-testing-library');
  const chalk = (await import('chalk')).default;
  chalk.level = 0;
  const { loadIncidentData } = await import(join(root, 'dist/ui/load-incident-data.js'));
  const { App } = await import(join(root, 'dist/ui/components/App.js'));
  const { data } = await loadIncidentData({ paths: [file], memory: 'never' }, () => {});
  const ui = render(React.createElement(App, { data }));
  const tick = () => new Promise((r) => setImmediate(r));
  await tick();
  ui.stdin.write('3'); // the Threads screen: one row per thread
  await new Promise((r) => setTimeout(r, 200));
  const times = [];
  const keys = [...'jjjjjjjjjjkkkkkGgGgjjjjjjjjjjkkkkkkkkk'];
  for (const k of keys) {
    const before = ui.frames.length;
    const t0 = process.hrtime.bigint();
    ui.stdin.write(k);
    while (ui.frames.length === before) await tick();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ui.unmount();
  times.sort((a, b) => a - b);
  return {
    rows: data.screens.find((s) => s.id === 'threads').rows.length,
    median: times[Math.floor(times.length / 2)],
    p95: times[Math.floor(times.length * 0.95)],
    max: times[times.length - 1],
  };
}

const incident = join(root, 'fixtures/incidents/shutdown-ordering');
const runs = [await firstFrame(incident), await firstFrame(incident), await firstFrame(incident)];
const median = (xs) => xs.sort((a, b) => a - b)[1];
console.log(
  `dumpsleuth ui fixtures/incidents/shutdown-ordering, cold start, median of 3: first frame ${median(runs.map((r) => r.first)).toFixed(2)} s, ` +
    `results on screen ${median(runs.map((r) => r.results)).toFixed(2)} s`,
);
/** Seconds `dumpsleuth analyze` takes on the file, whole process. */
function analyzeSeconds(file) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'analyze', '--no-progress', '--fail-on', 'never', file], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Milliseconds from `q`, pressed while the file is still loading, to the process's exit. */
async function quitWhileLoading(file) {
  return (await inTerminal(file, { quitAfter: /reading|reconstructing|running the rules|laying out/ })).quitMs;
}

const bigFile = join(here, 'out', 'threads-200000.txt');
mkdirSync(join(here, 'out'), { recursive: true });
await buildThreadDump(bigFile, 200_000);
const analyzeRuns = [analyzeSeconds(bigFile), analyzeSeconds(bigFile), analyzeSeconds(bigFile)];
const uiRuns = [(await firstFrame(bigFile, 120)).results, (await firstFrame(bigFile, 120)).results, (await firstFrame(bigFile, 120)).results];
const a = median(analyzeRuns);
const u = median(uiRuns);
console.log(`200,000 threads (155 MB), median of 3: analyze ${a.toFixed(2)} s, ui results on screen ${u.toFixed(2)} s (${(u / a).toFixed(2)}x)`);
// Where the UI's time goes: its loading alone (no Ink), and importing Ink, each in a process of its own.
const childSeconds = (code) => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, bigFile], { cwd: root, encoding: 'utf8' });
  return Number(r.stdout.trim());
};
const loadAlone = median(
  [0, 1, 2].map(() =>
    childSeconds(
      `const t = performance.now(); const { loadIncidentData } = await import('./dist/ui/load-incident-data.js'); await loadIncidentData({ paths: ` +
        `[process.argv[1]], memory: 'auto' }, () => {}); console.log((performance.now() - t) / 1000);`,
    ),
  ),
);
const inkPackages = median(
  [0, 1, 2].map(() => childSeconds(`const t = performance.now(); await import('ink'); await import('react'); console.log((performance.now() - t) / 1000);`)),
);
const inkBundle = median(
  [0, 1, 2].map(() => childSeconds(`const t = performance.now(); await import('./dist/ui/screen.bundle.js'); console.log((performance.now() - t) / 1000);`)),
);
console.log(
  `  of which (each alone, median of 3): the UI's loading and screens without Ink ${loadAlone.toFixed(2)} s; ` +
    `importing the screen bundle (Ink, React, the components) ${inkBundle.toFixed(2)} s, where Ink and React as packages take ${inkPackages.toFixed(2)} s`,
);
const quits = [await quitWhileLoading(bigFile), await quitWhileLoading(bigFile), await quitWhileLoading(bigFile)];
console.log(`q while loading that dump: exited after ${median(quits).toFixed(0)} ms (median of 3)`);
const k = await keyToFrame(35_000);
console.log(
  `key to frame with ${k.rows} thread rows (${'40'} key presses): median ${k.median.toFixed(1)} ms, p95 ${k.p95.toFixed(1)} ms, max ${k.max.toFixed(1)} ms`,
);
process.exit(0);
