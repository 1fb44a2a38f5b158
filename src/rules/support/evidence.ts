/** Small helpers rules share to cite threads as evidence. */
import type { Evidence } from '../../model/findings.js';
import type { Model, ThreadRef } from '../../model/model.js';

export function threadEvidence(model: Model, ref: ThreadRef, note?: string): Evidence {
  const dump = model.dumps[ref.dump]!;
  const th = dump.threads[ref.thread]!;
  const e = { kind: 'thread' as const, thread: th.name, index: ref.thread, dump: ref.dump, source: th.from ?? dump.source, line: th.line };
  return note === undefined ? e : { ...e, note };
}

/** `State at frame` for a thread, the way people describe what it is doing. */
export function describeThread(model: Model, ref: ThreadRef): string {
  const th = model.dumps[ref.dump]!.threads[ref.thread]!;
  const top = th.frames[0]?.qualified;
  const detail = th.stateDetail ? ` (${th.stateDetail})` : '';
  return top ? `${th.state}${detail} in ${top}` : `${th.state}${detail}`;
}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}
