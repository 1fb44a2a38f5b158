/**
 * A batch's share of the incidents when a job engine runs it N times at once (a Kubernetes Indexed
 * Job, GNU parallel, a CI matrix): shard K of N takes the incidents K, K+N, K+2N, … of the list
 * every shard makes the same way (the same arguments expand to the same sorted list), so the N
 * shards' lines together are exactly one run's, each incident in one shard.
 */
import { UsageError } from '../errors.js';

export interface Shard {
  /** From 1 to `count`. */
  readonly index: number;
  readonly count: number;
}

/**
 * `K/N`, or `N` alone with K from JOB_COMPLETION_INDEX (Kubernetes numbers an Indexed Job's pods
 * from 0), so every pod runs the same command.
 */
export function parseShard(text: string, env: NodeJS.ProcessEnv): Shard {
  const m = /^\s*(?:(\d{1,6})\s*\/\s*)?(\d{1,6})\s*$/.exec(text);
  const example = 'for example --shard 2/4 (the second of four), or --shard 4 in a Kubernetes Indexed Job';
  if (m === null) throw new UsageError(`--shard ${text} is not K/N`, example);
  const count = Number(m[2]);
  let index: number;
  if (m[1] !== undefined) index = Number(m[1]);
  else {
    const fromJob = env['JOB_COMPLETION_INDEX'];
    if (fromJob === undefined || !/^\d{1,6}$/.test(fromJob))
      throw new UsageError(`--shard ${count} needs the shard's number: JOB_COMPLETION_INDEX is ${fromJob === undefined ? 'not set' : `"${fromJob}"`}`, example);
    index = Number(fromJob) + 1;
  }
  if (count < 1 || index < 1 || index > count)
    throw new UsageError(`--shard ${index}/${count}: the shard's number must be from 1 to ${Math.max(count, 1)}`, example);
  return { index, count };
}

/** The shard's incidents, in the list's order. */
export function shareOf<T>(all: readonly T[], shard: Shard): T[] {
  return all.filter((_, i) => i % shard.count === shard.index - 1);
}
