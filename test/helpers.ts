/** Shared test helpers: load fixtures and corpus files through the real input path. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadThreadInput, type LoadedThreadInput } from '../src/input/load.js';
import { buildModel } from '../src/model/build-model.js';
import type { Model } from '../src/model/model.js';
import { RULES } from '../src/rules/index.js';
import { defaultConfig } from '../src/engine/config.js';
import { runRules } from '../src/engine/run-rules.js';
import type { Finding } from '../src/model/findings.js';
import { InputError } from '../src/errors.js';

export const FIXTURES = 'fixtures/threads';
export const CORPUS = join('..', 'shared', 'corpus', 'threaddumps');
export const corpusAvailable = existsSync(CORPUS);

export async function load(path: string): Promise<LoadedThreadInput> {
  return loadThreadInput(path);
}

export async function analyse(paths: string[]): Promise<{ model: Model; findings: Finding[] }> {
  const loaded = [];
  for (const p of paths) loaded.push(await loadThreadInput(p));
  const model = buildModel(loaded);
  return { model, findings: runRules(model, RULES, defaultConfig(RULES)) };
}

export async function truth(scenario: string): Promise<any> {
  return JSON.parse(await readFile(join(FIXTURES, scenario, 'truth.json'), 'utf8'));
}

export const INCIDENTS = 'fixtures/incidents';

/**
 * Analyses an incident directory the way `analyze <dir>` does (thread dumps, heap dump, logs; other
 * files skipped), or with its thread dumps only.
 */
export async function analyseIncident(dir: string, options: { threadsOnly?: boolean } = {}): Promise<{ model: Model; findings: Finding[] }> {
  const { readdirSync } = await import('node:fs');
  const { loadAnyInput } = await import('../src/input/load-incident.js');
  const { ANALYSIS_PLAN } = await import('../src/heap/analysis-plan.js');
  const threads: LoadedThreadInput[] = [];
  const heaps = [];
  const logs = [];
  for (const f of readdirSync(dir).sort()) {
    if (f === 'truth.json' || f.endsWith('.md')) continue;
    if (options.threadsOnly && !/^dump-\d+\.txt$/.test(f)) continue;
    let loaded;
    try {
      loaded = await loadAnyInput(join(dir, f), ANALYSIS_PLAN);
    } catch (e) {
      // As `analyze <dir>` does: a file in the directory that is none of the known kinds is skipped.
      if (e instanceof InputError) continue;
      throw e;
    }
    if (loaded.kind === 'threads') threads.push(loaded.input);
    else if (loaded.kind === 'heap') heaps.push(loaded.heap);
    else logs.push(loaded.log);
  }
  const model = buildModel(threads, { heaps, logs });
  return { model, findings: runRules(model, RULES, defaultConfig(RULES)) };
}

/** Runs the CLI from source (src/cli.ts through tsx), without colour. */
export function runCli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
