/**
 * Primitive arrays whose every element is zero: allocated and never written (or cleared and kept),
 * by type and length, with what keeps them. An empty array (length 0) is not counted: it holds
 * nothing to write.
 */
import type { ZeroArraysWaste } from '../../model/memory-waste.js';
import type { HeapView } from '../heap-view.js';
import { HolderTally } from './holder-tally.js';
import type { Holders } from './holders.js';
import type { ShallowSizes } from './shallow-sizes.js';

export function zeroArrays(view: HeapView, sizes: ShallowSizes, holders: Holders, topGroups: number): Omit<ZeroArraysWaste, 'shareOfHeap'> {
  const byShape = new Map<string, { count: number; bytes: number }>();
  const tally = new HolderTally();
  for (const o of view.store.objects.values()) {
    if (o.kind !== 'primitive-array' || o.values.length === 0 || !allZero(o.values)) continue;
    const shape = `${o.elementType}[${o.values.length}]`;
    const bytes = sizes.of(o.id) ?? 0;
    const s = byShape.get(shape) ?? { count: 0, bytes: 0 };
    byShape.set(shape, { count: s.count + 1, bytes: s.bytes + bytes });
    tally.add(holders.holderOf(o.id), bytes);
  }
  const shapes = [...byShape].map(([shape, s]) => ({ shape, ...s })).sort((a, b) => b.bytes - a.bytes || b.count - a.count || (a.shape < b.shape ? -1 : 1));
  const every = tally.entries();
  let count = 0;
  let wastedBytes = 0;
  for (const s of shapes) {
    count += s.count;
    wastedBytes += s.bytes;
  }
  const jdkWastedBytes = every.filter((h) => h.jdk).reduce((t, h) => t + h.wastedBytes, 0);
  return { count, wastedBytes, jdkWastedBytes, byShape: shapes.slice(0, topGroups), holders: tally.top(topGroups) };
}

function allZero(values: ReadonlyArray<number | bigint | boolean>): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== 0 && v !== 0n && v !== false) return false;
  }
  return true;
}
