/**
 * The Memory section of an analysis report, as content every format draws the same way: per heap
 * dump, one line of totals, the biggest retainers, the leak suspects and the classes by retained
 * size (or why the memory analysis did not run). Strings from the dump are left raw: each
 * renderer escapes them for its format.
 */
import { approximateBytes } from '../model/bytes.js';
import { countText, shareText } from '../model/count-text.js';
import { biggestHeldText, classSuspectText, type HeapMemoryModel, type RetainedObject, retainedObjectName, stackHolderText } from '../model/memory.js';
import type { MemoryWaste } from '../model/memory-waste.js';
import { classLoaderEntries, type ClassLoaderEntry } from './class-loaders-report.js';

export interface MemoryRow {
  readonly name: string;
  readonly id: string;
  readonly retained: number;
  readonly retainedText: string;
  /** Share of the reachable heap, 0..1, and as text (`12.5%`). */
  readonly share: number;
  readonly shareText: string;
}

export interface MemorySection {
  readonly input: string;
  readonly headline: string;
  /** The object layout shallow sizes were worked out under, when the dump does not record sizes. */
  readonly sizes?: string;
  readonly retainers: MemoryRow[];
  readonly suspects: string[];
  readonly classes: Array<{ readonly className: string; readonly instances: number; readonly retainedText: string; readonly shareText: string }>;
  /** Classes defined by several class loaders: per class, its line, what keeps its loaders, its biggest loaders (raw text). */
  readonly classLoaders?: ClassLoaderEntry[];
  /** Memory the heap spends on nothing, when it was looked for (each format draws it with memory-waste-section.ts). */
  readonly waste?: MemoryWaste;
}

/** Retainers and classes listed per heap dump in reports (the JSON carries the same lists). */
const MEMORY_ROWS = 10;

const pct = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** A retainer as a row of the reports' lists and charts. */
export function retainerRow(o: RetainedObject, heap: number): MemoryRow {
  return {
    name: retainedObjectName(o),
    id: o.id,
    retained: o.retained,
    retainedText: approximateBytes(o.retained),
    share: pct(o.retained, heap),
    shareText: shareText(o.retained, heap),
  };
}

export function memorySections(memory: readonly HeapMemoryModel[]): MemorySection[] {
  return memory.map((m) => {
    const s = m.summary;
    if (s === undefined)
      return { input: m.input, headline: `what holds its memory was ${m.skipped ?? 'not computed'}`, retainers: [], suspects: [], classes: [] };
    const heap = s.retainedBytes;
    return {
      input: m.input,
      ...(s.sizeModel !== undefined ? { sizes: `object sizes: ${s.sizeModel.summary}` } : {}),
      headline:
        `${countText(s.reachableObjects)} objects reachable from the GC roots retain ${approximateBytes(heap)}; ` +
        `${countText(s.unreachable.objects)} unreachable objects (${approximateBytes(s.unreachable.bytes)}) are left out; ` +
        (s.suspects.length === 0
          ? 'no object or class retains 10% of the heap'
          : `${s.suspects.length === 1 ? 'one object or class retains' : `${s.suspects.length} objects or classes retain`} 10% of ` +
            `it or more (MAT's leak-suspect test; the memory-leak-suspect rule says which of them are big enough to be findings)`),
      retainers: s.dominators.slice(0, MEMORY_ROWS).map((o) => retainerRow(o, heap)),
      suspects: s.suspects.map((x) => {
        const who = x.kind === 'object' ? `${retainedObjectName(x.subject)} ${x.subject.id}` : classSuspectText(x);
        const a = x.accumulation;
        const held = biggestHeldText(a);
        const where =
          a.chainLinks !== undefined
            ? `, accumulating in ${retainedObjectName(a)} ${a.id} (the first of ${countText(a.chainLinks)} linked nodes)`
            : a.index !== x.subject.index
              ? `, accumulating in ${retainedObjectName(a)} ${a.id}${held !== '' ? ` (${held})` : ''}`
              : '';
        const stack = stackHolderText(x);
        const onStack = stack !== '' ? `; held on a thread's stack: ${stack}` : '';
        return `${who} retain${x.kind === 'object' ? 's' : ''} ${approximateBytes(x.retained)} (${shareText(x.retained, heap)})${where}${onStack}`;
      }),
      ...(s.classLoaders !== undefined && s.classLoaders.classes.length > 0 ? { classLoaders: classLoaderEntries(s.classLoaders) } : {}),
      ...(s.waste !== undefined ? { waste: s.waste } : {}),
      classes: s.classes.slice(0, MEMORY_ROWS).map((c) => ({
        className: c.className,
        instances: c.instances,
        retainedText: approximateBytes(c.retained),
        shareText: shareText(c.retained, heap),
      })),
    };
  });
}
