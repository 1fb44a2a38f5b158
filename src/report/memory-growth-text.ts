/**
 * The growth section of the memory report (`memory --baseline`): what holds the new objects, then the
 * classes by growth, as text and as the `growth` part of `dumpsleuth.memory/1`. Draws what it is given;
 * names from the dump are stripped of control sequences.
 */
import { countText } from '../model/count-text.js';
import { retainedObjectName } from '../model/memory.js';
import { change, type ClassTrend, type GrowthHolder, type GrowthMoment, type MemoryGrowth } from '../model/memory-growth.js';
import type { DocItem } from './doc-blocks.js';
import { approximateBytes } from './heap-size-text.js';
import { stepJson } from './memory-object-json.js';
import { rootPathText } from './memory-path-text.js';
import { stripControl } from './sanitize.js';

/** Classes the text lists by growth (the JSON has them all that the analysis listed). */
export const TEXT_CLASSES = 20;

export const signedCount = (n: number) => (n > 0 ? `+${countText(n)}` : n < 0 ? `-${countText(-n)}` : '0');
export const signedBytes = (n: number) => (n > 0 ? `+${approximateBytes(n)}` : n < 0 ? `-${approximateBytes(-n)}` : '0');
export const grew = (c: ClassTrend) => change(c.shallow) > 0 || change(c.instances) > 0;

/** A dump of the comparison: its file, and when it was written when the dump says. Raw text. */
export const momentText = (m: GrowthMoment) => `${m.source}${m.timestampMs !== undefined ? ` (written ${new Date(m.timestampMs).toISOString()})` : ''}`;

function momentsLine(g: MemoryGrowth): string {
  return g.moments.map((m, k) => `${k + 1}. ${momentText(m)}`).join(', ');
}

export function growthText(g: MemoryGrowth): string[] {
  const first = stripControl(g.moments[0]!.source);
  const last = stripControl(g.moments[g.moments.length - 1]!.source);
  const several = g.moments.length > 2;
  const out: string[] = ['', `Growth over ${g.moments.length} heap dumps, oldest first: ${stripControl(momentsLine(g))}`];
  out.push(...growthCutLines(g).map((l) => `  ${stripControl(l)}`), `  ${growthTotalsLine(g)}`);
  const growing = g.classes.filter(grew);
  if (growing.length === 0) {
    out.push(`  nothing grew: no class has more instances or shallow bytes in ${last} than in ${first}`);
    return out;
  }
  if (g.holders.length > 0) out.push('', `  ${HOLDERS_TITLE}`);
  g.holders.forEach((h, i) => {
    const item = growthHolderItem(g, h);
    out.push(`  ${i + 1}. ${stripControl(item.text)}`, ...(item.details ?? []).map((d) => `     ${stripControl(d)}`));
  });
  out.push('', `  ${growthClassesTitle(g)}`);
  out.push(`  ${'instances'.padStart(10)}  ${'shallow'.padStart(11)}  ${'retained'.padStart(11)}  class${several ? ' (instances at each dump)' : ''}`);
  for (const c of growing.slice(0, TEXT_CLASSES))
    out.push(
      `  ${signedCount(change(c.instances)).padStart(10)}  ${signedBytes(change(c.shallow)).padStart(11)}  ${signedBytes(change(c.retained)).padStart(11)}  ` +
        `${stripControl(c.className)}${several ? `  (${c.instances.map(countText).join(' -> ')})` : ''}`,
    );
  const more = growthMoreText(g, Math.min(growing.length, TEXT_CLASSES));
  if (more !== undefined) out.push(`  ${more}`);
  return out;
}

export const HOLDERS_TITLE = 'What holds the new objects (the object that dominates most instances of the classes that grew most)';

export const growthClassesTitle = (g: MemoryGrowth) =>
  `Classes by growth (dump 1 to ${g.moments.length}: change in instances, shallow and retained bytes${g.moments.length > 2 ? '; instances at each dump' : ''})`;

