/**
 * `dumpsleuth memory <heap>`: what holds the memory of a heap dump (HPROF, or a V8 .heapsnapshot): the dominator tree's
 * biggest retainers, the leak suspects, the classes by retained size (text, dumpsleuth.memory/1 JSON, Markdown or HTML).
 */
import { nothingReadError, openHeapFile } from '../analysis/heap-file.js';
import {
  analyseOlderHeaps,
  feedOf,
  growthChoice,
  growthSince,
  heapKind,
  keptByOlder,
  newestGrowthOptions,
  requireOneProgramFormat,
} from '../analysis/memory-growth.js';
import { InputError, UsageError } from '../errors.js';
import { HeapView } from '../heap/heap-view.js';
import { analyseMemory } from '../heap/memory/analyse-memory.js';
import { withThreadNames } from '../heap/memory/finish.js';
import { idText, parseObjectId, retainerTree } from '../heap/memory/memory-graph.js';
import { LOADER_NAMES_ROOT, withLoaderNames } from '../heap/memory/name-loaders.js';
import { HprofFormatError, type LoadPlan } from '../heap/open-heap.js';
import { readInputFile, renamed } from '../input/stdin.js';
import type { MemorySummary, RetainedObject, RetainerNode } from '../model/memory.js';
import { renderMemoryHtml } from '../report/memory-html.js';
import { renderMemoryMarkdown } from '../report/memory-markdown.js';
import { type MemoryReport, renderMemoryJson, renderMemoryText } from '../report/memory-text.js';
import type { ReportFormat } from '../report/renderers.js';
import { stripControl } from '../report/sanitize.js';
import { commandOutput, type OutputRequest, sayWarnings } from './command-output.js';
import type { CommandIo } from './io.js';

/** What the progress line says in each step of the memory analysis after the reading (see analyseMemory). */
const MEMORY_PHASES: Readonly<Record<string, string>> = { dominators: 'dominator tree', summary: 'leak suspects', paths: 'paths from GC roots' };

/** What names the threads of a memory report: every Thread, its name String and that String's array. */
const THREAD_NAMES_PLAN: LoadPlan = { roots: [{ className: 'java.lang.Thread', depth: 2, subclasses: true }] };

/**
 * Whether the report lists an object that may be a thread (its class named as one), or a suspect a
 * thread's stack keeps (its holder, or a path that leaves a thread), worth a load for the names. A
 * frame that holds an object of the tree alone is not: that load is a pass over the file (2 s on a
 * 650 MB dump, against 3 for the analysis), and the frame names its thread by id without it.
 */
function listsAThread(summary: MemorySummary, tree: readonly RetainerNode[]): boolean {
  const thread = (o: RetainedObject) => o.describes === undefined && /Thread$/.test(o.className);
  const inTree = (nodes: readonly RetainerNode[]): boolean => nodes.some((n) => thread(n.object) || inTree(n.children));
  return (
    summary.dominators.some(thread) ||
    summary.suspects.some(
      (x) =>
        thread(x.subject) ||
        thread(x.accumulation) ||
        (x.accumulation.biggest ?? []).some(thread) ||
        x.stackHolder !== undefined ||
        (x.path ?? []).some((st) => thread(st.object)),
    ) ||
    inTree(tree)
  );
}

export interface MemoryOptions extends OutputRequest {
  /** Top-level dominators shown (and listed in JSON). */
  readonly top: number;
  /** `--path <id>`: also the shortest strong path from a GC root to this object (`0x7ff01234`). */
  readonly path?: string;
  /** `--dump N`: which heap dump of an HPROF holding several to read (from 1). */
  readonly heapDump?: number;
  /** `--max-memory`, already parsed. */
  readonly maxMemoryBytes?: number;
  /** `--max-gunzip-size`, already parsed. */
  readonly maxGunzipBytes?: number;
  /** `--baseline`: older heap dumps of the same program, oldest first: what grew since them. */
  readonly baseline?: readonly string[];
}

/** The memory report in each format of the registry (its -o extensions choose among them as analyze's do). */
const MEMORY_RENDERERS: Readonly<Record<ReportFormat, (r: MemoryReport) => string>> = {
  text: renderMemoryText,
  json: renderMemoryJson,
  markdown: renderMemoryMarkdown,
  html: renderMemoryHtml,
};

export const MEMORY_FORMATS = Object.keys(MEMORY_RENDERERS) as readonly ReportFormat[];

/** Classes the report lists by retained size (a comparison reads them all). */
const LISTED_CLASSES = 40;

