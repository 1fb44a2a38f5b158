/**
 * Everything `ui` shows, computed from the paths: the same loading, model and rules as `analyze`,
 * then the UI's screens. Runs in a worker thread so the terminal stays responsive on big inputs.
 */
import { loadConfig, loadCounterSpecs } from '../engine/config.js';
import { runRules } from '../engine/run-rules.js';
import { InputError, UserError } from '../errors.js';
import { ANALYSIS_PLAN } from '../heap/analysis-plan.js';
import type { ProgressEvent } from '../input/open.js';
import { loadAnyInput, type LoadedInput } from '../input/load-incident.js';
import type { LoadedThreadInput } from '../input/load.js';
import { buildModel } from '../model/build-model.js';
import { userCounterRoots } from '../model/reconstruct/user-counters.js';
import { RULES } from '../rules/index.js';
import { collectInputs } from '../commands/collect-inputs.js';
import { buildUiData } from './build-view.js';
import type { UiData } from './view-data.js';

export interface LoadProgress {
  readonly file: string;
  readonly event: ProgressEvent;
}

export async function loadIncidentData(paths: readonly string[], configPath: string | undefined, onProgress: (p: LoadProgress) => void): Promise<{ data: UiData; notes: string[] }> {
  const config = await loadConfig(RULES, configPath);
  const counterSpecs = await loadCounterSpecs(configPath);
  const plan = { ...ANALYSIS_PLAN, roots: [...ANALYSIS_PLAN.roots, ...userCounterRoots(counterSpecs)] };
  const threads: LoadedThreadInput[] = [];
  const heaps: Array<Extract<LoadedInput, { kind: 'heap' }>['heap']> = [];
  const logs: Array<Extract<LoadedInput, { kind: 'log' }>['log']> = [];
  const notes: string[] = [];
  for (const input of await collectInputs([...paths])) {
    try {
      const loaded = await loadAnyInput(input.path, plan, (event) => onProgress({ file: input.path, event }));
      if (loaded.kind === 'threads') threads.push(loaded.input);
      else if (loaded.kind === 'heap') heaps.push(loaded.heap);
      else logs.push(loaded.log);
    } catch (e) {
      if (!(e instanceof InputError) || !input.fromDirectory) throw e;
      notes.push(`skipped ${input.path}: ${e.message}`);
    }
  }
  if (threads.length === 0 && heaps.length === 0) throw new InputError('no thread dump or heap dump found in the given paths', 'pass jstack output, a heap dump, or a directory holding them');
  const model = buildModel(threads, { heaps, logs, userCounters: counterSpecs });
  const findings = runRules(model, RULES, config);
  return { data: buildUiData(model, findings, paths.length === 1 ? paths[0]! : `${paths.length} paths`), notes };
}

export function errorText(e: unknown): { message: string; remedy: string } | undefined {
  return e instanceof UserError ? { message: e.message, remedy: e.remedy } : undefined;
}
