/**
 * The finalizer queue of each heap dump: java.lang.ref.Finalizer's static ReferenceQueue and its
 * queueLength, the objects found unreachable whose finalize() has not run yet (the Finalizer thread
 * drains it one by one).
 */
import type { HeapInput } from '../heap/heap-input.js';
import { hexId, numberOf } from '../heap/heap-values.js';
import type { FinalizerQueueModel } from '../model/model.js';

export function finalizerQueues(heaps: readonly HeapInput[]): FinalizerQueueModel[] {
  return heaps.flatMap((h) => {
    const queue = h.view.object(h.view.staticValue('java.lang.ref.Finalizer', 'queue') ?? null);
    if (queue === undefined) return [];
    const length = numberOf(h.view, h.view.field(queue, 'queueLength'));
    return length === undefined ? [] : [{ input: h.path, queueLength: length, queueId: hexId(queue.id), className: h.view.classNameOf(queue) }];
  });
}
