/**
 * The JVM busy collecting. The idea: the garbage collector's threads print their CPU time like any
 * other (JDK 11+: `"GC Thread#0" ... cpu=...ms`); when they have used a large share of all the
 * process's threads' CPU, the JVM spends its time collecting instead of running the application (a
 * heap too small for the load, or a leak filling it). Across a series the share is of the CPU used
 * between the first and the last dump (what it does now); one dump gives it over the JVM's life.
 * A dump the JVM wrote because the heap ran out (a javacore whose trigger is an OutOfMemoryError of the
 * heap) says the end of that road itself: the collector could not make room for the next allocation.
 */
import { nameMatcher } from '../knowledge/index.js';
import type { Model } from '../model/model.js';
import type { ThreadDump } from '../model/thread-dump.js';
import type { FindingDraft, Rule } from './rule.js';
import { threadEvidence } from './support/evidence.js';

export const gcOverhead: Rule = {
  meta: {
    id: 'gc-overhead',
    defaultSeverity: 'warning',
    title: 'JVM busy collecting garbage',
    description:
      "The garbage collector's threads used a large share of the CPU of all the process's threads (their cpu= figures, JDK 11+): " +
      "between the first and last dump of a series, or over the JVM's life with one dump. The heap is too small for the load, or a leak fills it.",
    remedy:
      'Read the GC log (-Xlog:gc* on JDK 9+, -verbose:gc before) for the heap after each collection: if it keeps growing, take a heap dump and ' +
      'look at what holds the memory (dumpsleuth memory); if it is stable but near the maximum, give the heap more room (-Xmx) or lower the allocation rate.',
    remedyKind: 'search',
    options: {
      minShare: { type: 'number', min: 0, max: 1, default: 0.3, description: "Share of the process's thread CPU the GC threads must have used." },
      errorShare: { type: 'number', min: 0, max: 1, default: 0.6, description: 'Share that makes it an error.' },
      minGcSeconds: {
        type: 'number',
        min: 0,
        default: 10,
        description: 'CPU seconds the GC threads must have used over the measured span (below, too little to judge).',
      },
      minGcCores: {
        type: 'number',
        min: 0,
        default: 0.5,
        description: 'Cores the GC threads must have kept busy on average over the span: a mostly idle JVM spends a large share of little CPU collecting.',
      },
    },
  },
  check({ model, options }) {
    const minShare = Number(options['minShare']);
    const errorShare = Number(options['errorShare']);
    const minGc = Number(options['minGcSeconds']);
    const minCores = Number(options['minGcCores']);
    const oom = heapExhausted(model);
    const measure = seriesMeasure(model) ?? lifetimeMeasure(model);
    if (measure === undefined || measure.gcSeconds < minGc) return oom === undefined ? [] : [oomFinding(model, oom)];
    // Over a long, mostly idle life the collector's share of little CPU can be large; it matters when it keeps cores busy.
    const cores = measure.wallSeconds === null ? null : measure.gcSeconds / measure.wallSeconds;
    const share = measure.gcSeconds / measure.totalSeconds;
    if (cores === null || cores < minCores || share < minShare) return oom === undefined ? [] : [oomFinding(model, oom)];
    const draft: FindingDraft = {
      subject: 'garbage collector',
      ...(share >= errorShare ? { severity: 'error' as const } : {}),
      message:
        `The garbage collector's ${measure.gcThreads} threads used ${Math.round(share * 100)} % of the CPU of all the process's threads ` +
        `(${measure.gcSeconds.toFixed(0)} s of ${measure.totalSeconds.toFixed(0)} s ${measure.span}, ${cores.toFixed(1)} cores on average): ` +
        'the JVM spends its time collecting, ' +
        'not running the application. The heap is too small for the load, or a leak fills it.',
      facts: {
        gcShare: Number(share.toFixed(3)),
        gcCpuSeconds: Number(measure.gcSeconds.toFixed(1)),
        processCpuSeconds: Number(measure.totalSeconds.toFixed(1)),
        gcThreads: measure.gcThreads,
        gcCores: Number(cores.toFixed(2)),
        measuredBy: measure.how,
      },
      evidence: measure.top.map((r) =>
        threadEvidence(model, model.threadRefs[r.dump]![r.thread]!, `cpu=${((model.dumps[r.dump]!.threads[r.thread]!.cpuMs ?? 0) / 1000).toFixed(1)} s`),
      ),
      impact: Math.round(share * 20),
    };
    return [draft];
  },
};

const isGcThread = nameMatcher('gc-thread-name');

/** The OutOfMemoryErrors that mean the heap itself is full (not metaspace, native threads or direct buffers). */
const HEAP_OOM_KINDS = ['Java heap space', 'GC overhead limit exceeded'];

/** The last dump written because the heap ran out, as the dump says (its trigger). */
function heapExhausted(model: Model): number | undefined {
  for (let d = model.dumps.length - 1; d >= 0; d--) {
    const t = model.dumps[d]!.trigger;
    if (t?.detail?.includes('OutOfMemoryError') === true && HEAP_OOM_KINDS.some((k) => t.detail!.includes(k))) return d;
  }
  return undefined;
}

