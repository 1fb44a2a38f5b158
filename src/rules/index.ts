/** The ordered registry of built-in rules. Order is the order findings of equal severity are listed. */
import { activeCountLeak } from './active-count-leak.js';
import { classInitWait } from './class-init-wait.js';
import { connectionPoolStarvation } from './connection-pool-starvation.js';
import { cpuHotThreads } from './cpu-hot-threads.js';
import { deadlock } from './deadlock.js';
import { executorSaturated } from './executor-saturated.js';
import { finalizerBacklog } from './finalizer-backlog.js';
import { forkjoinSaturated } from './forkjoin-saturated.js';
import { gcOverhead } from './gc-overhead.js';
import { hungThreadsReported } from './hung-threads-reported.js';
import { ioThreadBlocked } from './io-thread-blocked.js';
import { limitSaturated } from './limit-saturated.js';
import { lockContention } from './lock-contention.js';
import { loggingContention } from './logging-contention.js';
import { memoryLeakSuspect } from './memory-leak-suspect.js';
import { memoryWaste } from './memory-waste.js';
import { queueBacklog } from './queue-backlog.js';
import type { Rule } from './rule.js';
import { shutdownOrdering } from './shutdown-ordering.js';
import { stuckThreads } from './stuck-threads.js';
import { threadLeak } from './thread-leak.js';
import { virtualThreadPinning } from './virtual-thread-pinning.js';

export const RULES: readonly Rule[] = [
  activeCountLeak,
  limitSaturated,
  connectionPoolStarvation,
  queueBacklog,
  executorSaturated,
  shutdownOrdering,
  deadlock,
  lockContention,
  classInitWait,
  loggingContention,
  threadLeak,
  finalizerBacklog,
  forkjoinSaturated,
  virtualThreadPinning,
  ioThreadBlocked,
  hungThreadsReported,
  stuckThreads,
  cpuHotThreads,
  gcOverhead,
  memoryLeakSuspect,
  memoryWaste,
];
