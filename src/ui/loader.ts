/**
 * Where the UI's data comes from: a worker thread running the analysis (so the terminal stays
 * responsive on big inputs), or, run from source where workers cannot load TypeScript, this thread.
 * No Ink here: loading starts before Ink is imported, and the two overlap.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { errorText, loadIncidentData, type UiLoadRequest } from './load-incident-data.js';
import type { UiData } from './view-data.js';

export type WorkerMessage =
  | { type: 'progress'; file: string; phase: string; bytesRead: number; totalBytes: number | null }
  | { type: 'done'; data: UiData; notes: string[] }
  | { type: 'error'; message: string; remedy: string }
  | { type: 'crash'; message: string };

/** Where the data comes from, and what it said so far (the final message is kept for late listeners). */
export interface Loader {
  on(event: 'message', f: (m: WorkerMessage) => void): unknown;
  off(event: 'message', f: (m: WorkerMessage) => void): unknown;
  terminate(): Promise<unknown>;
}

export function startLoading(request: UiLoadRequest): Loader {
  const events = new EventEmitter();
  let final: WorkerMessage | undefined;
  const emit = (m: WorkerMessage) => {
    if (m.type !== 'progress') final = m;
    events.emit('message', m);
  };
  let terminate: () => Promise<unknown> = async () => undefined;
  if (!import.meta.url.endsWith('.ts')) {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: request });
    worker.on('message', emit);
    // A worker that dies is a bug to report, not a hang or a stack trace on the screen.
    worker.on('error', (e) => emit({ type: 'crash', message: e.stack ?? String(e) }));
    terminate = () => worker.terminate();
  } else {
    setImmediate(() => {
      loadIncidentData(request, (p) => emit({ type: 'progress', file: p.file, phase: p.event.phase, bytesRead: p.event.bytesRead, totalBytes: p.event.totalBytes ?? null })).then(
        (r) => emit({ type: 'done', data: r.data, notes: r.notes }),
        (e: unknown) => {
          const user = errorText(e);
          emit(user ? { type: 'error', ...user } : { type: 'crash', message: (e as Error)?.stack ?? String(e) });
        },
      );
    });
  }
  return {
    on: (e, f) => {
      events.on(e, f);
      // Loading may end before the screen is up to listen (Ink loads meanwhile).
      if (final !== undefined) setImmediate(() => f(final!));
    },
    off: (e, f) => events.off(e, f),
    terminate,
  };
}
