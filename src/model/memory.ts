/**
 * What holds the memory of a heap dump, as plain data: the figures of its dominator tree that
 * reports, rules and extracts carry (the memory analysis, heap/memory/, computes them; nothing here needs the graph).
 */

import { approximateBytes } from './bytes.js';
import type { ClassLoaderSummary } from './class-loaders.js';
import { countOf, countText } from './count-text.js';
import type { MemoryWaste } from './memory-waste.js';

export interface RetainedObject {
  /** The object's index in the graph it came from (meaningless once serialised). */
  readonly index: number;
  readonly id: string;
  readonly className: string;
  readonly shallow: number;
  readonly retained: number;
  /** For a class object: the class it is (`org.acme.Cache`), whose statics it holds. */
  readonly describes?: string;
  /** For a thread (a java.lang.Thread or a subclass) whose object the heap's load read: its name. */
  readonly threadName?: string;
  /**
   * The frames of threads' stacks whose local variables hold it, when no GC root holds it otherwise
   * (an HPROF's Java-frame roots), top of each stack first.
   */
  readonly stackFrames?: readonly StackFrameHold[];
  /** Frames holding it beyond those listed (an object many threads hold, such as a shared lock). */
  readonly moreStackFrames?: number;
}

/** A frame of a thread's stack whose local variable holds an object (an HPROF's Java-frame GC root). */
export interface StackFrameHold {
  /** The thread's object, absent when the dump has none for the thread. */
  readonly threadId?: string;
  /** The thread's name, when the heap's load read its object. */
  readonly threadName?: string;
  /** The frame's depth in the thread's stack: 0 is the top. */
  readonly depth: number;
  /** The frame as a thread dump writes it (`com.acme.Export.run(Export.java:23)`); absent when the dump recorded no stack for the thread. */
  readonly frame?: string;
}

export interface ClassRetained {
  readonly className: string;
  readonly instances: number;
  readonly shallow: number;
  readonly retained: number;
}

/** One step of a path from a GC root: the object, and how the step before holds it. */
export interface PathStep {
  readonly object: RetainedObject;
  /** The field, array index or static of the previous object that holds this one (absent for the root). */
  readonly via?: string;
  /** For the first step: the root record that holds it. */
  readonly rootKind?: string;
}

export interface LeakSuspect {
  readonly kind: 'object' | 'class';
  /** The object, or the biggest instance of the class. */
  readonly subject: RetainedObject;
  readonly className: string;
  /** For a class: how many top-level instances, and what they retain together. */
  readonly instances: number;
  /** For a class: all its instances, as the class table counts them (the others are held inside them or by other objects). */
  readonly classInstances?: number;
  readonly retained: number;
  readonly share: number;
  /** Where the memory accumulates below the subject, with the objects it dominates directly. */
  readonly accumulation: RetainedObject & {
    readonly dominated: number;
    /** When it is the first link of a linked structure (a queue's nodes): how many links follow, each dominating the next. */
    readonly chainLinks?: number;
    /** Its biggest directly dominated objects (up to 3, each retaining at least 5% of it), biggest first: what it holds. */
    readonly biggest?: readonly RetainedObject[];
  };
  /** The shortest strong path from a GC root to the accumulation point, when it was looked up (empty: none). */
  readonly path?: readonly PathStep[];
  /**
   * The object between the subject and the accumulation point (either included) that threads' stacks
   * keep: a local variable of a frame of the thread that dominates it, or of the frames of threads that
   * hold it together (its `stackFrames` say which). Absent when no stack keeps the memory.
   */
  readonly stackHolder?: RetainedObject & { readonly stackFrames: readonly StackFrameHold[] };
}

export interface MemorySummary {
  readonly objects: number;
  readonly reachableObjects: number;
  readonly shallowBytes: number;
  readonly retainedBytes: number;
  readonly unreachable: { readonly objects: number; readonly bytes: number };
  readonly roots: Readonly<Record<string, number>>;
  readonly missingReferences: number;
  /** How shallow sizes were worked out (HPROF: the object layout assumed, and why). */
  readonly sizeModel?: { readonly summary: string; readonly reasons: readonly string[] };
  readonly dominators: RetainedObject[];
  readonly classes: ClassRetained[];
  readonly suspects: LeakSuspect[];
  /** Classes defined by several class loaders, and what keeps each loader (HPROF only; absent when none is). */
  readonly classLoaders?: ClassLoaderSummary;
  /**
   * Memory the heap spends on nothing (duplicate strings, empty and sparse collections, boxed numbers
   * in collections, all-zero primitive arrays): HPROF only, absent when it was not looked for.
   */
  readonly waste?: MemoryWaste;
}

