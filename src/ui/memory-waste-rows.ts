/**
 * The Memory screen's rows for a heap's memory waste (model/memory-waste.ts): one row with the total
 * and its share of the heap, then a row per kind found (duplicate strings, empty and sparse
 * collections, boxed numbers in collections, all-zero arrays) that `+` opens to its biggest groups,
 * each with the holder that keeps it. The JDK's own part (its fields and constant pools: nothing the
 * program can change) is said apart, and what the analysis could not see is in the total's detail.
 * Nothing is drawn for a heap whose summary carries no waste (not looked for). Every string from the
 * dump goes through stripControl here; a string's value is quoted and cut.
 */
import { approximateBytes } from '../model/bytes.js';
import { countText, shareText } from '../model/count-text.js';
import type { MemoryWaste, WasteHolder, WasteKind } from '../model/memory-waste.js';
import { stripControl as clean } from '../report/sanitize.js';
import type { Tone, UiDetailLine, UiRow } from './view-data.js';

/** Groups shown under a kind's row, and in its detail. */
const TOP_ROWS = 5;
const DETAIL_LINES = 10;
/** Characters of a duplicated string's value shown. */
const VALUE_CHARS = 60;
/** A kind, or all of them, wasting this share of the heap or more is drawn as an alert. */
const ALERT_SHARE = 0.1;

const KIND_NAMES: Readonly<Record<WasteKind, string>> = {
  duplicateStrings: 'duplicate strings',
  emptyCollections: 'empty collections',
  sparseCollections: 'sparse collections',
  boxedInCollections: 'boxed numbers in collections',
  zeroArrays: 'all-zero arrays',
};
const KINDS = Object.keys(KIND_NAMES) as WasteKind[];

/** One line of a kind's biggest: what it is, how many, the bytes, who keeps it. */
interface WasteLine {
  readonly what: string;
  readonly holder: string;
  readonly jdk: boolean;
  readonly bytes: number;
}

const quoted = (value: string, length: number) => {
  const shown = clean(value).slice(0, VALUE_CHARS);
  return `"${shown}"${length > shown.length ? '…' : ''}`;
};
const jdkText = (jdk: boolean) => (jdk ? " (the JDK's own)" : '');
const bytesAndShare = (bytes: number, heap: number) => `${approximateBytes(bytes)} (${shareText(bytes, heap)})`;

/** What a kind holds, in one sentence, and its biggest groups, from the model's figures. */
function kindParts(w: MemoryWaste, kind: WasteKind): { count: number; bytes: number; jdkBytes: number; said: string; lines: WasteLine[] } {
  switch (kind) {
    case 'duplicateStrings': {
      const d = w.duplicateStrings;
      return {
        count: d.extraCopies,
        bytes: d.wastedBytes,
        jdkBytes: d.jdkWastedBytes,
        said: `${countText(d.extraCopies)} extra copies of ${countText(d.valuesHeldMoreThanOnce)} values (of ${countText(d.strings)} strings)`,
        lines: d.values.map((v) => {
          const top: WasteHolder | undefined = v.holders[0];
          return {
            what: `${quoted(v.value, v.length)} ×${countText(v.copies)}`,
            holder: top !== undefined ? `${clean(top.holder)}${v.holders.length > 1 ? ` and ${countText(v.holders.length - 1)} more` : ''}` : '?',
            jdk: v.holders.length > 0 && v.holders.every((h) => h.jdk),
            bytes: v.wastedBytes,
          };
        }),
      };
    }
    case 'emptyCollections': {
      const e = w.emptyCollections;
      return {
        count: e.count,
        bytes: e.wastedBytes,
        jdkBytes: e.jdkWastedBytes,
        said: `${countText(e.count)} collections with nothing in them (${e.byClass
          .slice(0, 3)
          .map((c) => `${countText(c.count)} ${clean(c.className)}`)
          .join(', ')}${e.byClass.length > 3 ? ', …' : ''})`,
        lines: e.groups.map((g) => ({
          what: `${countText(g.count)} ${clean(g.className)}${g.slots > 0 ? ` (${countText(g.slots)} slots allocated)` : ''}`,
          holder: clean(g.holder),
          jdk: g.jdk,
          bytes: g.wastedBytes,
        })),
      };
    }
    case 'sparseCollections': {
      const s = w.sparseCollections;
      return {
        count: s.count,
        bytes: s.wastedBytes,
        jdkBytes: s.jdkWastedBytes,
        said: `${countText(s.count)} collections using little of their tables (${clean(s.criterion)})`,
        lines: s.groups.map((g) => ({
          what:
            `${countText(g.count)} ${clean(g.className)}, ` +
            `${countText(g.entries)} entries in ${countText(g.slots)} slots (${shareText(g.entries, g.slots)} used)`,
          holder: clean(g.holder),
          jdk: g.jdk,
          bytes: g.wastedBytes,
        })),
      };
    }
    case 'boxedInCollections': {
      const b = w.boxedInCollections;
      return {
        count: b.count,
        bytes: b.wastedBytes,
        jdkBytes: b.jdkWastedBytes,
        said:
          `${countText(b.count)} boxed numbers held in collections` +
          (b.inJdkCaches > 0 ? `; ${countText(b.inJdkCaches)} more in the JDK's own caches (Integer.valueOf's and its kind), not counted` : ''),
        lines: b.groups.map((g) => ({
          what: `${countText(g.count)} ${clean(g.boxedClass)} in ${clean(g.collectionClass)}`,
          holder: clean(g.holder),
          jdk: g.jdk,
          bytes: g.wastedBytes,
        })),
      };
    }
    case 'zeroArrays': {
      const z = w.zeroArrays;
      return {
        count: z.count,
        bytes: z.wastedBytes,
        jdkBytes: z.jdkWastedBytes,
        said: `${countText(z.count)} primitive arrays holding only zeros (${z.byShape
          .slice(0, 3)
          .map((s) => `${countText(s.count)} ${clean(s.shape)}`)
          .join(', ')}${z.byShape.length > 3 ? ', …' : ''})`,
        lines: z.holders.map((h) => ({ what: `${countText(h.objects)} arrays`, holder: clean(h.holder), jdk: h.jdk, bytes: h.wastedBytes })),
      };
    }
  }
}

