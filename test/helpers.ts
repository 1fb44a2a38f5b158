/** Shared test helpers: load fixtures and corpus files through the real input path. */
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