/** A node of the top of the dominator tree: the object, and the ones it dominates, biggest first. */
export interface RetainerNode {
  readonly object: RetainedObject;
  readonly children: RetainerNode[];
  /** Objects it dominates that the tree leaves out, and what they retain. */
  readonly more: { readonly objects: number; readonly bytes: number };
  /** The shortest strong path from a GC root to it, when it was looked up (empty: none). */
  readonly path?: readonly PathStep[];
}

/** A heap input's memory, as the analysis of an incident carries it. */
export interface HeapMemoryModel {
  readonly input: string;
  /** Absent when the memory analysis was not run; `skipped` then says why. */
  readonly summary?: MemorySummary;
  /** The top of the dominator tree with each node's path from a GC root, when it was asked for (the UI's Memory screen). */
  readonly tree?: RetainerNode[];
  readonly skipped?: string;
}

/**
 * How every output names a retained object: a class object as the class it is (`class
 * org.acme.Cache`, whose statics it holds), any other by its class, with its id when asked.
 */
export function retainedObjectName(o: RetainedObject, withId = false): string {
  if (o.describes !== undefined) return `class ${o.describes}`;
  const named = o.threadName !== undefined ? `${o.className} "${o.threadName}"` : o.className;
  return withId ? `${named} ${o.id}` : named;
}

/**
 * A frame holding an object, in the words every format uses: `a local variable of
 * com.acme.Export.run(Export.java:23) in thread "export"` (the frame's depth when the dump recorded no
 * stack; the thread's id when its name is unknown). Raw: each renderer escapes it.
 */
function stackFrameText(h: StackFrameHold): string {
  const frame = h.frame ?? `frame ${h.depth} of the stack`;
  const thread =
    h.threadName !== undefined ? `thread "${h.threadName}"` : h.threadId !== undefined ? `thread ${h.threadId}` : 'a thread the dump has no object for';
  return `a local variable of ${frame} in ${thread}`;
}

/**
 * The frames holding an object, in those words, joined (`…; …; and 3 more frames`), the first
 * `listed` of them; '' when none. Raw: each renderer escapes it.
 */
export function stackFramesText(o: Pick<RetainedObject, 'stackFrames' | 'moreStackFrames'>, listed = Number.POSITIVE_INFINITY): string {
  const frames = o.stackFrames ?? [];
  const more = Math.max(0, frames.length - listed) + (o.moreStackFrames ?? 0);
  const text = frames.slice(0, listed).map(stackFrameText).join('; ');
  return more > 0 ? `${text}; and ${countOf(more, 'more frame')}` : text;
}

/**
 * What the threads' stacks keep of a suspect, in the words every format uses: `a local variable of
 * com.acme.Export.run(Export.java:23) in thread "export" holds java.util.ArrayList 0x… (1.4 MiB)`;
 * '' when no stack keeps it. Raw: each renderer escapes it.
 */
export function stackHolderText(x: LeakSuspect): string {
  const h = x.stackHolder;
  return h === undefined ? '' : `${stackFramesText(h)} holds ${retainedObjectName(h, true)} (${approximateBytes(h.retained)})`;
}

/**
 * What an accumulation point holds, in the words every format uses (`the biggest java.util.HashMap
 * 0x… (773.2 MiB), …`); '' when nothing it holds stands out. Raw: each renderer escapes it.
 */
export function biggestHeldText(a: LeakSuspect['accumulation']): string {
  if (a.biggest === undefined || a.biggest.length === 0) return '';
  return `the biggest ${a.biggest.map((o) => `${retainedObjectName(o, true)} (${approximateBytes(o.retained)})`).join(', ')}`;
}

/**
 * A class suspect's instances, in the words every format uses, reconciled with the class table:
 * `10,592 of the 31,968 instances of java.lang.ref.Finalizer` (the top-level ones of all), or
 * `6 instances of java.util.zip.ZipFile$Source` when they are all. Raw: each renderer escapes it.
 */
export function classSuspectText(x: LeakSuspect): string {
  const all = x.classInstances;
  return all !== undefined && all > x.instances
    ? `${countText(x.instances)} of the ${countText(all)} instances of ${x.className}`
    : `${countText(x.instances)} instances of ${x.className}`;
}
