import { approximateBytes } from '../model/bytes.js';
import { countOf, countText, shareText } from '../model/count-text.js';
import type { Evidence } from '../model/findings.js';
import type { LeakSuspect, MemorySummary, PathStep, RetainedObject } from '../model/memory.js';
import { biggestHeldText, classSuspectText, retainedObjectName, stackFramesText, stackHolderText } from '../model/memory.js';
import type { Model } from '../model/model.js';
import type { Rule } from './rule.js';
import { CLASS_LOADER_OPTIONS, classLoaderFindings } from './support/class-loader-leak.js';
import { plural } from './support/evidence.js';

/** MAT's leak suspects, as findings: an object or a class retaining a big share of the heap, where it accumulates and how it is held. */
export const memoryLeakSuspect: Rule = {
  meta: {
    id: 'memory-leak-suspect',
    defaultSeverity: 'warning',
    title: 'Memory leak suspect',
    description:
      "One object, or the instances of one class together, retain a large share of the heap (MAT's " +
      'leak suspects): where the memory accumulates and the path from a GC root that keeps it. Also a class defined by many ' +
      'class loaders kept alive (redeployments that leave their loader behind): what keeps each loader.',
    remedy:
      'Follow the path from the GC root to where the memory accumulates: bound that collection, or stop adding to ' +
      'it (remove entries, unregister listeners), and check the fix with a second heap dump under the same load.',
    options: {
      minShare: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.1,
        description:
          "Smallest share of the reachable heap a suspect retains (MAT's 10%); the memory analysis lists suspects from 10%, so lower values change nothing.",
      },
      minRetainedMB: {
        type: 'number',
        min: 0,
        default: 16,
        description: "Smallest suspect judged, in MiB: a tenth of a small heap (the JDK's own certificates, a 5 MB test JVM) is not a leak.",
      },
      errorShare: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.5,
        description: 'A suspect retaining at least this share of the heap is an error rather than a warning.',
      },
      ...CLASS_LOADER_OPTIONS,
    },
  },
  check({ model, options }) {
    const minShare = Number(options['minShare']);
    const minBytes = Number(options['minRetainedMB']) * 1024 * 1024;
    const errorShare = Number(options['errorShare']);
    const suspects = model.memory.flatMap((m) => {
      const summary: MemorySummary | undefined = m.summary;
      if (summary === undefined) return [];
      const queues = knownQueues(model, m.input);
      return summary.suspects
        .filter((s) => s.share >= minShare && s.retained >= minBytes)
        .map((s) => {
          const heap = summary.retainedBytes;
          const pct = shareText(s.retained, summary.retainedBytes);
          const who = s.kind === 'object' ? `One ${objectName(s.subject)}` : classSuspectText(s);
          const a = s.accumulation;
          const holds = biggestHeldText(a);
          const holder = holderKind(s);
          const what = `${objectName(a)}${holder !== undefined ? ` (${holder.kind})` : ''}`;
          const accumulates =
            a.chainLinks !== undefined
              ? ` The memory accumulates in ${what}, the first of ${countText(a.chainLinks)} linked nodes: it retains ${approximateBytes(a.retained)}.`
              : a.index !== s.subject.index || s.kind === 'class'
                ? ` The memory accumulates in ${what}: it retains ${approximateBytes(a.retained)} and directly holds ${countOf(a.dominated, 'object')}` +
                  `${holds !== '' ? `, ${holds}` : ''}.`
                : ` It directly holds ${countOf(a.dominated, 'object')}, none of which retains most of it${holds !== '' ? `; ${holds}` : ''}.`;
          const path = s.path ?? [];
          const queue = [a, ...path.map((p) => p.object)].map((o) => queues.get(o.id)).find((q) => q !== undefined);
          const held = path.length > 0 ? ` Kept by: ${keptBy(path)}.` : '';
          const stack = s.stackHolder;
          const onStack = stack !== undefined ? ` It is held on a thread's stack: ${stackHolderText(s)}.` : '';
          const evidence: Evidence[] = [
            {
              kind: 'heap-object',
              source: m.input,
              id: s.subject.id,
              className: s.subject.className,
              note: `retains ${approximateBytes(s.retained)} (${pct})`,
            },
            ...(a.id !== s.subject.id
              ? [
                  {
                    kind: 'heap-object' as const,
                    source: m.input,
                    id: a.id,
                    className: a.className,
                    note: `accumulation point: retains ${approximateBytes(a.retained)}, ${plural(a.dominated, 'object')} directly`,
                  },
                ]
              : []),
            ...(stack !== undefined
              ? [
                  {
                    kind: 'heap-object' as const,
                    source: m.input,
                    id: stack.id,
                    className: stack.className,
                    note: `held by ${stackFramesText(stack)}`,
                  },
                ]
              : []),
          ];
          return {
            subject: s.kind === 'object' ? `${s.className} ${s.subject.id}` : s.className,
            ...(s.share >= errorShare ? { severity: 'error' as const } : {}),
            message:
              `${who} retain${s.kind === 'object' ? 's' : ''} ${approximateBytes(s.retained)}, ${pct} of the ${approximateBytes(heap)} ` +
              `reachable heap.${accumulates}${onStack}${held}${queue !== undefined ? ` This is ${queue.what}: the backlog is what fills the heap.` : ''}`,
            facts: {
              retainedBytes: s.retained,
              share: Number(s.share.toFixed(4)),
              heapBytes: heap,
              kind: s.kind,
              instances: s.instances,
              accumulationClass: a.className,
              accumulationId: a.id,
              accumulationRetainedBytes: a.retained,
              accumulationDominated: a.dominated,
              accumulationChainLinks: a.chainLinks ?? null,
              holderKind: holder?.kind ?? null,
              heldOnStack: stack !== undefined ? stack.stackFrames.map((h) => stackFramesText({ stackFrames: [h] })) : null,
              pathFromGcRoot: s.path !== undefined ? pathText(path) : ['not looked up: dumpsleuth memory --path ' + a.id],
            },
            evidence,
            causedBy: queue?.backlog !== undefined ? [{ rule: 'queue-backlog', subject: queue.backlog }] : [],
            ...(stack !== undefined
              ? { remedy: stackRemedy(stack) }
              : holder !== undefined
                ? { remedy: `Where it accumulates is ${holder.kind}: ${holder.remedy}. Follow the path from the GC root to see who keeps it.` }
                : {}),
            // A share of the heap held: a heap about to run out weighs as much as many held threads.
            impact: Math.round(s.share * 100),
          };
        });
    });
    return [...suspects, ...classLoaderFindings(model, options)];
  },
};

