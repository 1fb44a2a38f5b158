/**
 * memory-leak-suspect's class-loader findings: a class defined by many class loaders that are kept
 * alive (a redeployment that leaves its loader behind), with what keeps them, grouped by holder.
 * The heap shows only part of the cost: each loader's classes live in Metaspace, which a heap dump
 * does not hold.
 */
import { approximateBytes } from '../../model/bytes.js';
import { definingLoaderText, keptByText, type LoaderHolder, loaderHolderText, LOADERS_LOOKED_AT } from '../../model/class-loaders.js';
import { countText } from '../../model/count-text.js';
import type { Evidence } from '../../model/findings.js';
import type { Model } from '../../model/model.js';
import type { FindingDraft, RuleOption } from '../rule.js';

/** The options the class-loader findings read, declared with the rule's. */
export const CLASS_LOADER_OPTIONS: Readonly<Record<string, RuleOption>> = {
  minLoaders: {
    type: 'integer',
    min: 2,
    // The memory analysis looks up the paths of at most this many loaders per class.
    max: LOADERS_LOOKED_AT,
    default: 10,
    description:
      'Fewest kept-alive class loaders defining one class for a class-loader finding: a few applications of one server may each load ' +
      'their own copy of a library; redeployments that leave their loaders behind add one each.',
  },
};

/** Loaders listed as evidence per finding. */
const EVIDENCE_LOADERS = 5;

const REMEDY =
  "Release what keeps the old loaders when a deployment is undone: remove its objects from the host's statics (registries, caches, " +
  'listener lists), call ThreadLocal.remove() before a pooled thread goes back to its pool, stop the threads and timers it started. ' +
  'Each loader kept alive keeps all its classes in Metaspace (an OutOfMemoryError: Metaspace after redeployments is this leak); ' +
  'check with a heap dump after one more redeployment: the count must not grow.';

export function classLoaderFindings(model: Model, options: Readonly<Record<string, unknown>>): FindingDraft[] {
  const minLoaders = Number(options['minLoaders']);
  return model.memory.flatMap((m) =>
    (m.summary?.classLoaders?.classes ?? []).flatMap((c): FindingDraft[] => {
      // Only the loaders a strong path keeps count: a loader held through weak references alone goes at the next collection.
      const kept = c.keptBy.filter((g) => g.holder !== null).reduce((n, g) => n + g.loaders, 0);
      const listed = c.loaders.length;
      if (kept < minLoaders) return [];
      const more = c.sameLoadersClasses > 0 ? ` (with ${countText(c.sameLoadersClasses)} more classes defined by the same loaders)` : '';
      const evidence: Evidence[] = c.loaders.slice(0, EVIDENCE_LOADERS).map((l) => ({
        kind: 'heap-object',
        source: m.input,
        id: l.loader.id,
        className: l.loader.className,
        note: definingLoaderText(l),
      }));
      return [
        {
          subject: c.className,
          title: 'Class loaders left behind',
          headline: `${c.className} is defined by ${countText(c.loaderCount)} class loaders kept alive`,
          message:
            `${c.className}${more} is defined by ${countText(c.loaderCount)} class loaders (${c.loaderClasses.join(', ')}), ` +
            `${keptWords(kept, listed, c.loaderCount)} kept alive by a strong path: ${keptByText(c)}. ` +
            `The loaders retain ${approximateBytes(c.retained)} and their ${countText(c.classes)} class objects ` +
            `${approximateBytes(c.classesRetained)} of the heap; ` +
            'their classes also take Metaspace, which the heap dump does not show.',
          facts: {
            kind: 'class-loaders',
            class: c.className,
            sameLoadersClasses: c.sameLoadersClasses,
            loaders: c.loaderCount,
            loadersKeptAlive: kept,
            loaderClasses: c.loaderClasses,
            loadersRetainedBytes: c.retained,
            classObjectsRetainedBytes: c.classesRetained,
            keptBy: c.keptBy.map((g) => `${g.loaders} through ${loaderHolderText(g.holder)}`),
            holderKinds: [...new Set(c.keptBy.map((g) => g.holder?.kind ?? 'none'))],
          },
          evidence,
          remedy: `${holderRemedy(c.keptBy[0]?.holder ?? null)}${REMEDY}`,
          impact: Math.min(100, kept),
        },
      ];
    }),
  );
}

/** `all`, `all 100 looked at`, `18 of the 20 looked at`. */
function keptWords(kept: number, listed: number, all: number): string {
  if (kept === listed) return listed === all ? 'all' : `all ${countText(listed)} looked at`;
  return `${countText(kept)} of the ${countText(listed)} looked at`;
}

/** The first thing to do for the commonest holder. */
function holderRemedy(h: LoaderHolder | null): string {
  if (h === null) return '';
  if (h.kind === 'static') return `Most are kept by ${loaderHolderText(h)}: remove each deployment's entries from it when undeploying. `;
  if (h.kind === 'thread-local') return `Most are kept by ${loaderHolderText(h)}: remove the value (ThreadLocal.remove()) when the task ends. `;
  return '';
}
