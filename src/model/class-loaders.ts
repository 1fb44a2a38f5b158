/**
 * Classes defined by many class loaders (a redeployment that leaves its loader behind), as plain
 * data: which class, how many loaders define it, what each loader retains and what keeps it alive
 * (the memory analysis, heap/graph/class-loaders.ts, computes them). Words every format shares are here too.
 */
import { approximateBytes } from './bytes.js';
import { countOf, countText } from './count-text.js';
import type { PathStep, RetainedObject } from './memory.js';

/**
 * What keeps a class loader alive, read from its shortest strong path from a GC root (the holder
 * nearest the loader): a static field of a class another loader defined, a thread's ThreadLocal,
 * a local variable of a thread's stack, or another GC root.
 */
export interface LoaderHolder {
  readonly kind: 'static' | 'thread-local' | 'thread-stack' | 'gc-root';
  /** static: the field, `com.example.host.PluginRegistry.INSTANCES`; thread-local: the static that holds the ThreadLocal, when one does. */
  readonly field?: string;
  /** thread-local, thread-stack: the thread; gc-root: the root object. */
  readonly holder?: RetainedObject;
  /** gc-root: the kind of root record (`jni-global`, ...). */
  readonly rootKind?: string;
}

export interface DefiningLoader {
  /** The loader object; `retained` is what the dominator tree gives it. */
  readonly loader: RetainedObject;
  /** The loader's name (`ClassLoader.name`, JDK 9 and later), when the heap's load read it. */
  readonly name?: string;
  /** What keeps it alive; absent when no strong path reaches it (held only through weak or soft references). */
  readonly keptBy?: LoaderHolder;
  /** Its shortest strong path from a GC root (empty: none), when it was looked up. */
  readonly path?: readonly PathStep[];
}

/** Loaders of one class that are kept by the same holder. */
export interface LoaderHolderGroup {
  readonly holder: LoaderHolder | null;
  readonly loaders: number;
  readonly retained: number;
}

/** One class name (with the others defined by exactly the same loaders) defined by several loaders. */
export interface RedefinedClass {
  readonly className: string;
  /** How many more class names the same loaders define, each once. */
  readonly sameLoadersClasses: number;
  /** How many loaders define it. */
  readonly loaderCount: number;
  /** The loaders' classes, distinct, most common first. */
  readonly loaderClasses: string[];
  /** The sum of the loaders' retained sizes. */
  readonly retained: number;
  /**
   * The class objects of these names the loaders define, and the sum of their retained sizes (a class
   * not under its loader in the dominator tree is not in `retained`).
   */
  readonly classes: number;
  readonly classesRetained: number;
  /** Its loaders, biggest retained first (at most the analysis's cap: loaderCount says how many in all). */
  readonly loaders: DefiningLoader[];
  /** The loaders listed, grouped by what keeps them alive, most loaders first. */
  readonly keptBy: LoaderHolderGroup[];
}

export interface ClassLoaderSummary {
  /** Class names defined by at least two loaders, most loaders first. */
  readonly classes: RedefinedClass[];
  /** Groups of classes defined by several loaders that are not listed. */
  readonly moreClasses: number;
}

/** Loaders per class whose paths from the GC roots the memory analysis looks up (the biggest first). */
export const LOADERS_LOOKED_AT = 100;

/** A holder in the words every format uses: `static com.example.Registry.INSTANCES`, `a ThreadLocal on thread "worker-1"`. Raw: each renderer escapes it. */
export function loaderHolderText(h: LoaderHolder | null | undefined): string {
  if (h === null || h === undefined) return 'no strong path (held only weakly, or garbage the next collection frees)';
  const thread = (o: RetainedObject | undefined) => (o === undefined ? 'a thread' : o.threadName !== undefined ? `thread "${o.threadName}"` : `thread ${o.id}`);
  switch (h.kind) {
    case 'static':
      return `static ${h.field ?? '?'}`;
    case 'thread-local':
      return `a ThreadLocal${h.field !== undefined ? ` (${h.field})` : ''} on ${thread(h.holder)}`;
    case 'thread-stack':
      return `a local variable of ${thread(h.holder)}`;
    case 'gc-root': {
      const o = h.holder;
      const root = o === undefined ? '' : ` ${o.describes !== undefined ? `class ${o.describes}` : o.className} ${o.id}`;
      return `GC root (${h.rootKind ?? 'root'})${root}`;
    }
  }
}

/** `12 through static …, 8 through a ThreadLocal on thread "request-worker-1"`. Raw: each renderer escapes it. */
export function keptByText(c: RedefinedClass): string {
  return c.keptBy.map((g) => `${countText(g.loaders)} through ${loaderHolderText(g.holder)}`).join(', ');
}

/** `com.example.plugin.ReportPlugin is defined by 20 class loaders (java.net.URLClassLoader), retaining 1.2 MiB`. Raw. */
export function redefinedClassText(c: RedefinedClass): string {
  const more = c.sameLoadersClasses > 0 ? ` (and ${countOf(c.sameLoadersClasses, 'more class', 'more classes')} defined by the same loaders)` : '';
  return (
    `${c.className}${more} is defined by ${countText(c.loaderCount)} class loaders (${c.loaderClasses.join(', ')}), ` +
    `which retain ${approximateBytes(c.retained)}; its ${countOf(c.classes, 'class object')} retain ${approximateBytes(c.classesRetained)}`
  );
}

/** A loader in one line: `java.net.URLClassLoader "report-plugin-deploy-1" 0x… retains 3.4 KiB, kept by static …`. Raw. */
export function definingLoaderText(l: DefiningLoader): string {
  const name = l.name !== undefined ? ` "${l.name}"` : '';
  return `${l.loader.className}${name} ${l.loader.id} retains ${approximateBytes(l.loader.retained)}, kept by ${loaderHolderText(l.keptBy)}`;
}
