/** Cause links gathered one at a time, each kept once, in the order first given (the report lists them so). */
import type { Model, ThreadRef } from '../../model/model.js';
import type { ThreadDump, ThreadEntry } from '../../model/thread-dump.js';
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
 * Undefined too when another series (another JVM) has threads stuck under the same subject: links
 * name a finding by rule and subject, and would reach the other JVM's.
 */
export function stuckThreadsSubjectOf(model: Model, ref: ThreadRef): string | undefined {
  const place = model.series.findIndex((s) => s.dumps.includes(ref.dump));
  if (place < 0) return undefined;
  const series = model.series[place]!;
  const at = series.dumps.indexOf(ref.dump);
  const t = series.threads.find((s) => s.indexes[at] === ref.thread);
  const last = t?.samePlace === true ? t.indexes[t.indexes.length - 1] : null;
  if (last === null || last === undefined) return undefined;
  const subject = stuckThreadsSubject(lastDumpOf(model, series).threads[last]!);
  const elsewhere = model.series.some(
    (other, i) =>
      i !== place &&
      other.threads.some((o) => o.samePlace && stuckThreadsSubject(lastDumpOf(model, other).threads[o.indexes[o.indexes.length - 1]!]!) === subject),
  );
  return elsewhere ? undefined : subject;
}

function lastDumpOf(model: Model, series: Model['series'][number]): ThreadDump {
  return model.dumps[series.dumps[series.dumps.length - 1]!]!;
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
