/**
 * Everything `ui` shows, computed from the paths: the same loading, model and rules as `analyze`,
 * then the UI's screens, each phase announced to the progress screen.
 */
import { loadConfigFile } from '../engine/config.js';
import { configNote } from '../report/report.js';
import { runRules } from '../engine/run-rules.js';
import { InputError, UserError } from '../errors.js';
import type { ProgressEvent } from '../input/open.js';
import { analysisPlan, loadIncidentInputs, nothingToAnalyse, skippedNote } from '../input/load-incident.js';
import { buildModel } from '../reconstruct/build-model.js';
import { RULES } from '../rules/index.js';
import { collectInputs } from '../input/collect-inputs.js';
import type { MemoryChoice } from '../input/heap-memory-work.js';
import { buildUiData } from './build-view.js';
import type { UiData } from './view-data.js';

export interface LoadProgress {
  readonly file: string;
  readonly event: ProgressEvent;
}

/** What the UI is asked to load: plain data, so it crosses to the worker thread as it is. */
export interface UiLoadRequest {
  readonly paths: readonly string[];
  readonly config?: string;
  readonly memory: MemoryChoice;
}

export async function loadIncidentData(request: UiLoadRequest, onProgress: (p: LoadProgress) => void): Promise<{ data: UiData; notes: string[] }> {
  const { paths } = request;
  const { rules: config, counters: counterSpecs, source: configSource } = await loadConfigFile(RULES, request.config);
  const notes: string[] = configSource?.chosen === 'working-directory' ? [configNote(configSource)] : [];
  // The Memory screen shows the top of the dominator tree with each node's path from a GC root.
  const plan = analysisPlan(counterSpecs, { memory: request.memory, retainerTree: true });
  const { threads, heaps, logs } = await loadIncidentInputs(await collectInputs([...paths]), plan, {
    onProgress: (file, event) => onProgress({ file, event }),
    onSkipped: (path, e) => notes.push(skippedNote(path, e)),
  });
  if (nothingToAnalyse({ threads, heaps, logs })) throw new InputError('no thread dump or heap dump found in the given paths', 'pass jstack output, a heap dump, or a directory holding them');
  const title = paths.length === 1 ? paths[0]! : `${paths.length} paths`;
  // Each phase is named, and starts on a turn of the event loop of its own: the screen shows it, and keys are read.
  const phase = async (name: string) => {
    onProgress({ file: title, event: { phase: name, bytesRead: 0 } });
    await new Promise((r) => setImmediate(r));
  };
  await phase('model');
  const model = buildModel(threads, { heaps, logs, userCounters: counterSpecs });
  await phase('rules');
  const findings = runRules(model, RULES, config);
  await phase('screens');
  return { data: buildUiData(model, findings, title), notes };
}

export function errorText(e: unknown): { message: string; remedy: string } | undefined {
  return e instanceof UserError ? { message: e.message, remedy: e.remedy } : undefined;
}