/**
 * What kind of holder the memory accumulates in, by the class of the accumulation point or of the
 * object that holds it, with what to do about each. Data: a row per kind, the first match wins.
 * The kinds are MAT's and the JDK's own (java-internals.md): hash tables keep their entries in a
 * `Node[]`/`Entry[]` table, array-backed lists and deques in an `Object[]`.
 */
const HOLDER_KINDS: ReadonlyArray<{ readonly pattern: RegExp; readonly kind: string; readonly remedy: string }> = [
  { pattern: /ThreadLocal/, kind: 'thread-local values', remedy: 'call ThreadLocal.remove() when the task that set it ends (pooled threads live forever)' },
  {
    pattern: /Listener|Observer|Callback|Handler/,
    kind: 'a list of listeners',
    remedy: 'unregister listeners when their owner goes away (or hold them weakly)',
  },
  { pattern: /(?:Queue|Deque)\b|(?:Queue|Deque)\$/, kind: 'a queue', remedy: 'bound the queue and reject early; find why its consumers are behind' },
  {
    pattern: /(?:Map|Hashtable|Cache)\b|(?:Map|Hashtable|Cache)\$|\$(?:Node|Entry|TreeNode)\[\]$/,
    kind: 'a map',
    remedy: 'bound the map (an LRU or expiring cache such as Caffeine with maximumSize), or remove entries when done with them',
  },
  {
    pattern: /(?:List|Vector|Set|Collection)\b|(?:List|Vector|Set)\$|^java\.lang\.Object\[\]$/,
    kind: 'a collection',
    remedy: 'bound the collection, or remove elements when done with them',
  },
];

function holderKind(s: LeakSuspect): (typeof HOLDER_KINDS)[number] | undefined {
  const path = s.path ?? [];
  // The accumulation point, then what holds it (a table's map, an array's list), nearest first.
  const names = [
    s.accumulation.className,
    ...path
      .slice(0, -1)
      .reverse()
      .slice(0, 2)
      .map((p) => p.object.className),
  ];
  for (const n of names) {
    const row = HOLDER_KINDS.find((k) => k.pattern.test(n));
    if (row !== undefined) return row;
  }
  return undefined;
}

const objectName = (o: RetainedObject) => retainedObjectName(o, true);

/**
 * What to do when a method still running keeps the memory in a local variable: no field or map to
 * bound, but a method that collects everything before it is done (or waits while holding it).
 */
function stackRemedy(stack: NonNullable<LeakSuspect['stackHolder']>): string {
  const where = stack.stackFrames[0]!.frame ?? 'the frame that holds it';
  return (
    `A local variable of ${where} holds it while that method runs: process the data in batches or stream it instead of ` +
    'collecting all of it first, and drop the reference before the method waits or calls out (see why the thread stays in that frame).'
  );
}

function pathText(path: readonly PathStep[]): string[] {
  return path.map((st, k) => (k === 0 ? `GC root (${st.rootKind ?? 'root'}): ${objectName(st.object)}` : `${st.via ?? '?'} -> ${objectName(st.object)}`));
}

/**
 * How the path keeps it, in words: from the last class whose static field is on the path (the clue
 * a developer looks for), else from the GC root.
 */
function keptBy(path: readonly PathStep[]): string {
  let from = 0;
  for (let k = path.length - 1; k > 0; k--)
    if (path[k]!.object.describes !== undefined) {
      from = k;
      break;
    }
  const head = from === 0 ? `GC root (${path[0]!.rootKind ?? 'root'}) ${objectName(path[0]!.object)}` : objectName(path[from]!.object);
  return [head, ...path.slice(from + 1).map((st) => `${st.via ?? '?'} -> ${objectName(st.object)}`)].join(' -> ');
}

/** The executor queues the model knows, by queue id, so a suspect held by one says which (backlog: the queue-backlog subject, when it holds tasks). */
function knownQueues(model: Model, input: string): Map<string, { what: string; backlog?: string }> {
  const out = new Map<string, { what: string; backlog?: string }>();
  for (const e of model.executors) {
    const q = e.heap?.queue;
    if (q?.id === undefined || e.heap!.object.input !== input) continue;
    out.set(q.id, { what: `the queue of executor "${e.name}" (${q.size ?? '?'} queued tasks)`, ...((q.size ?? 0) > 0 ? { backlog: e.name } : {}) });
  }
  return out;
}
