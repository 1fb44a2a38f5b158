/**
 * The one analysis of an incident: the config, the plan, the inputs, their load, the model, the
 * rules. `analyze`, `batch` (in its workers and in process), the UI and the tests all run this; they
 * differ only in what they do with progress, skipped and failed files, and the result.
 */
import { basename } from 'node:path';

import { loadConfigFile, type LoadedConfig } from '../engine/config.js';
import { runRules } from '../engine/run-rules.js';
import { InputError, type UserError } from '../errors.js';
import { collectInputs, type InputPath } from '../input/collect-inputs.js';
import type { Finding } from '../model/findings.js';
import { LEFT_OUT_KEPT, type LeftOutInput, type Model } from '../model/model.js';
import { buildModel } from '../reconstruct/build-model.js';
import { RULES } from '../rules/index.js';
import { analysisPlan, type IncidentLoadHooks, loadIncidentInputs, nothingToAnalyse, type PlanLimits, skippedWhy } from './load-incident.js';

/** The limits an analysis's plan takes from its caller (the rest comes from the built-in roots and the config's counters). */

export interface AnalysisRequest {
  /** Files, one directory (an incident), or `-` for stdin. */
  readonly paths: readonly string[];
  /** `--config`; when absent, ./dumpsleuth.config.json if there is one, else the defaults. */
  readonly configPath?: string;
  readonly limits?: PlanLimits;
  /** Keeps only some of the files found (a test reading an incident's thread dumps alone). */
  readonly select?: (input: InputPath) => boolean;
  /** The caller compares the heap dumps itself (the UI's Growth screen): no note pointing to `memory --baseline`. */
  readonly heapsCompared?: boolean;
}

/** The phases after the load, told as each starts; awaited, so a screen can draw between them. */
type AnalysisPhase = 'model' | 'rules';

export interface AnalysisHooks extends IncidentLoadHooks {
  readonly onPhase?: (phase: AnalysisPhase) => void | Promise<void>;
  /** Stops the analysis at the next file or phase (its background memory work is cancelled). */
  readonly signal?: AbortSignal;
}

export type AnalysisResult =
  | { readonly outcome: 'analysed'; readonly config: LoadedConfig; readonly model: Model; readonly findings: Finding[] }
  /** No dump, and no log with anything known in it. */
  | { readonly outcome: 'nothing-to-analyse'; readonly config: LoadedConfig };

export async function analyseIncident(request: AnalysisRequest, hooks: AnalysisHooks = {}): Promise<AnalysisResult> {
  const config = await loadConfigFile(RULES, request.configPath);
  const plan = analysisPlan(config.counters, request.limits);
  // What was not read goes into the model too, so every report says it, not stderr alone.
  const leftOut = new LeftOutList();
  const recording: AnalysisHooks = {
    ...hooks,
    onSkipped: (path, e) => {
      leftOut.add(path, skippedWhy(path, e), false);
      hooks.onSkipped?.(path, e);
    },
    ...(hooks.onFailed !== undefined
      ? {
          onFailed: (path: string, e: UserError) => {
            leftOut.add(path, skippedWhy(path, e), true);
            hooks.onFailed!(path, e);
          },
        }
      : {}),
  };
  const found = await collectInputs([...request.paths], (path, why) =>
    recording.onSkipped!(path, new InputError(why, 'give each file once, inside the incident')),
  );
  const inputs = request.select === undefined ? found : found.filter(request.select);
  const loaded = await loadIncidentInputs(inputs, plan, recording, request.heapsCompared === true);
  if (nothingToAnalyse(loaded)) return { outcome: 'nothing-to-analyse', config };
  await phase(hooks, 'model');
  const model = buildModel(loaded.threads, {
    heaps: loaded.heaps,
    logs: loaded.logs,
    userCounters: config.counters,
    notes: loaded.notes,
    ...leftOut.taken(),
  });
  await phase(hooks, 'rules');
  const findings = runRules(model, RULES, config.rules);
  return { outcome: 'analysed', config, model, findings };
}

/** The files left out of an analysis, the first LEFT_OUT_KEPT by name and the rest counted. */
class LeftOutList {
  private readonly files: LeftOutInput[] = [];
  private more = 0;

  add(path: string, why: string, given: boolean): void {
    if (this.files.length >= LEFT_OUT_KEPT) {
      this.more++;
      return;
    }
    // A file named like a dump that is not one (a PNG called heap.hprof) is the incident's evidence
    // missing, as a file given by name is; a README beside the dumps is not.
    this.files.push({ path, why, evidence: given || NAMED_LIKE_A_DUMP.test(basename(path)) });
  }

  taken(): { leftOut: LeftOutInput[]; leftOutMore: number } {
    return { leftOut: this.files, leftOutMore: this.more };
  }
}

/** File names people give heap dumps and thread dumps. */
const NAMED_LIKE_A_DUMP = /\.(hprof|phd|tdump)(\.gz)?$|heap.?dump|thread.?dump|jstack|javacore/i;

async function phase(hooks: AnalysisHooks, name: AnalysisPhase): Promise<void> {
  hooks.signal?.throwIfAborted();
  await hooks.onPhase?.(name);
}

/** The model of an analysis that read no file: the UI given only V8 snapshots to compare has nothing else to show. */
export function emptyModel(): Model {
  return buildModel([], {});
}
