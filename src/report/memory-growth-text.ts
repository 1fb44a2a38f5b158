/**
 * The growth section of the memory report (`memory --baseline`): what holds the new objects, then the
 * classes by growth, as text and as the `growth` part of `dumpsleuth.memory/1`. Draws what it is given;
 * names from the dump are stripped of control sequences.
 */
import { countText } from '../model/count-text.js';
import { retainedObjectName } from '../model/memory.js';
import { change, type ClassTrend, type MemoryGrowth } from '../model/memory-growth.js';
import { approximateBytes } from './heap-size-text.js';
import { stepJson } from './memory-object-json.js';
import { stripControl } from './sanitize.js';

/** Classes the text lists by growth (the JSON has them all that the analysis listed). */
const TEXT_CLASSES = 20;

const signedCount = (n: number) => (n > 0 ? `+${countText(n)}` : n < 0 ? `-${countText(-n)}` : '0');
const signedBytes = (n: number) => (n > 0 ? `+${approximateBytes(n)}` : n < 0 ? `-${approximateBytes(-n)}` : '0');
const grew = (c: ClassTrend) => change(c.shallow) > 0 || change(c.instances) > 0;

function momentsLine(g: MemoryGrowth): string {
  return g.moments
    .map((m, k) => `${k + 1}. ${stripControl(m.source)}${m.timestampMs !== undefined ? ` (written ${new Date(m.timestampMs).toISOString()})` : ''}`)
    .join(', ');
}

export function growthText(g: MemoryGrowth): string[] {
  const first = stripControl(g.moments[0]!.source);
  const last = stripControl(g.moments[g.moments.length - 1]!.source);
  const several = g.moments.length > 2;
  const out: string[] = ['', `Growth over ${g.moments.length} heap dumps, oldest first: ${momentsLine(g)}`];
  for (const m of g.moments)
    if (m.cut !== undefined)
      out.push(
        `  Incomplete: ${stripControl(m.source)} was read only in part (${stripControl(m.cut)}): ` +
          'its figures are of that part, so what grew from or to it is not all the program did',
      );
  const totals = g.moments.map((m) => m.retainedBytes);
  out.push(
    `  reachable heap: ${totals.map((b) => approximateBytes(b)).join(' -> ')} (${signedBytes(change(totals))}); ` +
      `objects: ${g.moments.map((m) => countText(m.objects)).join(' -> ')}`,
  );
  const growing = g.classes.filter(grew);
  if (growing.length === 0) {
    out.push(`  nothing grew: no class has more instances or shallow bytes in ${last} than in ${first}`);
    return out;
  }
  if (g.holders.length > 0) out.push('', '  What holds the new objects (the object that dominates most instances of the classes that grew most)');
  g.holders.forEach((h, i) => {
    const sizes = h.retained.map((r) => (r === null ? '?' : approximateBytes(r))).join(' -> ');
    const known = h.retained[0] !== null && h.retained[h.retained.length - 1] !== null;
    const holderGrowth = known ? ` (${signedBytes((h.retained[h.retained.length - 1] as number) - (h.retained[0] as number))})` : '';
    const where = h.heldBy !== undefined ? `${stripControl(h.heldBy)}: ` : '';
    out.push(`  ${i + 1}. ${where}${stripControl(retainedObjectName(h.object, true))} retains ${sizes}${holderGrowth}`);
    if (!known) out.push('     (?: in that dump those classes sit elsewhere, under no object at the same place of its dominator tree)');
    out.push(
      `     it holds, of the reachable instances, ${h.holds
        .map((c) => {
          const trend = g.classes.find((t) => t.className === c.className);
          const since = trend !== undefined ? ` (${signedCount(change(trend.instances))})` : '';
          return `${countText(c.instances)} of the ${countText(c.ofInstances)} ${stripControl(c.className)}${since}`;
        })
        .join(', ')}`,
    );
    if (h.path.length > 0)
      out.push(
        '     kept by: ' +
          h.path
            .map((st, k) =>
              k === 0
                ? `GC root (${st.rootKind ?? 'root'}) ${stripControl(retainedObjectName(st.object))}`
                : `${stripControl(st.via ?? '?')} -> ${stripControl(retainedObjectName(st.object))}`,
            )
            .join(' -> '),
      );
  });
  out.push(
    '',
    `  Classes by growth (dump 1 to ${g.moments.length}: change in instances, shallow and retained bytes${several ? '; instances at each dump' : ''})`,
  );
  out.push(`  ${'instances'.padStart(10)}  ${'shallow'.padStart(11)}  ${'retained'.padStart(11)}  class${several ? ' (instances at each dump)' : ''}`);
  for (const c of growing.slice(0, TEXT_CLASSES))
    out.push(
      `  ${signedCount(change(c.instances)).padStart(10)}  ${signedBytes(change(c.shallow)).padStart(11)}  ${signedBytes(change(c.retained)).padStart(11)}  ` +
        `${stripControl(c.className)}${several ? `  (${c.instances.map(countText).join(' -> ')})` : ''}`,
    );
  const shrank = g.classes.filter((c) => change(c.shallow) < 0).length;
  const more = growing.length - Math.min(growing.length, TEXT_CLASSES);
  if (more > 0 || shrank > 0 || g.changedClasses > g.classes.length)
    out.push(
      `  (${[
        more > 0 ? `${countText(more)} more grew` : '',
        shrank > 0 ? `${countText(shrank)} shrank` : '',
        `${countText(g.changedClasses)} classes changed in all`,
      ]
        .filter((x) => x !== '')
        .join('; ')})`,
    );
  return out;
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
