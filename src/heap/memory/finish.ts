/**
 * A heap's memory analysis, finished into what the model carries: the summary (and the UI's tree),
 * or why there is none; and each thread it lists named from the heap's load.
 */
import type { HeapMemoryModel, PathStep, RetainedObject, RetainerNode } from '../../model/memory.js';
import type { HeapMemory } from '../heap-input.js';
import { threadNameOf } from '../heap-values.js';
import type { HeapView } from '../heap-view.js';
import { MemoryDoesNotFit, notComputed } from './budget.js';
import type { HeapMemoryWork } from './plan.js';

export async function finishHeapMemory(work: HeapMemoryWork, name: string): Promise<HeapMemory> {
  if (work.where === 'skipped') return { model: { input: name, skipped: work.reason } };
  const running = work.where === 'worker' ? work.running : work.deferred.running;
  try {
    const analysis = await running.done;
    return { model: { input: name, summary: analysis.summary, ...(analysis.retainers !== undefined ? { tree: analysis.retainers } : {}) }, analysis };
  } catch (e) {
    if (e instanceof MemoryDoesNotFit) return { model: { input: name, skipped: notComputed(e.message, name) } };
    return { model: { input: name, skipped: `the memory analysis failed: ${(e as Error).message}` } };
  }
}

/**
 * The memory model with each thread it lists named (a leak suspect that is a thread says which one,
 * and so do the steps of its path and the frames that hold an object): the names of the Thread
 * objects the heap's load read. Other objects are left as they are.
 */
export function withThreadNames(memory: HeapMemoryModel, view: HeapView): HeapMemoryModel {
  const named = new Map<string, string | undefined>();
  const threadName = (id: string): string | undefined => {
    if (named.has(id)) return named.get(id);
    const object = /^0x[0-9a-f]+$/i.test(id) ? view.object(Number.parseInt(id.slice(2), 16)) : undefined;
    const c = object !== undefined ? view.classOf(object) : undefined;
    const name = c !== undefined && view.isA(c, 'java.lang.Thread') ? threadNameOf(view, object) : undefined;
    named.set(id, name);
    return name;
  };
  // The threads whose stacks hold it are named too (`a local variable of … in thread "export"`).
  const framesNamed = (o: RetainedObject): RetainedObject => {
    if (o.stackFrames === undefined) return o;
    const stackFrames = o.stackFrames.map((h) => {
      const name = h.threadId !== undefined ? threadName(h.threadId) : undefined;
      return name !== undefined ? { ...h, threadName: name } : h;
    });
    return { ...o, stackFrames };
  };
  const nameOf = (o: RetainedObject): RetainedObject => {
    if (o.describes !== undefined) return o;
    const name = threadName(o.id);
    return framesNamed(name !== undefined ? { ...o, threadName: name } : o);
  };
  const pathOf = (path: readonly PathStep[] | undefined) => (path !== undefined ? { path: path.map((st) => ({ ...st, object: nameOf(st.object) })) } : {});
  const s = memory.summary;
  if (s === undefined) return memory;
  const node = (n: RetainerNode): RetainerNode => ({ ...n, object: nameOf(n.object), ...pathOf(n.path), children: n.children.map(node) });
  return {
    ...memory,
    summary: {
      ...s,
      dominators: s.dominators.map(nameOf),
      suspects: s.suspects.map((x) => ({
        ...x,
        subject: nameOf(x.subject),
        accumulation: {
          ...x.accumulation,
          ...nameOf(x.accumulation),
          ...(x.accumulation.biggest !== undefined ? { biggest: x.accumulation.biggest.map(nameOf) } : {}),
        },
        ...pathOf(x.path),
        ...(x.stackHolder !== undefined
          ? { stackHolder: { ...x.stackHolder, ...nameOf(x.stackHolder), stackFrames: nameOf(x.stackHolder).stackFrames! } }
          : {}),
      })),
    },
    ...(memory.tree !== undefined ? { tree: memory.tree.map(node) } : {}),
  };
}
