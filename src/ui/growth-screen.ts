/**
 * The UI's Growth screen: what grew between heap dumps of one program, given oldest first, as
 * `memory --baseline` reports it (analysis/memory-growth.ts computes it for both): the totals at each
 * dump, what holds the new objects (each holder with its path from the GC roots and its own growth),
 * then the classes by growth, with their instances at each dump when there are three dumps or more.
 * Heaps that cannot be compared (two programs, two formats) get the reason on the screen. Every string
 * from a dump goes through stripControl here.
 */
import { approximateBytes } from '../model/bytes.js';
import { countText } from '../model/count-text.js';
import { retainedObjectName } from '../model/memory.js';
import { change, type ClassTrend, type GrowthHolder, type MemoryGrowth } from '../model/memory-growth.js';
import { stripControl as clean } from '../report/sanitize.js';
import { pathLines } from './memory-screen.js';
import type { Tone, UiDetailLine, UiRow, UiScreen } from './view-data.js';

/** Classes listed by growth (the JSON of `memory --baseline -f json` has all the analysis listed). */
const CLASS_ROWS = 40;

/** What the UI made of the heap dumps it was given to compare: their growth, or why they were not compared. */
export type GrowthOutcome =
  | { readonly kind: 'compared'; readonly growth: MemoryGrowth; readonly warnings: readonly string[] }
  | { readonly kind: 'refused'; readonly paths: readonly string[]; readonly message: string; readonly remedy: string };

/** The key of the screen's first row, which the Overview links to. */
const GROWTH_SUMMARY_KEY = 'growth:summary';

/** Where the newest heap's holder sits in the Memory screen's tree, when it has a row there. */
export type HolderRowOf = (source: string, id: string) => string | undefined;

const signedCount = (n: number) => (n > 0 ? `+${countText(n)}` : n < 0 ? `-${countText(-n)}` : '0');
const signedBytes = (n: number) => (n > 0 ? `+${approximateBytes(n)}` : n < 0 ? `-${approximateBytes(-n)}` : '0');
const grew = (c: ClassTrend) => change(c.shallow) > 0 || change(c.instances) > 0;
const dim = (text: string): UiDetailLine => ({ text, tone: 'dim' });

/** The holder's retained bytes from the first dump to the last, when both are known (null: the older dump holds those classes elsewhere). */
function holderGrowth(h: GrowthHolder): number | undefined {
  const first = h.retained[0];
  const last = h.retained[h.retained.length - 1];
  return first !== null && first !== undefined && last !== null && last !== undefined ? last - first : undefined;
}

function summaryRow(g: MemoryGrowth, warnings: readonly string[]): UiRow {
  const totals = g.moments.map((m) => m.retainedBytes);
  const cut = g.moments.some((m) => m.cut !== undefined);
  return {
    key: GROWTH_SUMMARY_KEY,
    text:
      `Growth over ${g.moments.length} heap dumps: reachable heap ${totals.map(approximateBytes).join(' -> ')} (${signedBytes(change(totals))}); ` +
      `objects ${g.moments.map((m) => countText(m.objects)).join(' -> ')}${cut ? '  INCOMPLETE' : ''}`,
    tone: cut ? 'warning' : 'title',
    search: g.moments.map((m) => clean(m.source).toLowerCase()).join(' '),
    detail: [
      { text: `What grew between ${g.moments.length} heap dumps of one program, oldest first`, tone: 'title' },
      ...g.moments.map((m, k) => ({
        text:
          `  ${k + 1}. ${clean(m.source)}${m.timestampMs !== undefined ? ` (written ${new Date(m.timestampMs).toISOString()})` : ''}: ` +
          `${countText(m.objects)} objects, ${approximateBytes(m.retainedBytes)} reachable`,
      })),
      ...g.moments.flatMap((m) =>
        m.cut === undefined
          ? []
          : [
              {
                text:
                  `  Incomplete: ${clean(m.source)} was read only in part (${clean(m.cut)}): its figures are of that part, ` +
                  'so what grew from or to it is not all the program did',
                tone: 'warning' as Tone,
              },
            ],
      ),
      ...warnings.map((w) => ({ text: `  warning: ${clean(w)}`, tone: 'warning' as Tone })),
      dim("  Each dump is analysed on its own; a holder's growth compares it with the object at the same place of each older dump's dominator tree."),
    ],
  };
}

