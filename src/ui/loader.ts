/**
 * Where the UI's data comes from: the analysis, run on this thread beside the screen. Reading and
 * parsing give the event loop a turn between chunks, and each later phase (the model, the rules,
 * the screens) starts on a turn of its own, so the progress screen keeps drawing and `q` keeps
 * working. (A worker thread kept the screen free for longer, but copying a big dump's rows back
 * to this thread cost more than the whole analysis: bench/ui-bench.mjs shows the UI's time.)
 * No Ink here: loading starts before Ink is imported, and the two overlap.
 */
import { EventEmitter } from 'node:events';

import { errorText, loadIncidentData, type UiLoadRequest } from './load-incident-data.js';
import type { UiData } from './view-data.js';

export type LoadMessage =
  | { type: 'progress'; file: string; phase: string; bytesRead: number; totalBytes: number | null }
  | { type: 'done'; data: UiData; notes: string[] }
  | { type: 'error'; message: string; remedy: string }
  | { type: 'crash'; message: string };

/** Where the data comes from, and what it said so far (the final message is kept for late listeners). */
export interface Loader {
  on(event: 'message', f: (m: LoadMessage) => void): unknown;
  off(event: 'message', f: (m: LoadMessage) => void): unknown;
  /** Whether the analysis is still running (quitting then must not wait for it). */
  busy(): boolean;
  /** Stops the analysis at its next file or phase, and the memory analysis it runs on a worker. */
  cancel(): void;
}

export function startLoading(request: UiLoadRequest): Loader {
  const events = new EventEmitter();
  let final: LoadMessage | undefined;
  const emit = (m: LoadMessage) => {
    if (m.type !== 'progress') final = m;
    events.emit('message', m);
  };
  let last = 0;
  const abort = new AbortController();
  setImmediate(() => {
    loadIncidentData(
      request,
      (p) => {
        // A new phase always shows (it may be long: the memory analysis); bytes at most every 250 ms:
        // each update redraws the screen on the thread that is also parsing.
        const now = Date.now();
        if (now - last < 250 && p.event.bytesRead > 0) return;
        last = now;
        emit({ type: 'progress', file: p.file, phase: p.event.phase, bytesRead: p.event.bytesRead, totalBytes: p.event.totalBytes ?? null });
      },
      abort.signal,
    ).then(
      (r) => emit({ type: 'done', data: r.data, notes: r.notes }),
      (e: unknown) => {
        const user = errorText(e);
        emit(user ? { type: 'error', ...user } : { type: 'crash', message: (e as Error)?.stack ?? String(e) });
      },
    );
  });
  return {
    on: (e, f) => {
      events.on(e, f);
      // Loading may end before the screen is up to listen (Ink loads meanwhile).
      if (final !== undefined) setImmediate(() => f(final!));
    },
    off: (e, f) => events.off(e, f),
    busy: () => final === undefined,
    cancel: () => abort.abort(),
  };
}
