/** Tallies parts of a plain HPROF file on a worker thread, once told which (see histogram-parts.ts). */
import { parentPort } from 'node:worker_threads';

import { type PartsMessage, type PartsOrder, takeParts } from './histogram-parts.js';
import { HprofFormatError } from './parser.js';

parentPort!.once('message', (order: PartsOrder) => {
  let message: PartsMessage;
  try {
    message = { parts: takeParts(order) };
  } catch (e) {
    message = { error: e instanceof Error ? e.message : String(e), format: e instanceof HprofFormatError };
  }
  parentPort!.postMessage(message);
});
