/**
 * Classes defined by several class loaders, as every format draws them: the lines of the text
 * report (raw: the caller strips or escapes them) and the JSON of `dumpsleuth.memory/1` and of the
 * analysis report's `model.memory` (`classLoaders`).
 */
import { type ClassLoaderSummary, definingLoaderText, keptByText, type LoaderHolder, loaderHolderText, redefinedClassText } from '../model/class-loaders.js';
import { countText } from '../model/count-text.js';
import type { DocBlock } from './doc-blocks.js';
import { objectJson, stepJson } from './memory-object-json.js';

/** Loaders listed one per line under each class in text (the JSON lists every loader the analysis kept). */
const LOADER_LINES = 5;

const CLASS_LOADERS_TITLE = 'Classes defined by several class loaders (each loader kept alive is a redeployment left behind, or an application of its own)';

export interface ClassLoaderEntry {
  readonly headline: string;
  readonly keptBy: string;
  readonly loaders: string[];
}

/** Per class: its line, what keeps its loaders, and its biggest loaders, one a line. Raw text. */
export function classLoaderEntries(c: ClassLoaderSummary): ClassLoaderEntry[] {
  return c.classes.map((x) => ({
    headline: redefinedClassText(x),
    keptBy: keptByText(x),
    loaders: [
      ...x.loaders.slice(0, LOADER_LINES).map(definingLoaderText),
      ...(x.loaderCount > LOADER_LINES ? [`… ${countText(x.loaderCount - LOADER_LINES)} more loaders`] : []),
    ],
  }));
}

/** The text report's section (raw lines: the caller strips control sequences). */
export function classLoaderLines(c: ClassLoaderSummary | undefined): string[] {
  if (c === undefined) return [];
  if (c.classes.length === 0) return ['', 'Classes defined by several class loaders: none (every class name has one defining loader)'];
  const out = ['', CLASS_LOADERS_TITLE];
  for (const e of classLoaderEntries(c)) {
    out.push(`  ${e.headline}`, `    kept by: ${e.keptBy}`);
    for (const l of e.loaders) out.push(`    ${l}`);
  }
  if (c.moreClasses > 0) out.push(`  … ${countText(c.moreClasses)} more groups of classes defined by several loaders`);
  return out;
}

/**
 * The section as format-neutral blocks (the Markdown and HTML of the memory report): per class its
 * line, with what keeps its loaders and the loaders under it.
 */
export function classLoaderBlocks(c: ClassLoaderSummary | undefined): DocBlock[] {
  if (c === undefined) return [];
  if (c.classes.length === 0) return [{ kind: 'para', text: 'Classes defined by several class loaders: none (every class name has one defining loader)' }];
  return [
    { kind: 'heading', level: 1, text: CLASS_LOADERS_TITLE },
    { kind: 'list', items: classLoaderEntries(c).map((e) => ({ text: e.headline, details: [`kept by: ${e.keptBy}`, ...e.loaders] })) },
    ...(c.moreClasses > 0 ? [{ kind: 'para', text: `… ${countText(c.moreClasses)} more groups of classes defined by several loaders` } as const] : []),
  ];
}

const holderJson = (h: LoaderHolder | null) =>
  h === null
    ? null
    : {
        kind: h.kind,
        text: loaderHolderText(h),
        ...(h.field !== undefined ? { field: h.field } : {}),
        ...(h.holder !== undefined ? { holder: objectJson(h.holder) } : {}),
        ...(h.rootKind !== undefined ? { rootKind: h.rootKind } : {}),
      };

export function classLoadersJson(c: ClassLoaderSummary) {
  return {
    classes: c.classes.map((x) => ({
      class: x.className,
      sameLoadersClasses: x.sameLoadersClasses,
      loaderCount: x.loaderCount,
      loaderClasses: x.loaderClasses,
      retained: x.retained,
      classObjects: x.classes,
      classObjectsRetained: x.classesRetained,
      keptBy: x.keptBy.map((g) => ({ holder: holderJson(g.holder), loaders: g.loaders, retained: g.retained })),
      loaders: x.loaders.map((l) => ({
        ...objectJson(l.loader),
        ...(l.name !== undefined ? { name: l.name } : {}),
        keptBy: holderJson(l.keptBy ?? null),
        ...(l.path !== undefined ? { path: l.path.map(stepJson) } : {}),
      })),
    })),
    moreClasses: c.moreClasses,
  };
}
