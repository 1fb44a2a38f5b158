/**
 * The class loaders of the memory model's classes defined by several loaders, named from the
 * heap's load (`ClassLoader.name`, JDK 9 and later: `report-plugin-deploy-7`), and the threads
 * that keep them named as every thread the report lists is (`thread "request-worker-1"`).
 */
import type { DefiningLoader, LoaderHolder, LoaderHolderGroup, RedefinedClass } from '../../model/class-loaders.js';
import type { HeapMemoryModel, RetainedObject } from '../../model/memory.js';
import { textOf, threadNameOf } from '../heap-values.js';
import type { HeapView } from '../heap-view.js';

/** What a load must hold to name them: every class loader and what it references (its name String). */
export const LOADER_NAMES_ROOT = { className: 'java.lang.ClassLoader', depth: 1 } as const;

export function withLoaderNames(memory: HeapMemoryModel, view: HeapView): HeapMemoryModel {
  const loaders = memory.summary?.classLoaders;
  if (loaders === undefined || loaders.classes.length === 0) return memory;
  const objectOf = (id: string) => (/^0x[0-9a-f]+$/i.test(id) ? view.object(Number.parseInt(id.slice(2), 16)) : undefined);
  const thread = (o: RetainedObject | undefined): RetainedObject | undefined => {
    if (o === undefined || o.threadName !== undefined) return o;
    const name = threadNameOf(view, objectOf(o.id));
    return name !== undefined ? { ...o, threadName: name } : o;
  };
  const holder = (h: LoaderHolder | null): LoaderHolder | null =>
    h === null || h.holder === undefined || h.kind === 'gc-root' ? h : { ...h, holder: thread(h.holder)! };
  const loader = (l: DefiningLoader): DefiningLoader => {
    const name = textOf(view, view.field(objectOf(l.loader.id), 'name') ?? undefined);
    return { ...l, ...(name !== undefined ? { name } : {}), ...(l.keptBy !== undefined ? { keptBy: holder(l.keptBy)! } : {}) };
  };
  const group = (g: LoaderHolderGroup): LoaderHolderGroup => ({ ...g, holder: holder(g.holder) });
  const named = (c: RedefinedClass): RedefinedClass => ({ ...c, loaders: c.loaders.map(loader), keptBy: c.keptBy.map(group) });
  return { ...memory, summary: { ...memory.summary!, classLoaders: { ...loaders, classes: loaders.classes.map(named) } } };
}
