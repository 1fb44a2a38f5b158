/**
 * Everything `ui` shows, computed from the paths: the one analysis (analysis/analyse.ts), then the
 * UI's screens, each phase announced to the progress screen.
 */
import { analyseIncident } from '../analysis/analyse.js';
import { type PlanLimits, skippedNote } from '../analysis/load-incident.js';
import { InputError, UserError } from '../errors.js';
import type { ProgressEvent } from '../model/progress.js';
import { configNote } from '../report/report.js';
import { buildUiData } from './build-view.js';
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
  const result = await analyseIncident(
    // The Memory screen shows the top of the dominator tree with each node's path from a GC root.
    {
      paths,
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
  if (result.outcome === 'nothing-to-analyse')
    throw new InputError('no thread dump or heap dump found in the given paths', 'pass jstack output, a heap dump, or a directory holding them');
  const source = result.config.source;
  if (source?.chosen === 'working-directory') notes.unshift(configNote(source));
  await phase('screens');
  return { data: buildUiData(result.model, result.findings, title), notes };
}

export function errorText(e: unknown): { message: string; remedy: string } | undefined {
  return e instanceof UserError ? { message: e.message, remedy: e.remedy } : undefined;
}
