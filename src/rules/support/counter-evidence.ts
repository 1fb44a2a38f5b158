/** What the counter rules share: the numbers of a counter, and its evidence (heap object, threads, log lines). */
import type { Evidence, FactValue } from '../../model/findings.js';
import type { CounterModel, Model } from '../../model/model.js';
import { threadEvidence } from './evidence.js';
import { withCode } from './thread-code.js';

/** The most threads seen inside the method in any one dump (the counter is a snapshot; so is each dump). */
export function maxInside(c: CounterModel): number {
  return Math.max(0, ...c.threadsInside.map((t) => t.count));
}

export function counterFacts(c: CounterModel): Record<string, FactValue> {
  return {
    active: c.active,
    limit: c.limit,
    limitSource: c.limitSource,
    executingThreads: maxInside(c),
    executingThreadsPerDump: c.threadsInside.map((t) => t.count),
    rejectionsLogged: c.rejectionsLogged,
    total: c.total,
    failed: c.failed,
    serviceActive: c.serviceActive,
    identity: c.identity,
    counterKind: c.kind,
  };
}

export function counterEvidence(model: Model, c: CounterModel, note: string): Evidence[] {
  const out: Evidence[] = [{ kind: 'heap-object', source: c.object.input, id: c.object.id, className: c.object.className, note }];
  const busiest = [...c.threadsInside].sort((a, b) => b.count - a.count)[0];
  if (busiest) for (const t of busiest.threads.slice(0, 30)) out.push(threadEvidence(model, t, 'inside the method'));
  for (const e of model.logEvents) {
    if (e.kind === 'dubbo-executes-rejected' && e.service === c.service && e.method === c.method) {
      out.push({ kind: 'log', source: e.first.source, line: e.first.line, text: e.first.text, note: `first of ${e.count} rejections` });
      if (e.count > 1) out.push({ kind: 'log', source: e.last.source, line: e.last.line, text: e.last.text, note: 'last rejection' });
    }
  }
  return withCode(model, out);
}

/** A counter is at (or near) its limit. */
export function nearLimit(c: CounterModel, ratio: number): c is CounterModel & { limit: number } {
  return c.limit !== null && c.limit > 0 && c.active >= c.limit * ratio;
}
