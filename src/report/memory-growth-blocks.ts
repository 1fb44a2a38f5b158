/**
 * The growth section of the memory report (`memory --baseline`) as format-neutral blocks, for the
 * Markdown and HTML reports: the dumps compared, what holds the new objects with its path, the classes
 * by growth (with the instances at each dump from three dumps on). Worded as the text (memory-growth-text.ts).
 */
import { countText } from '../model/count-text.js';
import { change, type MemoryGrowth } from '../model/memory-growth.js';
import type { DocBlock } from './doc-blocks.js';
import {
  grew,
  growthClassesTitle,
  growthCutLines,
  growthHolderItem,
  growthMoreText,
  growthTotalsLine,
  HOLDERS_TITLE,
  momentText,
  signedBytes,
  signedCount,
} from './memory-growth-text.js';

export function growthBlocks(g: MemoryGrowth, rows: number): DocBlock[] {
  const several = g.moments.length > 2;
  const out: DocBlock[] = [
    { kind: 'heading', level: 1, text: `Growth over ${g.moments.length} heap dumps` },
    { kind: 'para', text: 'oldest first:' },
    { kind: 'list', ordered: true, items: g.moments.map((m) => ({ text: momentText(m) })) },
    ...growthCutLines(g).map((text): DocBlock => ({ kind: 'para', text, tone: 'warning' })),
    { kind: 'para', text: growthTotalsLine(g) },
  ];
  const growing = g.classes.filter(grew);
  if (growing.length === 0) {
    const source = (k: number) => g.moments[k]!.source;
    out.push({ kind: 'para', text: `nothing grew: no class has more instances or shallow bytes in ${source(g.moments.length - 1)} than in ${source(0)}` });
    return out;
  }
  if (g.holders.length > 0)
    out.push({ kind: 'heading', level: 2, text: HOLDERS_TITLE }, { kind: 'list', ordered: true, items: g.holders.map((h) => growthHolderItem(g, h)) });
  const shown = growing.slice(0, rows);
  const more = growthMoreText(g, shown.length);
  out.push(
    { kind: 'heading', level: 2, text: growthClassesTitle(g) },
    {
      kind: 'table',
      head: ['instances', 'shallow', 'retained', 'class', ...(several ? ['instances at each dump'] : [])],
      right: [0, 1, 2],
      rows: shown.map((c) => [
        signedCount(change(c.instances)),
        signedBytes(change(c.shallow)),
        signedBytes(change(c.retained)),
        c.className,
        ...(several ? [c.instances.map(countText).join(' -> ')] : []),
      ]),
      ...(more !== undefined ? { more } : {}),
    },
  );
  return out;
}