function holderRow(g: MemoryGrowth, h: GrowthHolder, i: number, holderRowOf: HolderRowOf): UiRow {
  const newest = g.moments[g.moments.length - 1]!.source;
  const name = clean(retainedObjectName(h.object, true));
  const where = h.heldBy !== undefined ? `${clean(h.heldBy)}: ` : '';
  const sizes = h.retained.map((r) => (r === null ? '?' : approximateBytes(r))).join(' -> ');
  const grown = holderGrowth(h);
  const inTree = holderRowOf(newest, h.object.id);
  const holds = h.holds.map((c) => {
    const trend = g.classes.find((t) => t.className === c.className);
    const since = trend !== undefined ? ` (${signedCount(change(trend.instances))} since dump 1)` : '';
    return { text: `  ${countText(c.instances)} of the ${countText(c.ofInstances)} ${clean(c.className)}${since}` };
  });
  return {
    key: `growth:holder:${i}`,
    text: `  HOLDER ${where}${name} retains ${sizes}${grown !== undefined ? ` (${signedBytes(grown)})` : ''}`,
    tone: grown !== undefined && grown > 0 ? 'alert' : undefined,
    search: clean(`holder ${h.heldBy ?? ''} ${retainedObjectName(h.object, true)} ${h.holds.map((c) => c.className).join(' ')}`).toLowerCase(),
    detail: [
      { text: `${where}${name}`, tone: 'title' },
      {
        text:
          `  retains ${sizes}${grown !== undefined ? `: it grew by ${signedBytes(grown)}` : ''} ` +
          `(dump 1 to ${g.moments.length}; in the newest it retains ${approximateBytes(h.object.retained)})`,
      },
      ...(grown === undefined ? [dim('  ?: in that dump those classes sit elsewhere, under no object at the same place of its dominator tree')] : []),
      // The path first: where the leak is kept is what the reader acts on.
      { text: 'path from a GC root (strong references only)', tone: 'title' },
      ...pathLines(h.path),
      { text: 'it holds, of the reachable instances in the newest dump', tone: 'title' },
      ...holds,
      ...(inTree !== undefined ? [{ text: `  → ${name} in the Memory screen's tree`, link: { screen: 'memory' as const, key: inTree } }] : []),
    ],
  };
}

function classRow(g: MemoryGrowth, c: ClassTrend): UiRow {
  const several = g.moments.length > 2;
  const name = clean(c.className);
  return {
    key: `growth:class:${c.className}`,
    text:
      `  ${signedCount(change(c.instances)).padStart(10)}  ${signedBytes(change(c.shallow)).padStart(11)}  ${signedBytes(change(c.retained)).padStart(11)}  ` +
      `${name}${several ? `  (${c.instances.map(countText).join(' -> ')})` : ''}`,
    search: name.toLowerCase(),
    detail: [
      { text: name, tone: 'title' },
      {
        text:
          `  dump 1 to ${g.moments.length}: ${signedCount(change(c.instances))} instances, ${signedBytes(change(c.shallow))} shallow, ` +
          `${signedBytes(change(c.retained))} retained`,
      },
      ...g.moments.map((m, k) => ({
        text:
          `  ${k + 1}. ${countText(c.instances[k] ?? 0)} instances, ${approximateBytes(c.shallow[k] ?? 0)} shallow, ` +
          `${approximateBytes(c.retained[k] ?? 0)} retained  ${clean(m.source)}`,
        tone: 'dim' as Tone,
      })),
    ],
  };
}

