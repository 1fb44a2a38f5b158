/**
 * Asynchronous log appenders in a heap dump, with their queues: logback's AsyncAppenderBase
 * (blockingQueue), log4j 2's AsyncAppender (queue) and log4j 1's AsyncAppender (buffer, bufferSize).
 * A full queue means the threads that log wait (or, configured to, drop events).
 */
import type { HeapInput } from '../heap/heap-input.js';
import { hexId, numberOf, sizeOf, textOf } from '../heap/heap-values.js';
import type { AsyncAppenderModel } from '../model/model.js';
import { queueState } from './heap-executors.js';

/** Each framework's async appender class and where its queue is. */
const ASYNC_APPENDERS = [
  { className: 'ch.qos.logback.core.AsyncAppenderBase', queueField: 'blockingQueue', framework: 'logback' },
  { className: 'org.apache.logging.log4j.core.appender.AsyncAppender', queueField: 'queue', framework: 'log4j 2' },
  { className: 'org.apache.log4j.AsyncAppender', queueField: 'buffer', framework: 'log4j 1', capacityField: 'bufferSize' },
] as const;

export function asyncAppenders(heaps: readonly HeapInput[]): AsyncAppenderModel[] {
  return heaps.flatMap((h) =>
    ASYNC_APPENDERS.flatMap((kind) =>
      h.view.instancesOf(kind.className, { subclasses: true }).map((o): AsyncAppenderModel => {
        const queue = h.view.follow(o, kind.queueField);
        const state =
          'capacityField' in kind
            ? { size: sizeOf(h.view, queue) ?? null, capacity: numberOf(h.view, h.view.field(o, kind.capacityField)) ?? null }
            : queueState(h.view, queue);
        return {
          input: h.path,
          framework: kind.framework,
          className: h.view.classNameOf(o),
          id: hexId(o.id),
          name: textOf(h.view, h.view.field(o, 'name')) ?? null,
          queueSize: state.size,
          capacity: state.capacity,
        };
      }),
    ),
  );
}
