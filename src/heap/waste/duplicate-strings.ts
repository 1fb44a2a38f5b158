/**
 * Values held as several distinct java.lang.String objects, and what a dedup would give back: every
 * String but one, and every array of characters but one. Copies made with `new String(s)` share
 * their array, so for them only the String objects would go.
 */
import type { DuplicateStringsWaste, DuplicateStringValue } from '../../model/memory-waste.js';
import type { HeapView } from '../heap-view.js';
import { isRef } from '../heap-view.js';
import { HolderTally } from './holder-tally.js';
import type { Holders } from './holders.js';
import type { ShallowSizes } from './shallow-sizes.js';

/** Characters of a value kept in the result: enough to recognise it. */
const SHOWN_CHARACTERS = 200;

interface Copies {
  readonly strings: number[];
  readonly arrays: Set<number>;
  length: number;
}

export interface DuplicateStringOptions {
  /** Values listed, those held most often first. */
  readonly topValues: number;
  /** Holders listed per value and over all values. */
  readonly topHolders: number;
}

export function duplicateStrings(
  view: HeapView,
  sizes: ShallowSizes,
  holders: Holders,
  options: DuplicateStringOptions,
): { waste: Omit<DuplicateStringsWaste, 'shareOfHeap'>; unread: number } {
  const byValue = new Map<string, Copies>();
  let strings = 0;
  let unread = 0;
  for (const s of view.instancesOf('java.lang.String', { subclasses: false })) {
    const text = view.string(s);
    const array = view.field(s, 'value');
    if (text === undefined || !isRef(array)) {
      unread++;
      continue;
    }
    strings++;
    let c = byValue.get(text);
    if (c === undefined) byValue.set(text, (c = { strings: [], arrays: new Set(), length: text.length }));
    c.strings.push(s.id);
    c.arrays.add(array.ref);
  }
  const all = new HolderTally();
  const values: Array<DuplicateStringValue & { readonly ids: readonly number[] }> = [];
  let extraCopies = 0;
  let wastedBytes = 0;
  let jdkWastedBytes = 0;
  for (const [text, c] of byValue) {
    if (c.strings.length < 2) continue;
    extraCopies += c.strings.length - 1;
    const stringBytes = c.strings.map((id) => sizes.of(id) ?? 0);
    const arrayBytes = [...c.arrays].map((id) => sizes.of(id) ?? 0);
    // The copy kept is the first; every other String, and every other array, would go.
    const wasted = sum(stringBytes) - stringBytes[0]! + sum(arrayBytes) - arrayBytes[0]!;
    wastedBytes += wasted;
    // Each copy's share of the value's waste, to its holder.
    const tally = new HolderTally();
    const each = wasted / c.strings.length;
    for (const id of c.strings) tally.add(holders.holderOf(id), each);
    for (const h of tally.entries()) {
      all.add(h.holder, h.wastedBytes, h.objects);
      if (h.jdk) jdkWastedBytes += h.wastedBytes;
    }
    values.push({
      value: text.slice(0, SHOWN_CHARACTERS),
      length: c.length,
      copies: c.strings.length,
      valueArrays: c.arrays.size,
      wastedBytes: wasted,
      holders: tally.top(options.topHolders),
      ids: c.strings,
    });
  }
  // The values held most often first (what a dedup of the hottest values would reach), then the bytes they waste.
  values.sort((a, b) => b.copies - a.copies || b.wastedBytes - a.wastedBytes || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return {
    waste: {
      strings,
      distinctValues: byValue.size,
      valuesHeldMoreThanOnce: values.length,
      extraCopies,
      wastedBytes,
      jdkWastedBytes: Math.round(jdkWastedBytes),
      values: values.slice(0, options.topValues).map(({ ids: _ids, ...v }) => v),
      holders: all.top(options.topHolders),
    },
    unread,
  };
}

function sum(xs: readonly number[]): number {
  let t = 0;
  for (const x of xs) t += x;
  return t;
}