function comparedRows(g: MemoryGrowth, warnings: readonly string[], holderRowOf: HolderRowOf): UiRow[] {
  const rows: UiRow[] = [summaryRow(g, warnings)];
  const growing = g.classes.filter(grew);
  if (growing.length === 0) {
    const first = clean(g.moments[0]!.source);
    const last = clean(g.moments[g.moments.length - 1]!.source);
    rows.push({
      key: 'growth:nothing',
      text: `  nothing grew: no class has more instances or shallow bytes in ${last} than in ${first}`,
      tone: 'ok',
      search: '',
      detail: [{ text: 'Nothing grew', tone: 'title' }, { text: `  no class has more instances or shallow bytes in ${last} than in ${first}` }],
    });
    return rows;
  }
  g.holders.forEach((h, i) => rows.push(holderRow(g, h, i, holderRowOf)));
  const several = g.moments.length > 2;
  rows.push({
    key: 'growth:classes',
    text:
      `  ${'instances'.padStart(10)}  ${'shallow'.padStart(11)}  ${'retained'.padStart(11)}  ` +
      `classes by growth${several ? ' (instances at each dump)' : ''}`,
    tone: 'title',
    search: '',
    detail: [
      { text: 'Classes by growth', tone: 'title' },
      { text: `  the change from dump 1 to dump ${g.moments.length} in instances, shallow and retained bytes, biggest shallow growth first` },
      dim('  a class retains what the set of its instances retains: those not dominated by another instance of it'),
    ],
  });
  for (const c of growing.slice(0, CLASS_ROWS)) rows.push(classRow(g, c));
  const shrank = g.classes.filter((c) => change(c.shallow) < 0).length;
  const more = growing.length - Math.min(growing.length, CLASS_ROWS);
  if (more > 0 || shrank > 0 || g.changedClasses > g.classes.length) {
    const said = [
      more > 0 ? `${countText(more)} more grew` : '',
      shrank > 0 ? `${countText(shrank)} shrank` : '',
      `${countText(g.changedClasses)} classes changed in all`,
    ]
      .filter((x) => x !== '')
      .join('; ');
    rows.push({
      key: 'growth:more',
      text: `  (${said})`,
      tone: 'dim',
      search: '',
      detail: [{ text: `  ${said}: dumpsleuth memory --baseline -f json lists every class the comparison read` }],
    });
  }
  return rows;
}

function refusedRows(o: Extract<GrowthOutcome, { kind: 'refused' }>): UiRow[] {
  return [
    {
      key: GROWTH_SUMMARY_KEY,
      text: `Not compared: ${clean(o.message)}`,
      tone: 'error',
      search: o.paths.map((p) => clean(p).toLowerCase()).join(' '),
      detail: [
        { text: `The ${o.paths.length} heap dumps were not compared`, tone: 'title' },
        { text: `  ${clean(o.message)}` },
        { text: '' },
        { text: 'what to do', tone: 'title' },
        { text: `  ${clean(o.remedy)}`, tone: 'ok' },
      ],
    },
  ];
}

/** The screen, when the UI was given heap dumps to compare (undefined otherwise: no screen). */
export function growthScreen(outcome: GrowthOutcome | undefined, holderRowOf: HolderRowOf): UiScreen | undefined {
  if (outcome === undefined) return undefined;
  return {
    id: 'growth',
    title: 'Growth',
    rows: outcome.kind === 'compared' ? comparedRows(outcome.growth, outcome.warnings, holderRowOf) : refusedRows(outcome),
    empty: 'No two heap dumps of one program were given.',
  };
}

/** The Overview's line for the comparison: what grew, or why nothing was compared, opening the Growth screen. */
export function growthOverviewRow(outcome: GrowthOutcome | undefined): UiRow | undefined {
  if (outcome === undefined) return undefined;
  const link = { screen: 'growth' as const, key: GROWTH_SUMMARY_KEY };
  if (outcome.kind === 'refused')
    return {
      key: 'growth',
      text: `Growth: the ${outcome.paths.length} heap dumps were not compared: ${clean(outcome.message)}`,
      tone: 'warning',
      search: 'growth',
      detail: [{ text: 'What grew between the heap dumps', tone: 'title' }, { text: `  ${clean(outcome.message)}` }, { text: '  → the Growth screen', link }],
    };
  const g = outcome.growth;
  const top = g.holders[0];
  const grown = top !== undefined ? holderGrowth(top) : undefined;
  const totals = g.moments.map((m) => m.retainedBytes);
  const what =
    top !== undefined
      ? `${clean(top.heldBy ?? retainedObjectName(top.object, true))} grew most${grown !== undefined ? ` (${signedBytes(grown)})` : ''}`
      : g.classes.some(grew)
        ? `${clean(g.classes[0]!.className)} grew most (${signedBytes(change(g.classes[0]!.shallow))} shallow)`
        : 'nothing grew';
  return {
    key: 'growth',
    text: `Growth over ${g.moments.length} heap dumps: reachable heap ${signedBytes(change(totals))}; ${what}`,
    tone: 'title',
    search: 'growth',
    detail: [
      { text: 'What grew between the heap dumps, oldest first', tone: 'title' },
      { text: '  → the Growth screen', link },
    ],
  };
}
