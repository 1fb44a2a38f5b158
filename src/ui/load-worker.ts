/** The worker thread behind `ui`: loads and analyses, posting progress, then the screens or the error. */
import { parentPort, workerData } from 'node:worker_threads';
import { errorText, loadIncidentData, type UiLoadRequest } from './load-incident-data.js';

const request = workerData as UiLoadRequest;
let last = 0;
loadIncidentData(request, (p) => {
  const now = Date.now();
  // A new phase is always shown (it may be long: the memory analysis); bytes at most every 50 ms.
  if (now - last < 50 && p.event.bytesRead > 0) return;
  last = now;
  parentPort!.postMessage({ type: 'progress', file: p.file, phase: p.event.phase, bytesRead: p.event.bytesRead, totalBytes: p.event.totalBytes ?? null });
}).then(
  (r) => parentPort!.postMessage({ type: 'done', data: r.data, notes: r.notes }),
  (e: unknown) => {
    const user = errorText(e);
    parentPort!.postMessage(user ? { type: 'error', ...user } : { type: 'crash', message: (e as Error)?.stack ?? String(e) });
  },
);
