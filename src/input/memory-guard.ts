/**
 * A check between chunks of a big input: when the JavaScript heap nears Node's limit, loading stops
 * with a message saying what to do, instead of V8 aborting the process with an out-of-memory crash
 * (which no handler can catch). The limit is Node's, not the machine's: Node sizes its heap from
 * the machine's memory, and --max-old-space-size raises it.
 */
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

import { InputError } from '../errors.js';

/** Past this share of the heap limit, loading stops: the rest of the run (model, rules, report) needs room too. */
const MAX_SHARE = 0.75;
/**
 * V8's heap limit counts the young generation too (its default size on 64-bit Node is taken
 * here), which long-lived data never gets to use.
 */
const YOUNG_GENERATION = 64 * 1024 * 1024;

export function checkHeapRoom(path: string): void {
  const { used_heap_size: used, heap_size_limit: total } = getHeapStatistics();
  const limit = Math.max(total - YOUNG_GENERATION, total / 2);
  if (used < limit * MAX_SHARE) return;
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  const suggestion = Math.min(mb(totalmem()) - 1024, mb(limit) * 2);
  throw new InputError(
    `${path}: not enough memory to hold what this input holds (${mb(used)} MB used of Node's ${mb(limit)} MB heap limit)`,
    `run with NODE_OPTIONS=--max-old-space-size=${Math.max(suggestion, mb(limit) + 256)} (this machine has ${mb(totalmem())} MB), or split the file`,
  );
}
