/** Cause links gathered one at a time, each kept once, in the order first given (the report lists them so). */
import type { Model, ThreadRef } from '../../model/model.js';
import type { ThreadEntry } from '../../model/thread-dump.js';
import { activityFrame } from '../../threads/thread-activity.js';
import type { CauseLink } from '../rule.js';

/**
 * The subject of the stuck-threads finding a thread would be in (its group: where it is, in which
 * state, in the last dump of its series), for a rule that names it as a cause; the engine drops the
 * link when the thread is not stuck.
 */
export function stuckThreadsSubject(th: ThreadEntry): string {
  return `${activityFrame(th)} (${th.state})`;
}

/**
 * stuckThreadsSubject of a thread seen in one dump, when it stayed in one place in every dump of its
 * series (else it cannot be stuck): its group is named by where it is in the series' last dump.
 */
export function stuckThreadsSubjectOf(model: Model, ref: ThreadRef): string | undefined {
  for (const series of model.series) {
    const at = series.dumps.indexOf(ref.dump);
    if (at < 0) continue;
    const t = series.threads.find((s) => s.indexes[at] === ref.thread);
    const last = t?.samePlace === true ? t.indexes[t.indexes.length - 1] : null;
    return last === null || last === undefined ? undefined : stuckThreadsSubject(model.dumps[series.dumps[series.dumps.length - 1]!]!.threads[last]!);
  }
  return undefined;
}

export class CauseLinks {
  private readonly byKey = new Map<string, CauseLink>();

  add(rule: string, subject: string): void {
    const key = `${rule}\u0000${subject}`;
    if (!this.byKey.has(key)) this.byKey.set(key, { rule, subject });
  }

  list(): CauseLink[] {
    return [...this.byKey.values()];
  }
}
