/**
 * The Memory screen's rows for classes defined by several class loaders: one row per class (how
 * many loaders, what keeps them), its detail listing the holders, each loader with what keeps it,
 * and the path from a GC root of the biggest loader. Every string from the dump goes through stripControl.
 */
import { approximateBytes } from '../model/bytes.js';
import { definingLoaderText, keptByText, loaderHolderText, redefinedClassText } from '../model/class-loaders.js';
import { countText } from '../model/count-text.js';
import type { Finding } from '../model/findings.js';
import type { HeapMemoryModel } from '../model/memory.js';
import { stripControl as clean } from '../report/sanitize.js';
import type { UiDetailLine, UiRow } from './view-data.js';

/** Loaders listed in a class's detail. */
const LOADER_DETAIL_LINES = 30;

export function classLoaderRows(m: HeapMemoryModel, heap: number, findings: readonly Finding[]): UiRow[] {
  const classes = m.summary?.classLoaders?.classes ?? [];
  return classes.map((c, i): UiRow => {
    const ofThisHeap = (f: Finding) => f.evidence.some((e) => e.kind === 'heap-object' && e.source === m.input);
    const finding = findings.find((f) => f.rule === 'memory-leak-suspect' && f.subject === c.className && ofThisHeap(f));
    const biggest = c.loaders[0];
    const path: UiDetailLine[] =
      biggest?.path === undefined
        ? []
        : [
            { text: '' },
            { text: `path from a GC root to ${clean(biggest.loader.className)} ${clean(biggest.loader.id)}`, tone: 'title' },
            ...(biggest.path.length === 0
              ? [{ text: '  none: no strong path reaches it', tone: 'dim' as const }]
              : biggest.path.map((st, k) => ({
                  text: `  ${k === 0 ? `GC root (${clean(st.rootKind ?? 'root')}): ` : `${'  '.repeat(Math.min(k, 12))}${clean(st.via ?? '?')} -> `}${clean(
                    st.object.describes !== undefined ? `class ${st.object.describes}` : st.object.className,
                  )} ${clean(st.object.id)}`,
                }))),
          ];
    return {
      key: `memory:${heap}:loaders:${i}`,
      text: `  LOADERS ${countText(c.loaderCount).padStart(6)} ${clean(c.className)}: ${clean(keptByText(c))}`,
      tone: finding !== undefined ? 'warning' : 'info',
      search: clean(`class loaders ${c.className}`).toLowerCase(),
      detail: [
        { text: 'defined by several class loaders', tone: 'title' },
        { text: `  ${clean(redefinedClassText(c))}` },
        { text: '' },
        { text: 'what keeps the loaders alive (their shortest strong path from a GC root)', tone: 'title' },
        ...c.keptBy.map((g) => ({ text: `  ${countText(g.loaders)} (${approximateBytes(g.retained)}) through ${clean(loaderHolderText(g.holder))}` })),
        { text: '' },
        { text: 'loaders, biggest first', tone: 'title' },
        ...c.loaders.slice(0, LOADER_DETAIL_LINES).map((l) => ({ text: `  ${clean(definingLoaderText(l))}` })),
        ...(c.loaderCount > LOADER_DETAIL_LINES ? [{ text: `  … ${countText(c.loaderCount - LOADER_DETAIL_LINES)} more`, tone: 'dim' as const }] : []),
        ...path,
        ...(finding !== undefined
          ? [
              { text: '' },
              { text: 'finding', tone: 'title' as const },
              { text: `  → ${clean(finding.id)}`, link: { screen: 'findings' as const, key: finding.id } },
            ]
          : []),
      ],
    };
  });
}
