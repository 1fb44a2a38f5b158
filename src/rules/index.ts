/** The ordered registry of built-in rules. Order is the order findings of equal severity are listed. */
import type { Rule } from './rule.js';
import { deadlock } from './deadlock.js';
import { lockContention } from './lock-contention.js';
import { executorSaturated } from './executor-saturated.js';
import { stuckThreads } from './stuck-threads.js';
import { activeCountLeak } from './active-count-leak.js';
import { limitSaturated } from './limit-saturated.js';
import { queueBacklog } from './queue-backlog.js';
import { connectionPoolStarvation } from './connection-pool-starvation.js';
import { shutdownOrdering } from './shutdown-ordering.js';
import { memoryLeakSuspect } from './memory-leak-suspect.js';
import { cpuHotThreads } from './cpu-hot-threads.js';
import { hungThreadsReported } from './hung-threads-reported.js';
import { ioThreadBlocked } from './io-thread-blocked.js';
import { classInitWait } from './class-init-wait.js';
import { loggingContention } from './logging-contention.js';
import { threadLeak } from './thread-leak.js';
import { finalizerBacklog } from './finalizer-backlog.js';
import { forkjoinSaturated } from './forkjoin-saturated.js';
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
  memoryLeakSuspect,
];
