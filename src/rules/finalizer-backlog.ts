/**
 * A backed-up finalizer. The idea: objects with a finalize() are freed only after the single
 * Finalizer thread has run it; when that thread is held (blocked on a lock, waiting, or in the same
 * finalize() across dumps) or cannot keep up, the queue grows, and with it the memory of every
 * queued object. The heap's queue length says how many wait; the thread says why.
 */
import { countText } from '../model/count-text.js';
import type { Evidence } from '../model/findings.js';
import type { ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import type { FindingDraft, Rule } from './rule.js';
import { threadEvidence } from './support/evidence.js';
import { lockWaits } from './support/held-up.js';

export const finalizerBacklog: Rule = {
  meta: {
    id: 'finalizer-backlog',
    defaultSeverity: 'warning',
    title: 'Finalizer backlog',
    description:
      'The Finalizer thread is held inside a finalize() (blocked on a lock or waiting, or in the same finalize() ' +
      "in every dump of a series) or the heap's finalizer queue holds many objects (java.lang.ref.Finalizer.queue's " +
      'length); objects with a finalize() keep their memory until it has run. Error when both.',
    remedy:
      'Make finalize() never block (no locks another thread may hold, no I/O), or better, replace finalizers with ' +
      "explicit close() and java.lang.ref.Cleaner; find what the Finalizer thread waits for (the lock's holder).",
    options: {
      minQueued: { type: 'integer', min: 1, default: 10000, description: 'Objects in the finalizer queue that make a backlog by themselves.' },
    },
  },
  check({ model, options }) {
    const minQueued = Number(options['minQueued']);
    const last = model.dumps.length - 1;
    const queued = model.finalizerQueues.reduce((n, q) => Math.max(n, q.queueLength), 0);
    const queue = model.finalizerQueues.find((q) => q.queueLength === queued);
    const finalizer = last >= 0 ? model.dumps[last]!.threads.findIndex((th) => th.frames.some((f) => f.qualified === FINALIZER_LOOP)) : -1;
    const th = finalizer >= 0 ? model.dumps[last]!.threads[finalizer]! : undefined;
    const held = th !== undefined ? heldIn(th) : undefined;
    // In one finalize() in every dump of a series: slow or stuck, whatever its state.
    const f = th !== undefined ? finalizeFrame(th) : undefined;
    const series = model.series.find((s) => s.dumps.includes(last));
    const sameEvery =
      f !== undefined &&
      series !== undefined &&
      series.dumps.length > 1 &&
      series.dumps.every((d) => model.dumps[d]!.threads.some((o) => o.frames.some((x) => x.qualified === FINALIZER_LOOP) && finalizeFrame(o) === f));
    const backlog = queued >= minQueued;
    if (held === undefined && !sameEvery && !backlog) return [];
    const ref: ThreadRef | undefined = th !== undefined ? model.threadRefs[last]![finalizer] : undefined;
    const evidence: Evidence[] = [
      ...(ref !== undefined ? [threadEvidence(model, ref, held ?? (f !== undefined ? `running ${f}` : 'the Finalizer thread'))] : []),
      ...(queue !== undefined
        ? [
            {
              kind: 'heap-object' as const,
              source: queue.input,
              id: queue.queueId,
              className: queue.className,
              note: `finalizer queue: ${countText(queue.queueLength)} objects`,
            },
          ]
        : []),
    ];
    const owner = th !== undefined && th.state === 'BLOCKED' ? lockWaits(model, last).lockOf(finalizer)?.owner?.name : undefined;
    const heldBy = owner !== undefined ? `, on a lock "${owner}" holds` : '';
    const why =
      held !== undefined
        ? `The Finalizer thread is ${held}${heldBy}`
        : sameEvery
          ? `The Finalizer thread was in ${f} in all ${series!.dumps.length} dumps`
          : th !== undefined
            ? `The Finalizer thread is ${th.state}${f !== undefined ? ` in ${f}` : ''}`
            : 'No Finalizer thread is in the dump';
    const draft: FindingDraft = {
      subject: 'Finalizer',
      ...((held !== undefined || sameEvery) && backlog ? { severity: 'error' as const } : {}),
      message:
        `${why}: no other object with a finalize() is freed meanwhile.` +
        (queue !== undefined
          ? ` The heap's finalizer queue holds ${countText(queue.queueLength)} objects waiting for it${backlog ? '' : ' (not many)'}.`
          : " Without a heap dump the queue's length is unknown."),
      facts: {
        thread: th?.name ?? null,
        state: th?.state ?? null,
        finalizeMethod: f ?? null,
        held: held ?? null,
        lockHolder: owner ?? null,
        sameInEveryDump: sameEvery,
        queueLength: queue?.queueLength ?? null,
      },
      evidence,
      impact: Math.round(queued / 10000) + (held !== undefined ? 5 : 0),
    };
    return [draft];
  },
};

const FINALIZER_LOOP = 'java.lang.ref.Finalizer$FinalizerThread.run';

/** The finalize() the thread runs, when it runs one (the frame just above the JDK's invokeFinalize). */
function finalizeFrame(th: ThreadEntry): string | undefined {
  return th.frames.find((f) => f.method === 'finalize')?.qualified;
}

/** Held, not merely working: blocked on a lock, or waiting, inside a finalize(). */
function heldIn(th: ThreadEntry): string | undefined {
  const f = finalizeFrame(th);
  if (f === undefined) return undefined;
  if (th.state === 'BLOCKED') return `BLOCKED on a monitor in ${f}`;
  if (th.state === 'WAITING' || th.state === 'TIMED_WAITING')
    return `${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''} in ${th.frames[0]?.qualified ?? f}, inside ${f}`;
  return undefined;
}
