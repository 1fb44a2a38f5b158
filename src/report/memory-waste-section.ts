/**
 * The memory-waste section of the memory reports (issue 49), worded once as format-neutral blocks:
 * one line of the whole waste and its share of the heap, then each kind with its biggest rows and
 * holders, the JDK's own part said apart (the program cannot change it), and what the analysis did
 * not see. Draws what MemoryWaste says; values from the dump stay raw here (the drawers escape them)
 * and are cut, quoted, to a length that fits a table cell.
 */
import { approximateBytes } from '../model/bytes.js';
import { countOf, countText, shareText } from '../model/count-text.js';
import type { MemoryWaste, WasteHolder } from '../model/memory-waste.js';
import type { DocBlock, DocItem } from './doc-blocks.js';

/** Rows per kind: the text and Markdown keep a ticket short, the HTML page has room for more. */
export const WASTE_ROWS_SHORT = 5;
export const WASTE_ROWS_LONG = 20;

/** Characters of a duplicate string's value shown (the model keeps 200). */
const VALUE_CHARS = 60;

const WASTE_TITLE = 'Memory waste (the shallow bytes a fix would give back)';

/**
 * A value from the dump as a quoted literal, cut: JSON's quoting spells a line break or an escape
 * character as `\n` or `\u001b`, so the value reads on one line and carries no control character.
 */
function quotedValue(value: string, length: number, max = VALUE_CHARS): string {
  const cut = value.length > max ? `${value.slice(0, max - 1)}…` : value;
  const more = length > max ? ` (${countText(length)} chars)` : '';
  return `${JSON.stringify(cut)}${more}`;
}

const bytesAndShare = (bytes: number, heap: number, what = '') => `${approximateBytes(bytes)}${what} (${shareText(bytes, heap)} of the heap)`;

/** A holder, with `(JDK)` when it is the JDK's own field: the program cannot change what it keeps. */
const holderName = (holder: string, jdk: boolean) => (jdk ? `${holder} (JDK)` : holder);

/** `, 13.4 KiB of it in the JDK's own fields`, or nothing when none of it is. */
const jdkPart = (jdkBytes: number) => (jdkBytes > 0 ? `; ${approximateBytes(jdkBytes)} of it in the JDK's own fields (the program cannot change those)` : '');

/** `… 15 more values` under a table that lists `shown` of `all`. */
const moreRows = (all: number, shown: number, what: string) => (all > shown ? { more: `… ${countText(all - shown)} more ${what}` } : {});

const holdersText = (holders: readonly WasteHolder[], listed: number) =>
  holders
    .slice(0, listed)
    .map((h) => holderName(h.holder, h.jdk))
    .join(', ') + (holders.length > listed ? `, and ${countText(holders.length - listed)} more` : '');

/**
 * The section: a title, the whole waste in one line, each kind that has any with its biggest rows
 * (`rows` of them), the kinds with none in one line, and the analysis's notes (always: an unread part
 * is said, never taken as clean). A waste of zero bytes says there is none, with no empty table.
 */