function oomFinding(model: Model, dump: number): FindingDraft {
  const d = model.dumps[dump]!;
  const trigger = d.trigger!;
  const heap = d.heapFigures;
  const full =
    heap?.totalBytes !== undefined && heap.inUseBytes !== undefined && heap.totalBytes > 0
      ? `, with ${mib(heap.inUseBytes)} of its ${mib(heap.totalBytes)} heap in use (${Math.round((heap.inUseBytes / heap.totalBytes) * 100)} %)`
      : '';
  return {
    subject: 'garbage collector',
    severity: 'error',
    message:
      `The JVM wrote this dump because it threw ${trigger.detail} (the dump's own trigger, event "${trigger.event}")${full}: ` +
      'the collector could not free room for the next allocation. The heap is too small for the load, or a leak fills it.',
    facts: {
      trigger: `${trigger.event}: ${trigger.detail}`,
      ...(heap?.inUseBytes !== undefined ? { heapInUseBytes: heap.inUseBytes } : {}),
      ...(heap?.totalBytes !== undefined ? { heapTotalBytes: heap.totalBytes } : {}),
      measuredBy: 'dump trigger',
    },
    evidence: [
      { kind: 'log', source: d.source, line: trigger.line, text: `Dump Event "${trigger.event}" Detail ${trigger.detail}`, note: "the dump's trigger" },
      ...(heap !== undefined
        ? [{ kind: 'log' as const, source: d.source, line: heap.line, text: `heap in use ${heap.inUseBytes ?? '?'} of ${heap.totalBytes ?? '?'} bytes` }]
        : []),
    ],
    impact: 20,
  };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

interface GcMeasure {
  readonly gcSeconds: number;
  readonly totalSeconds: number;
  readonly gcThreads: number;
  readonly span: string;
  readonly how: 'series' | 'lifetime';
  /** Wall-clock seconds the CPU was used over (the JVM's uptime, or the series' span); null when unknown. */
  readonly wallSeconds: number | null;
  /** The GC threads that used most, for evidence. */
  readonly top: ReadonlyArray<{ readonly dump: number; readonly thread: number }>;
}

/** CPU seconds by thread name, and which are the collector's; null when the dump prints no cpu= for GC threads. */
function cpuByName(d: ThreadDump): Map<string, { readonly seconds: number; readonly gc: boolean; readonly thread: number }> | null {
  const out = new Map<string, { seconds: number; gc: boolean; thread: number }>();
  let gcSeen = false;
  d.threads.forEach((th, thread) => {
    if (th.cpuMs === undefined) return;
    const gc = th.frames.length === 0 && isGcThread(th.name) !== undefined;
    gcSeen ||= gc;
    out.set(th.name, { seconds: th.cpuMs / 1000, gc, thread });
  });
  return gcSeen ? out : null;
}

/** Between the first and last dump of the longest series: CPU used by threads in both. */
function seriesMeasure(model: Model): GcMeasure | undefined {
  const series = [...model.series].sort((a, b) => b.dumps.length - a.dumps.length)[0];
  if (series === undefined || series.dumps.length < 2) return undefined;
  const firstDump = series.dumps[0]!;
  const lastDump = series.dumps[series.dumps.length - 1]!;
  const first = cpuByName(model.dumps[firstDump]!);
  const last = cpuByName(model.dumps[lastDump]!);
  if (first === null || last === null) return undefined;
  let gc = 0;
  let total = 0;
  let gcThreads = 0;
  const top: Array<{ dump: number; thread: number; used: number }> = [];
  for (const [name, now] of last) {
    const before = first.get(name);
    if (before === undefined) continue;
    const used = Math.max(0, now.seconds - before.seconds);
    total += used;
    if (now.gc) {
      gc += used;
      gcThreads++;
      top.push({ dump: lastDump, thread: now.thread, used });
    }
  }
  if (total <= 0) return undefined;
  return {
    gcSeconds: gc,
    totalSeconds: total,
    gcThreads,
    span: 'between the first and the last dump',
    how: 'series',
    wallSeconds: series.spanSeconds,
    top: byUse(top),
  };
}

/** One dump (the last): CPU over the JVM's life so far. No map of names: one pass over the threads. */
function lifetimeMeasure(model: Model): GcMeasure | undefined {
  const lastDump = model.dumps.length - 1;
  if (lastDump < 0) return undefined;
  const threads = model.dumps[lastDump]!.threads;
  let gc = 0;
  let total = 0;
  let gcThreads = 0;
  let uptime = 0;
  const top: Array<{ dump: number; thread: number; used: number }> = [];
  for (let thread = 0; thread < threads.length; thread++) {
    const th = threads[thread]!;
    if (th.elapsedS !== undefined && th.elapsedS > uptime) uptime = th.elapsedS;
    if (th.cpuMs === undefined) continue;
    const seconds = th.cpuMs / 1000;
    total += seconds;
    // The collector's threads have no Java frames: a name is tested only for a frameless thread.
    if (th.frames.length === 0 && isGcThread(th.name) !== undefined) {
      gc += seconds;
      gcThreads++;
      top.push({ dump: lastDump, thread, used: seconds });
    }
  }
  if (gcThreads === 0 || total <= 0) return undefined;
  return {
    gcSeconds: gc,
    totalSeconds: total,
    gcThreads,
    span: "over the JVM's life (one dump)",
    how: 'lifetime',
    // The JVM's uptime: its oldest thread's elapsed time.
    wallSeconds: uptime > 0 ? uptime : null,
    top: byUse(top),
  };
}

const byUse = (list: Array<{ dump: number; thread: number; used: number }>) =>
  [...list]
    .sort((a, b) => b.used - a.used)
    .slice(0, 5)
    .map(({ dump, thread }) => ({ dump, thread }));