export function memoryWasteRows(w: MemoryWaste | undefined, heap: number): UiRow[] {
  if (w === undefined) return [];
  const heapBytes = w.heapBytes;
  const parts = KINDS.map((kind) => ({ kind, ...kindParts(w, kind) }));
  const found = parts.filter((p) => p.count > 0 || p.bytes > 0);
  const jdkBytes = parts.reduce((n, p) => n + p.jdkBytes, 0);
  const rows: UiRow[] = [
    {
      key: `memory:${heap}:waste`,
      text:
        found.length === 0
          ? '  WASTE none found (no duplicate strings, empty or sparse collections, boxed numbers in collections or all-zero arrays)'
          : `  WASTE ${shareText(w.wastedBytes, heapBytes).padStart(6)} ${approximateBytes(w.wastedBytes)} of the heap's ${approximateBytes(heapBytes)} ` +
            `spent on nothing: ${found.map((p) => `${KIND_NAMES[p.kind]} ${approximateBytes(p.bytes)}`).join(', ')}`,
      tone: found.length === 0 ? 'dim' : w.shareOfHeap >= ALERT_SHARE ? 'alert' : 'info',
      search: 'waste',
      detail: [
        { text: 'memory waste: bytes a fix would give back (shallow sizes, as the dump lays objects out)', tone: 'title' },
        { text: `  ${bytesAndShare(w.wastedBytes, heapBytes)} of the heap's ${approximateBytes(heapBytes)} shallow; no object is counted by two kinds` },
        ...parts.map((p) => ({
          text: `  ${KIND_NAMES[p.kind].padEnd(29)} ${approximateBytes(p.bytes).padStart(10)} ${shareText(p.bytes, heapBytes).padStart(6)}`,
          ...(p.count === 0 ? { tone: 'dim' as Tone } : {}),
        })),
        {
          text:
            jdkBytes > 0
              ? `  of which the JDK's own fields and constant pools keep ${approximateBytes(jdkBytes)}: the program cannot change that part`
              : "  none of it is kept by the JDK's own fields",
          tone: 'dim',
        },
        ...(w.notes.length > 0 ? [{ text: 'what the analysis could not see', tone: 'title' as Tone }] : []),
        ...w.notes.map((n) => ({ text: `  ${clean(n)}`, tone: 'warning' as Tone })),
        ...(found.length > 0 ? [{ text: '  + opens a kind below to its biggest holders', tone: 'dim' as Tone }] : []),
      ],
    },
  ];
  for (const p of found) {
    const key = `memory:${heap}:waste:${p.kind}`;
    const top = p.lines.slice(0, TOP_ROWS);
    const lineText = (l: WasteLine) => `${approximateBytes(l.bytes).padStart(10)}  ${l.what} kept by ${l.holder}${jdkText(l.jdk)}`;
    const detail: UiDetailLine[] = [
      { text: `${KIND_NAMES[p.kind]}: ${bytesAndShare(p.bytes, heapBytes)} of the heap`, tone: 'title' },
      { text: `  ${p.said}` },
      ...(p.jdkBytes > 0 ? [{ text: `  of which ${approximateBytes(p.jdkBytes)} the JDK's own fields keep`, tone: 'dim' as Tone }] : []),
      { text: 'biggest, with what keeps them', tone: 'title' },
      ...p.lines.slice(0, DETAIL_LINES).map((l) => ({ text: `  ${lineText(l)}`, ...(l.jdk ? { tone: 'dim' as Tone } : {}) })),
      ...(p.lines.length > DETAIL_LINES ? [{ text: `  … ${countText(p.lines.length - DETAIL_LINES)} more`, tone: 'dim' as Tone }] : []),
    ];
    rows.push({
      key,
      text: `WASTE ${KIND_NAMES[p.kind].padEnd(29)} ${approximateBytes(p.bytes).padStart(10)} ${shareText(p.bytes, heapBytes).padStart(6)}  ${p.said}`,
      tone: p.bytes >= heapBytes * ALERT_SHARE ? 'alert' : undefined,
      search: `waste ${KIND_NAMES[p.kind]} ${p.lines.map((l) => l.holder).join(' ')}`.toLowerCase(),
      detail,
      tree: { depth: 0, children: top.length },
    });
    top.forEach((l, i) =>
      rows.push({
        key: `${key}:${i}`,
        text: lineText(l),
        ...(l.jdk ? { tone: 'dim' as Tone } : {}),
        search: `waste ${l.what} ${l.holder}`.toLowerCase(),
        detail: [
          { text: `${KIND_NAMES[p.kind]}: ${l.what}`, tone: 'title' },
          { text: `  ${bytesAndShare(l.bytes, heapBytes)} of the heap would come back` },
          { text: `  kept by ${l.holder}${jdkText(l.jdk)}` },
          ...(l.jdk ? [{ text: "  a field of the JDK's own (or a class's constant pool): the program cannot change it", tone: 'dim' as Tone }] : []),
        ],
        tree: { depth: 1, parent: key, children: 0 },
      }),
    );
  }
  return rows;
}