export function wasteBlocks(w: MemoryWaste, rows: number): DocBlock[] {
  const heap = w.heapBytes;
  const out: DocBlock[] = [{ kind: 'heading', level: 1, text: WASTE_TITLE }];
  const jdk =
    w.duplicateStrings.jdkWastedBytes +
    w.emptyCollections.jdkWastedBytes +
    w.sparseCollections.jdkWastedBytes +
    w.boxedInCollections.jdkWastedBytes +
    w.zeroArrays.jdkWastedBytes;
  out.push({
    kind: 'para',
    text:
      w.wastedBytes === 0
        ? `none found in the ${approximateBytes(heap)} heap: no duplicate string, empty or sparse collection, ` +
          'boxed number in a collection or all-zero primitive array'
        : `${approximateBytes(w.wastedBytes)} of the ${approximateBytes(heap)} heap (${shareText(w.wastedBytes, heap)}) is spent on nothing` +
          `${jdk > 0 ? `; ${approximateBytes(jdk)} of it is held by the JDK's own fields, which the program cannot change` : ''}`,
  });
  const notes = w.notes.map((n): DocItem => ({ text: `note: ${n}` }));
  if (w.wastedBytes === 0) return notes.length > 0 ? [...out, { kind: 'list', items: notes }] : out;
  const none: string[] = [];
  const d = w.duplicateStrings;
  if (d.wastedBytes > 0) {
    out.push(
      { kind: 'heading', level: 2, text: `Duplicate strings: ${bytesAndShare(d.wastedBytes, heap)}` },
      {
        kind: 'para',
        text:
          `${countOf(d.valuesHeldMoreThanOnce, 'value')} held as several String objects: ${countText(d.extraCopies)} extra copies ` +
          `(of ${countText(d.strings)} strings, ${countText(d.distinctValues)} distinct values); a dedup (one String per value) saves ` +
          `${approximateBytes(d.wastedBytes)}${jdkPart(d.jdkWastedBytes)}`,
      },
      {
        kind: 'table',
        head: ['copies', 'value arrays', 'dedup saves', 'value', 'held by'],
        right: [0, 1, 2],
        rows: d.values
          .slice(0, rows)
          .map((v) => [
            countText(v.copies),
            countText(v.valueArrays),
            approximateBytes(v.wastedBytes),
            quotedValue(v.value, v.length),
            holdersText(v.holders, 2),
          ]),
        ...moreRows(d.valuesHeldMoreThanOnce, Math.min(rows, d.values.length), 'values held more than once'),
      },
    );
    if (d.holders.length > 0)
      out.push({
        kind: 'table',
        head: ['extra copies', 'dedup saves', 'what keeps the extra copies'],
        right: [0, 1],
        rows: d.holders.slice(0, rows).map((h) => [countText(h.objects), approximateBytes(h.wastedBytes), holderName(h.holder, h.jdk)]),
        ...moreRows(d.holders.length, Math.min(rows, d.holders.length), 'holders'),
      });
  } else none.push('duplicate strings');
  const e = w.emptyCollections;
  if (e.count > 0) {
    out.push(
      { kind: 'heading', level: 2, text: `Empty collections: ${bytesAndShare(e.wastedBytes, heap)}` },
      {
        kind: 'para',
        text: `${countOf(e.count, 'empty collection')}: ${e.byClass
          .slice(0, rows)
          .map((c) => `${countText(c.count)} ${c.className} (${approximateBytes(c.wastedBytes)})`)
          .join(', ')}${e.byClass.length > rows ? `, and ${countOf(e.byClass.length - rows, 'more class', 'more classes')}` : ''}${jdkPart(e.jdkWastedBytes)}`,
      },
      {
        kind: 'table',
        head: ['empty', 'bytes', 'slots allocated', 'class', 'held by'],
        right: [0, 1, 2],
        rows: e.groups
          .slice(0, rows)
          .map((g) => [countText(g.count), approximateBytes(g.wastedBytes), countText(g.slots), g.className, holderName(g.holder, g.jdk)]),
        ...moreRows(e.groups.length, Math.min(rows, e.groups.length), 'groups'),
      },
    );
  } else none.push('empty collections');
  const s = w.sparseCollections;
  if (s.count > 0) {
    out.push(
      { kind: 'heading', level: 2, text: `Sparse collections: ${bytesAndShare(s.wastedBytes, heap, ' of unused table')}` },
      { kind: 'para', text: `${countOf(s.count, 'collection')} (${s.criterion})${jdkPart(s.jdkWastedBytes)}` },
      {
        kind: 'table',
        head: ['collections', 'entries', 'slots', 'fill', 'unused', 'class', 'held by'],
        right: [0, 1, 2, 3, 4],
        rows: s.groups
          .slice(0, rows)
          .map((g) => [
            countText(g.count),
            countText(g.entries),
            countText(g.slots),
            `${(g.fillRatio * 100).toFixed(1)}%`,
            approximateBytes(g.wastedBytes),
            g.className,
            holderName(g.holder, g.jdk),
          ]),
        ...moreRows(s.groups.length, Math.min(rows, s.groups.length), 'groups'),
      },
    );
  } else none.push('sparse collections');
  const b = w.boxedInCollections;
  if (b.count > 0) {
    out.push(
      { kind: 'heading', level: 2, text: `Boxed numbers in collections: ${bytesAndShare(b.wastedBytes, heap, ' over their primitives')}` },
      {
        kind: 'para',
        text:
          `${countOf(b.count, 'boxed number')} in collections (each box less the primitive it holds)${jdkPart(b.jdkWastedBytes)}` +
          `${b.inJdkCaches > 0 ? `; ${countText(b.inJdkCaches)} more in the JDK's own caches (Integer.valueOf's and its kind) are not counted` : ''}`,
      },
      {
        kind: 'table',
        head: ['boxes', 'bytes', 'boxed', 'in', 'held by'],
        right: [0, 1],
        rows: b.groups
          .slice(0, rows)
          .map((g) => [countText(g.count), approximateBytes(g.wastedBytes), g.boxedClass, g.collectionClass, holderName(g.holder, g.jdk)]),
        ...moreRows(b.groups.length, Math.min(rows, b.groups.length), 'groups'),
      },
    );
  } else none.push('boxed numbers in collections');
  const z = w.zeroArrays;
  if (z.count > 0) {
    out.push(
      { kind: 'heading', level: 2, text: `All-zero primitive arrays: ${bytesAndShare(z.wastedBytes, heap)}` },
      {
        kind: 'para',
        text: `${countOf(z.count, 'primitive array')} holding only zeros: ${z.byShape
          .slice(0, rows)
          .map((x) => `${countText(x.count)} × ${x.shape} (${approximateBytes(x.bytes)})`)
          .join(', ')}${z.byShape.length > rows ? `, and ${countOf(z.byShape.length - rows, 'more shape')}` : ''}${jdkPart(z.jdkWastedBytes)}`,
      },
      {
        kind: 'table',
        head: ['arrays', 'bytes', 'held by'],
        right: [0, 1],
        rows: z.holders.slice(0, rows).map((h) => [countText(h.objects), approximateBytes(h.wastedBytes), holderName(h.holder, h.jdk)]),
        ...moreRows(z.holders.length, Math.min(rows, z.holders.length), 'holders'),
      },
    );
  } else none.push('all-zero primitive arrays');
  if (none.length > 0) out.push({ kind: 'para', text: `none found: ${none.join(', ')}` });
  if (notes.length > 0) out.push({ kind: 'list', items: notes });
  return out;
}