/** The dumps read only in part, one line each. Raw text. */
export function growthCutLines(g: MemoryGrowth): string[] {
  return g.moments.flatMap((m) =>
    m.cut === undefined
      ? []
      : [`Incomplete: ${m.source} was read only in part (${m.cut}): its figures are of that part, so what grew from or to it is not all the program did`],
  );
}

/** The reachable heap and the objects at each dump. */
export function growthTotalsLine(g: MemoryGrowth): string {
  const totals = g.moments.map((m) => m.retainedBytes);
  return (
    `reachable heap: ${totals.map((b) => approximateBytes(b)).join(' -> ')} (${signedBytes(change(totals))}); ` +
    `objects: ${g.moments.map((m) => countText(m.objects)).join(' -> ')}`
  );
}

/** What the class table leaves out once `shown` classes that grew are listed: `(3 more grew; 2 shrank; 40 classes changed in all)`. */
export function growthMoreText(g: MemoryGrowth, shown: number): string | undefined {
  const shrank = g.classes.filter((c) => change(c.shallow) < 0).length;
  const more = g.classes.filter(grew).length - shown;
  if (more <= 0 && shrank === 0 && g.changedClasses <= g.classes.length) return undefined;
  return `(${[
    more > 0 ? `${countText(more)} more grew` : '',
    shrank > 0 ? `${countText(shrank)} shrank` : '',
    `${countText(g.changedClasses)} classes changed in all`,
  ]
    .filter((x) => x !== '')
    .join('; ')})`;
}

/** A holder of the new objects as every format lists it: its size at each dump, then what it holds and its path. Raw text. */
export function growthHolderItem(g: MemoryGrowth, h: GrowthHolder): DocItem {
  const sizes = h.retained.map((r) => (r === null ? '?' : approximateBytes(r))).join(' -> ');
  const known = h.retained[0] !== null && h.retained[h.retained.length - 1] !== null;
  const holderGrowth = known ? ` (${signedBytes((h.retained[h.retained.length - 1] as number) - (h.retained[0] as number))})` : '';
  const where = h.heldBy !== undefined ? `${h.heldBy}: ` : '';
  const details: string[] = [];
  if (!known) details.push('(?: in that dump those classes sit elsewhere, under no object at the same place of its dominator tree)');
  details.push(
    `it holds, of the reachable instances, ${h.holds
      .map((c) => {
        const trend = g.classes.find((t) => t.className === c.className);
        const since = trend !== undefined ? ` (${signedCount(change(trend.instances))})` : '';
        return `${countText(c.instances)} of the ${countText(c.ofInstances)} ${c.className}${since}`;
      })
      .join(', ')}`,
  );
  if (h.path.length > 0) details.push(`kept by: ${rootPathText(h.path)}`);
  return { text: `${where}${retainedObjectName(h.object, true)} retains ${sizes}${holderGrowth}`, details };
}

/** The `growth` part of dumpsleuth.memory/1 (docs/memory.schema.json). */
export function growthJson(g: MemoryGrowth) {
  return {
    moments: g.moments.map((m) => ({
      source: m.source,
      ...(m.timestampMs !== undefined ? { timestamp: new Date(m.timestampMs).toISOString() } : {}),
      objects: m.objects,
      retainedBytes: m.retainedBytes,
      complete: m.cut === undefined,
      ...(m.cut !== undefined ? { cut: m.cut } : {}),
    })),
    changedClasses: g.changedClasses,
    classes: g.classes.map((c) => ({
      class: c.className,
      instances: [...c.instances],
      shallow: [...c.shallow],
      retained: [...c.retained],
      change: { instances: change(c.instances), shallow: change(c.shallow), retained: change(c.retained) },
    })),
    holders: g.holders.map((h) => ({
      id: h.object.id,
      class: h.object.className,
      ...(h.object.describes !== undefined ? { describes: h.object.describes } : {}),
      ...(h.heldBy !== undefined ? { heldBy: h.heldBy } : {}),
      retained: [...h.retained],
      holds: h.holds.map((c) => ({ class: c.className, instances: c.instances, ofInstances: c.ofInstances })),
      path: h.path.map(stepJson),
    })),
  };
}
