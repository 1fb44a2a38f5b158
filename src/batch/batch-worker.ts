/** A `batch` worker thread: analyses the incidents it is sent, one at a time, and posts each line back. */
import { parentPort, workerData } from 'node:worker_threads';

import { analyseIncidentForBatch } from './incident-summary.js';

const { config, maxGunzipBytes } = workerData as { config: string | undefined; maxGunzipBytes: number | undefined };
// Incidents arrive ahead of time (see batch.ts) and are analysed one after another, in order.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: { index: number; path: string }) => {
  queue = queue.then(() => analyseIncidentForBatch(m.path, config, maxGunzipBytes).then((line) => parentPort!.postMessage({ index: m.index, line })));
});
