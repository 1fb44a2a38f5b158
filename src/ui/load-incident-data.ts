/**
 * Everything `ui` shows, computed from the paths: when two heap dumps or more are given by name, what
 * grew between them (analysis/memory-growth.ts, as `memory --baseline` computes it); then the one
 * analysis (analysis/analyse.ts) and the UI's screens, each phase announced to the progress screen.
 */
import { analyseIncident, type AnalysisResult, emptyModel } from '../analysis/analyse.js';
import { type PlanLimits, skippedNote } from '../analysis/load-incident.js';
import { compareHeaps, heapDumpsAmong, ONE_PROGRAM_REMEDY } from '../analysis/memory-growth.js';
import { InputError, UserError } from '../errors.js';
import type { ProgressEvent } from '../model/progress.js';
import { configNote } from '../report/report.js';
import { buildUiData } from './build-view.js';
import type { GrowthOutcome } from './growth-screen.js';
import type { UiData } from './view-data.js';

export interface LoadProgress {
  readonly file: string;
  readonly event: ProgressEvent;
}

/** What the UI is asked to load: plain data, so it crosses to the worker thread as it is. Its limits are the plan's own. */
export interface UiLoadRequest extends Pick<PlanLimits, 'maxMemoryBytes' | 'maxGunzipBytes'> {
  readonly paths: readonly string[];
  readonly config?: string;
  readonly memory: NonNullable<PlanLimits['memory']>;
}

export async function loadIncidentData(
  request: UiLoadRequest,
  onProgress: (p: LoadProgress) => void,
  signal?: AbortSignal,
): Promise<{ data: UiData; notes: string[] }> {
  const { paths } = request;
  const notes: string[] = [];
  const title = paths.length === 1 ? paths[0]! : `${paths.length} paths`;
  // Each phase is named, and starts on a turn of the event loop of its own: the screen shows it, and keys are read.
  const phase = async (name: string) => {
    onProgress({ file: title, event: { phase: name, bytesRead: 0 } });
    await new Promise((r) => setImmediate(r));
  };
  const growth = await growthOf(request, onProgress, phase, signal);
  // V8 snapshots have no Java objects for the analysis: compared, they are the Growth screen's alone.
  const v8 = new Set(growth?.v8 ?? []);
  const incident = paths.filter((p) => !v8.has(p));
  const result: AnalysisResult | undefined =
    incident.length === 0
      ? undefined
      : await analyseIncident(
          // The Memory screen shows the top of the dominator tree with each node's path from a GC root.
          {
            paths: incident,
            ...(growth !== undefined ? { heapsCompared: true } : {}),
            ...(request.config !== undefined ? { configPath: request.config } : {}),
            limits: {
              memory: request.memory,
              retainerTree: true,
              ...(request.maxMemoryBytes !== undefined ? { maxMemoryBytes: request.maxMemoryBytes } : {}),
              ...(request.maxGunzipBytes !== undefined ? { maxGunzipBytes: request.maxGunzipBytes } : {}),
            },
          },
          {
            onProgress: (file, event) => onProgress({ file, event }),
            onSkipped: (path, e) => notes.push(skippedNote(path, e)),
            onPhase: phase,
            ...(signal !== undefined ? { signal } : {}),
          },
        );
  if (result?.outcome === 'nothing-to-analyse')
    throw new InputError('no thread dump or heap dump found in the given paths', 'pass jstack output, a heap dump, or a directory holding them');
  const source = result?.config.source;
  if (source?.chosen === 'working-directory') notes.unshift(configNote(source));
  await phase('screens');
  // Nothing but V8 snapshots: no model, the Growth screen alone has something to show.
  const { model, findings } = result ?? { model: emptyModel(), findings: [] };
  return { data: buildUiData(model, findings, title, growth?.outcome), notes };
}

/**
 * What grew between the heap dumps given by name, when there are two or more (oldest first, as given);
 * a refusal (two programs, two formats, a dump that does not fit) is what the Growth screen says.
 */
async function growthOf(
  request: UiLoadRequest,
  onProgress: (p: LoadProgress) => void,
  phase: (name: string) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<{ outcome: GrowthOutcome; v8: string[] } | undefined> {
  if (request.memory === 'never') return undefined;
  const heaps = await heapDumpsAmong(request.paths, request.maxGunzipBytes);
  if (heaps.length < 2) return undefined;
  const paths = heaps.map((h) => h.path);
  const v8 = heaps.filter((h) => h.kind === 'v8-heapsnapshot').map((h) => h.path);
  await phase('growth');
  signal?.throwIfAborted();
  try {
    const reading = {
      ...(request.maxMemoryBytes !== undefined ? { maxMemoryBytes: request.maxMemoryBytes } : {}),
      ...(request.maxGunzipBytes !== undefined ? { maxGunzipBytes: request.maxGunzipBytes } : {}),
    };
    const { growth, warnings } = await compareHeaps(paths, reading, {
      update: (label, event) => onProgress({ file: label, event: { ...event, phase: 'growth' } }),
    });
    return { outcome: { kind: 'compared', growth, warnings }, v8 };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    // The command's remedy names the command; here the same advice is for `ui`.
    const remedy = e.remedy === ONE_PROGRAM_REMEDY ? 'give heap dumps of one program, older first: dumpsleuth ui <older> <newer>' : e.remedy;
    return { outcome: { kind: 'refused', paths, message: e.message, remedy }, v8 };
  }
}

export function errorText(e: unknown): { message: string; remedy: string } | undefined {
  return e instanceof UserError ? { message: e.message, remedy: e.remedy } : undefined;
}
