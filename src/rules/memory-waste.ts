/**
 * Memory a heap spends on nothing, when it is a large share of the heap: duplicate strings, empty and
 * sparse collections, boxed numbers in collections, all-zero arrays (JXRay's report, MAT's "Java
 * basics" queries). The idea: waste the program can change (not the JDK's own fields) that a fix
 * would give back, measured against the whole heap, is worth a change when it reaches a tenth of it
 * and enough bytes to matter; each kind named with the field that keeps most of it.
 */
import { approximateBytes } from '../model/bytes.js';
import { countOf, shareText } from '../model/count-text.js';
import { type MemoryWaste, WASTE_KINDS, WASTE_SHARE_OPTIONS, type WasteHolder, type WasteKind } from '../model/memory-waste.js';
import type { Rule } from './rule.js';
import { wasteShare } from './support/waste-share.js';

export const memoryWaste: Rule = {
  meta: {
    id: 'memory-waste',
    defaultSeverity: 'warning',
    title: 'Memory waste',
    description:
      'A large share of the heap is spent on nothing: duplicate strings, empty and sparse collections, boxed numbers ' +
      'in collections, primitive arrays that hold only zeros (HPROF). What the JDK itself keeps is not counted.',
    remedy: 'Fix the holders named, biggest first; a second heap dump under the same load shows what the change gave back.',
    options: WASTE_SHARE_OPTIONS,
  },
  check({ model, options }) {
    const thresholds = {
      minShareOfHeap: Number(options['minShareOfHeap']),
      minKindShareOfHeap: Number(options['minKindShareOfHeap']),
      minWastedBytes: Number(options['minWastedBytes']),
      countJdkHolders: options['countJdkHolders'] === true,
    };
    return model.memory.flatMap((m) => {
      const w = m.summary?.waste;
      if (w === undefined) return [];
      const verdict = wasteShare(w, thresholds);
      if (!verdict.exceeds) return [];
      const named = verdict.kinds.length > 0 ? verdict.kinds : [biggestKind(w, thresholds.countJdkHolders)];
      const parts = named.map((k) => kindText(w, k, thresholds.countJdkHolders));
      const fixes = named.map((k) => KIND_WORDS[k].fix);
      return [
        {
          subject: m.input,
          message:
            `The heap spends ${approximateBytes(verdict.wastedBytes)} (${shareText(verdict.wastedBytes, w.heapBytes)} of its ` +
            `${approximateBytes(w.heapBytes)}) on nothing that the program can change: ${parts.join('; ')}.` +
            (w.notes.length > 0 ? ` Not seen: ${w.notes.join('; ')}.` : ''),
          facts: {
            wastedBytes: verdict.wastedBytes,
            share: Number(verdict.shareOfHeap.toFixed(4)),
            heapBytes: w.heapBytes,
            kinds: [...verdict.kinds],
            ...Object.fromEntries(WASTE_KINDS.map((k) => [`${k}Bytes`, w[k].wastedBytes - (thresholds.countJdkHolders ? 0 : w[k].jdkWastedBytes)])),
            topHolders: named.flatMap((k) =>
              programHolders(w, k, thresholds.countJdkHolders)
                .slice(0, 1)
                .map((h) => h.holder),
            ),
          },
          evidence: [],
          causedBy: [],
          remedy: `${fixes.map((f) => f.charAt(0).toUpperCase() + f.slice(1)).join('. ')}.`,
          impact: Math.round(verdict.shareOfHeap * 100),
        },
      ];
    });
  },
};

/** What each kind is called, and what to change for it. */
const KIND_WORDS: Readonly<Record<WasteKind, { readonly what: string; readonly fix: string }>> = {
  duplicateStrings: { what: 'duplicate strings', fix: 'intern or deduplicate the values where they are read (or run G1 with -XX:+UseStringDeduplication)' },
  emptyCollections: { what: 'empty collections', fix: 'create the collections when the first element comes, or share an empty immutable one' },
  sparseCollections: { what: 'sparse collections', fix: 'size the tables for what they hold (a smaller initial capacity)' },
  boxedInCollections: { what: 'boxed numbers in collections', fix: 'keep the numbers in primitive arrays or primitive collections' },
  zeroArrays: { what: 'all-zero arrays', fix: 'allocate the arrays when they are first written, or free them after use' },
};

function biggestKind(w: MemoryWaste, countJdk: boolean): WasteKind {
  const bytes = (k: WasteKind) => w[k].wastedBytes - (countJdk ? 0 : w[k].jdkWastedBytes);
  return [...WASTE_KINDS].sort((a, b) => bytes(b) - bytes(a))[0]!;
}

/** The holders of a kind the program can change (all, when the JDK's are counted), most bytes first. */
function programHolders(w: MemoryWaste, k: WasteKind, countJdk: boolean): WasteHolder[] {
  const rows: WasteHolder[] =
    k === 'duplicateStrings'
      ? [...w.duplicateStrings.holders]
      : k === 'zeroArrays'
        ? [...w.zeroArrays.holders]
        : w[k].groups.map((g) => ({ holder: g.holder, objects: g.count, wastedBytes: g.wastedBytes, jdk: g.jdk }));
  return rows.filter((h) => countJdk || !h.jdk).sort((a, b) => b.wastedBytes - a.wastedBytes);
}

/** `1.4 MiB of all-zero arrays (394 arrays), most kept by com.acme.Catalog.BUFFERS (static)`. */
function kindText(w: MemoryWaste, k: WasteKind, countJdk: boolean): string {
  const bytes = w[k].wastedBytes - (countJdk ? 0 : w[k].jdkWastedBytes);
  const top = programHolders(w, k, countJdk)[0];
  const example =
    k === 'duplicateStrings' && w.duplicateStrings.values[0] !== undefined
      ? `, as "${w.duplicateStrings.values[0].value.slice(0, 40)}" held ${countOf(w.duplicateStrings.values[0].copies, 'time')}`
      : '';
  const objects = k === 'duplicateStrings' ? w.duplicateStrings.extraCopies : w[k].count;
  const keptBy = top !== undefined ? `, most kept by ${top.holder}` : '';
  return `${approximateBytes(bytes)} of ${KIND_WORDS[k].what} (${countOf(objects, 'object')})${keptBy}${example}`;
}