export async function memoryCommand(heaps: readonly string[], opts: MemoryOptions, io: CommandIo): Promise<number> {
  const pathId = opts.path !== undefined ? parseObjectId(opts.path) : undefined;
  if (opts.path !== undefined && pathId === undefined)
    throw new UsageError(
      `--path ${stripControl(opts.path)} is not an object id`,
      'give the id as the report prints it, such as --path 0xf0054ee8 (HPROF) or --path @1234 (V8)',
    );
  const baselines = opts.baseline ?? [];
  if (baselines.length === 0 && heaps.length > 1)
    throw new UsageError(
      `memory reads one heap dump, and was given ${heaps.length}`,
      'to see what grew between dumps of one JVM, name the older with --baseline: dumpsleuth memory --baseline <older> <newer>',
    );
  const all = [...baselines, ...heaps];
  if (all.filter((h) => h === '-').length > 1) throw new UsageError('standard input (-) can be only one of the heap dumps', 'give the others as files');
  const { format, progress, write } = await commandOutput(opts, MEMORY_FORMATS, io);
  // The older dumps of a comparison first (analysis/memory-growth.ts: the pipeline the UI's Growth screen runs too).
  const older = await analyseOlderHeaps(all, opts, progress);
  const path = all[all.length - 1]!;
  const choice = growthChoice();
  const { value: analysis, file } = await readInputFile(path, async (f) => {
    const { kind, identity } = await heapKind(path, f, opts, progress, keptByOlder(older, all.length));
    for (const b of older) requireOneProgramFormat(b, { source: path, kind, ...identity });
    try {
      const found = await analyseMemory(f, {
        format: kind,
        onProgress: (e) => progress.update(MEMORY_PHASES[e.phase] ?? `reading ${path}`, e),
        topDominators: Math.max(opts.top, 20),
        suspectPaths: true,
        waste: true,
        ...(pathId !== undefined ? { pathToId: pathId } : {}),
        ...(older.length > 0 ? newestGrowthOptions(older, choice) : {}),
        feed: feedOf(opts),
      });
      const retainers = retainerTree(found.graph, found.tree, found.lists, { top: opts.top, children: 3, depth: 3 });
      const growth =
        older.length > 0
          ? growthSince(
              older,
              { ...found, source: path, ...identity, ...(found.graph.cut !== undefined ? { cut: renamed(found.graph.cut, f, path) } : {}) },
              choice,
            )
          : undefined;
      const listed = { ...found, summary: { ...found.summary, classes: found.summary.classes.slice(0, LISTED_CLASSES) }, retainers, growth };
      const loaders = (listed.summary.classLoaders?.classes.length ?? 0) > 0;
      if (kind !== 'hprof' || (!listsAThread(listed.summary, retainers) && !loaders)) return listed;
      // A thread is named as analyze names it (`java.lang.Thread "main"`): its name read from a load of the threads alone
      // (and of the class loaders, when the report lists loaders: their names).
      const plan = loaders ? { roots: [...THREAD_NAMES_PLAN.roots, LOADER_NAMES_ROOT] } : THREAD_NAMES_PLAN;
      const threads = await openHeapFile(f, { ...plan, ...(opts.heapDump !== undefined ? { heapDump: opts.heapDump } : {}) }, (e) =>
        progress.update(`thread names of ${path}`, e),
      );
      const view = new HeapView(threads);
      const named = withLoaderNames(withThreadNames({ input: path, summary: listed.summary, tree: retainers }, view), view);
      return { ...listed, summary: named.summary!, retainers: named.tree! };
    } catch (e) {
      if (e instanceof HprofFormatError) throw new InputError(`${f}: ${e.message}`, 'pass an HPROF heap dump or a V8 .heapsnapshot (plain or gzip)');
      throw e;
    }
  });
  const { graph, pathTo } = analysis;
  if (pathTo === null)
    throw new InputError(`${stripControl(opts.path!)} is no object of ${path}`, "give an id the memory report lists (ids are the dump's addresses)");
  const rootPath: MemoryReport['path'] = pathTo !== undefined ? { target: idText(graph, pathId!), steps: pathTo } : undefined;
  progress.clear();
  const cut = graph.cut !== undefined ? renamed(graph.cut, file, path) : undefined;
  if (cut !== undefined && analysis.summary.objects === 0) throw nothingReadError(path, cut);
  const report: MemoryReport = {
    ...(cut !== undefined ? { cut } : {}),
    source: path,
    ...(rootPath !== undefined ? { path: rootPath } : {}),
    summary: analysis.summary,
    tree: analysis.retainers,
    ...(analysis.growth !== undefined ? { growth: analysis.growth } : {}),
    warnings: [...older.flatMap((b) => b.warnings), ...graph.warnings.map((w) => renamed(w, file, path))],
  };
  await write(MEMORY_RENDERERS[format](report));
  sayWarnings(report.warnings, io);
  return 0;
}
