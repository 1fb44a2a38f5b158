/** The ordered registry of built-in rules. Order is the order findings of equal severity are listed. */
import type { Rule } from './rule.js';
import { deadlock } from './deadlock.js';
import { lockContention } from './lock-contention.js';
import { executorSaturated } from './executor-saturated.js';
import { stuckThreads } from './stuck-threads.js';

export const RULES: readonly Rule[] = [deadlock, executorSaturated, lockContention, stuckThreads];
