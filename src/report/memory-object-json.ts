/**
 * A heap object and a step of a path from the GC roots as `dumpsleuth.memory/1` writes them
 * (`$defs/object` and `$defs/pathStep` of docs/memory.schema.json), for every section that lists them.
 */
import type { PathStep, RetainedObject } from '../model/memory.js';
import { stackFramesJson } from './memory-stack-frames.js';

export const objectJson = (o: RetainedObject) => ({
  id: o.id,
  class: o.className,
  ...(o.describes !== undefined ? { describes: o.describes } : {}),
  ...(o.threadName !== undefined ? { thread: o.threadName } : {}),
  shallow: o.shallow,
  retained: o.retained,
  ...stackFramesJson(o),
});

export const stepJson = (st: PathStep) => ({
  ...objectJson(st.object),
  ...(st.via !== undefined ? { via: st.via } : {}),
  ...(st.rootKind !== undefined ? { rootKind: st.rootKind } : {}),
});
