/** Shared test helpers: load fixtures and corpus files through the real input path. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { loadThreadInput, type LoadedThreadInput } from '../src/input/load.js';
import { buildModel } from '../src/model/build-model.js';
import type { Model } from '../src/model/model.js';
import { RULES } from '../src/rules/index.js';
import { defaultConfig } from '../src/engine/config.js';
import { runRules } from '../src/engine/run-rules.js';
import type { Finding } from '../src/model/findings.js';

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
  const { collectInputs } = await import('../src/input/collect-inputs.js');
  const { analysisPlan, loadIncidentInputs } = await import('../src/input/load-incident.js');
  const files = (await collectInputs([dir])).filter((i) => !options.threadsOnly || /^dump-\d+\.txt$/.test(basename(i.path)));
  const { threads, heaps, logs } = await loadIncidentInputs(files, analysisPlan([]));
  const model = buildModel(threads, { heaps, logs });
  return { model, findings: runRules(model, RULES, defaultConfig(RULES)) };
}

/** Runs the CLI from source (src/cli.ts through tsx), without colour. */
export function runCli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
