/** Builds the Model from parsed thread-dump files: the analyses of src/threads/, put together. */
import type { HeapInput } from '../heap/heap-input.js';
import type { ThreadActivity } from '../model/activity.js';
import type {
  CpuSampleModel,
  DeadlockModel,
  ExecutorModel,
  InputSummary,
  LeftOutInput,
  LockModel,
  LogEventModel,
  Model,
  SeriesModel,
  StackGroupModel,
  ThreadRef,
} from '../model/model.js';
import type { StackFrame, ThreadDump, ThreadDumpFile } from '../model/thread-dump.js';
import { callTreesOf } from '../threads/call-tree.js';
import { reviseByCpu } from '../threads/cpu-evidence.js';
import { futureCycles } from '../threads/future-cycles.js';
import { buildLockGraph } from '../threads/lock-graph.js';
import { type MergedMoment, mergeMoments, virtualThreadSign } from '../threads/moments.js';
import { dumpLabel, isCopyOf, jvmGroups, matchSeries, samePlace, seriesOfJvms } from '../threads/series.js';
import { groupIdenticalStacks, stateSummary } from '../threads/stack-groups.js';
import { classifyDump } from '../threads/thread-activity.js';
import { busyActivities, findThreadPools } from '../threads/thread-pools.js';
import { reconstructConcurrency } from './concurrency.js';
import { asyncAppenders } from './heap-appenders.js';
import { finalizerQueues } from './heap-finalizer.js';
import type { UserCounterSpec } from './user-counters.js';

export interface ParsedThreadInput {
  readonly path: string;
  readonly format: string;
  readonly gzip: boolean;
  readonly encoding: string;
  readonly file: ThreadDumpFile;
  readonly logEvents?: readonly LogEventModel[];
}

/** Frames are interned per file, so dumps of one file compare by identity; across files, by text. */
function sameFrames(a: readonly StackFrame[], b: readonly StackFrame[]): boolean {
  return a.length === b.length && a.every((f, k) => f === b[k] || (f.qualified === b[k]!.qualified && f.location === b[k]!.location));
}

/** Heap dumps and logs of the same incident, and what the config declares. */
export interface OtherInputs {
  readonly heaps?: ReadonlyArray<HeapInput & { readonly summary: InputSummary }>;
  readonly logs?: ReadonlyArray<{ readonly summary: InputSummary; readonly events: LogEventModel[]; readonly cpuSamples?: readonly CpuSampleModel[] }>;
  readonly userCounters?: readonly UserCounterSpec[];
  /** The incident's files that were not read, and how many more past those (see Model.leftOut). */
  readonly leftOut?: readonly LeftOutInput[];
  readonly leftOutMore?: number;
  /** What the loading found to say about the incident (a capture's failed steps). */
  readonly notes?: readonly string[];
}

export function buildModel(inputs: ParsedThreadInput[], others: OtherInputs = {}): Model {
  const dumps: ThreadDump[] = [];
  const summaries: InputSummary[] = [];
  for (const input of inputs) {
    const f = input.file;
    summaries.push({
      path: input.path,
      kind: 'threads',
      format: input.format,
      gzip: input.gzip,
      encoding: input.encoding,
      dumps: f.dumps.length,
      threads: f.dumps.reduce((n, d) => n + d.threads.length, 0),
      unparsedLines: f.dumps.reduce((n, d) => n + d.unparsedCount, 0),
      outsideLines: f.outsideLines,
      warnings: [...f.warnings],
      ...(f.linePrefix !== undefined ? { linePrefix: f.linePrefix } : {}),
      ...(f.cut !== undefined ? { cut: f.cut } : {}),
    });
    dumps.push(...f.dumps);
  }
  // A JSON dump (virtual threads) and the Thread.print dump of the same moment are one dump, not two of a series.
  const moments = mergeMoments(dumps);
  dumps.splice(0, dumps.length, ...moments.dumps);
  // With no thread dump at all, the heap dumps' own stacks stand in (an OOM heap dump is often all there is).
  const stacksFromHeaps = inputs.length === 0 ? (others.heaps ?? []).filter((h) => h.stacks !== undefined) : [];
  for (const h of stacksFromHeaps) dumps.push(...h.stacks!.dumps);
  // Order dumps in time when every dump has a timestamp; otherwise keep the input order.
  if (dumps.every((d) => d.timestampIso !== undefined)) {
    const indexed = dumps.map((d, i) => ({ d, i }));
    indexed.sort((a, b) => (a.d.timestampIso! < b.d.timestampIso! ? -1 : a.d.timestampIso! > b.d.timestampIso! ? 1 : a.i - b.i));
    dumps.splice(0, dumps.length, ...indexed.map((x) => x.d));
  }

  // One ref per thread, shared by every part of the model that cites it (a thread of a big pool is
  // cited by its pool, its stack group and the lock it waits for).
  const refs: ThreadRef[][] = dumps.map((d, dump) => d.threads.map((th, thread) => ({ dump, thread, name: th.name })));
  const ref = (dump: number, thread: number): ThreadRef => refs[dump]![thread]!;
  // A pool's or a stack group's threads, as refs (up to the whole dump: a loop, not a map with a closure).
  const refsOf = (dump: number, threads: readonly number[]): ThreadRef[] => {
    const ofDump = refs[dump]!;
    const out = new Array<ThreadRef>(threads.length);
    for (let k = 0; k < threads.length; k++) out[k] = ofDump[threads[k]!]!;
    return out;
  };
  const executors: ExecutorModel[] = [];
  const contended: LockModel[] = [];
  const deadlocks: DeadlockModel[] = [];
  const threadGroups: StackGroupModel[] = [];
  const stateSummaries: Model['stateSummaries'] = [];
  const graphs = dumps.map(buildLockGraph);
  const framesSay: ThreadActivity[][] = dumps.map((dump, di) => classifyDump(dump, graphs[di]!));
  // The same capture given twice is counted once, and said so.
  const copies = new Set<number>();
  const copyNotes: string[] = [];
  dumps.forEach((d, i) => {
    if (i === 0 || !isCopyOf(d, dumps[i - 1]!)) return;
    copies.add(i);
    copyNotes.push(
      `${d.source} (dump ${d.index + 1} of the file) is a copy of ${dumps[i - 1]!.source} (dump ` +
        `${dumps[i - 1]!.index + 1}): the same instant, threads and CPU times; it is counted once in the series`,
    );
  });
  // Dumps that cannot come from one JVM are never one series, and the report says why.
  const jvms = jvmGroups(
    dumps,
    dumps.map((_, i) => i).filter((i) => !copies.has(i)),
  );
  const jvmNotes = jvms.groups
    .slice(1)
    .map(
      (g, k) =>
        `${describeDumps(dumps, g)} cannot come from the JVM of ${describeDumps(dumps, jvms.groups[0]!)}` +
        `: ${jvms.reasons[k]}; each JVM's dumps are a series of their own`,
    );
  const series = buildSeries(dumps, jvms.groups);
  // What the threads' CPU did between the dumps of a series outweighs what their frames say.
  const activity = reviseByCpu(
    dumps,
    series,
    framesSay,
    (others.logs ?? []).flatMap((l) => l.cpuSamples ?? []),
  );
  dumps.forEach((dump, di) => {
    const graph = graphs[di]!;
    const verdicts = activity[di]!;
    for (const pool of findThreadPools(dump, verdicts)) {
      executors.push({
        name: pool.name,
        source: 'thread-names',
        namedLikePool: pool.real,
        loop: pool.loop,
        dump: di,
        workers: pool.threads.length,
        busy: pool.busy.length,
        idle: pool.idle.length,
        busyThreads: refsOf(di, pool.busy),
        idleThreads: refsOf(di, pool.idle),
        busyActivities: busyActivities(dump, pool.busy),
      });
    }
    for (const node of graph.locks) {
      // Most locks are a condition its waiters wait on for a signal: no array made for those.
      if (!node.waiters.some((w) => w.kind !== 'object-wait')) continue;
      const waiters = node.waiters.filter((w) => w.kind !== 'object-wait');
      contended.push({
        dump: di,
        lock: node.lock,
        owner: node.owner === null ? null : ref(di, node.owner),
        waiters: waiters.map((w) => ({ dump: di, thread: w.thread, name: dump.threads[w.thread]!.name, kind: w.kind })),
      });
    }
    for (const c of graph.cycles) {
      const d: DeadlockModel = {
        dump: di,
        threads: refsOf(di, c.threads),
        locks: c.locks,
        confidence: c.confidence,
        reportedByJvm: c.reportedByJvm,
      };
      deadlocks.push(c.note !== undefined ? { ...d, note: c.note } : d);
    }
    for (const f of futureCycles(dump, graph)) {
      if (graph.cycles.some((c) => c.threads.includes(f.threads[0]) && c.threads.includes(f.threads[1]))) continue;
      const [waiter, task] = f.threads.map((t) => dump.threads[t]!.name);
      const lock = `${f.lock.className}${f.lock.id ? ` <${f.lock.id}>` : ''}`;
      deadlocks.push({
        dump: di,
        // The task's thread first: it waits for the lock (locks[0]), held by the waiter, who waits for its result.
        threads: refsOf(di, [f.threads[1], f.threads[0]]),
        locks: [f.lock],
        confidence: 'possible',
        reportedByJvm: false,
        through: 'future',
        note:
          `"${waiter}" holds ${lock} and waits for a task's result (${f.waitFrame}), called through ${f.linkClass}; ` +
          `"${task}" runs a task that starts in ${f.linkClass} and is blocked on ${lock}: the task waits for "${waiter}", ` +
          `which waits for the task (the dump does not say which thread runs a future: the link is ${f.linkClass}, in both stacks)`,
      });
    }
    const stackGroups = groupIdenticalStacks(dump);
    stateSummaries.push(stateSummary(stackGroups));
    for (const g of stackGroups) {
      threadGroups.push({
        dump: di,
        state: g.state,
        count: g.threads.length,
        topFrames: g.frames.slice(0, 8).map((f) => f.qualified),
        activity: verdicts[g.threads[0]!]!,
        threads: refsOf(di, g.threads),
      });
    }
  });
  contended.sort((a, b) => b.waiters.length - a.waiters.length || a.dump - b.dump);
  const heaps = others.heaps ?? [];
  const logs = others.logs ?? [];
  for (const h of heaps) summaries.push(h.summary);
  for (const l of logs) summaries.push(l.summary);
  // Known log lines come from log files and from the lines around dumps in thread-dump files.
  const logEvents = [...logs.flatMap((l) => l.events), ...inputs.flatMap((i) => i.logEvents ?? [])];
  const concurrency = reconstructConcurrency(dumps, executors, heaps, logEvents, others.userCounters ?? [], activity);

  // What the answer may depend on and the inputs do not hold: a capture's failed steps, virtual threads the dumps cannot list.
  const missingEvidence = [...(others.notes ?? []), ...unlistedVirtualThreadsNote(dumps)];
  return {
    inputs: summaries,
    dumps,
    threadRefs: refs,
    stateSummaries,
    callTrees: callTreesOf(dumps),
    activity,
    threadGroups,
    executors: concurrency.executors,
    locks: { contended, deadlocks },
    series,
    counters: concurrency.counters,
    connectionPools: concurrency.connectionPools,
    shutdown: concurrency.shutdown,
    logEvents,
    cpuSamples: logs.flatMap((l) => l.cpuSamples ?? []),
    finalizerQueues: finalizerQueues(heaps),
    asyncAppenders: asyncAppenders(heaps),
    memory: heaps.flatMap((h) => (h.memory !== undefined ? [h.memory.model] : [])),
    notes: [
      ...missingEvidence,
      ...momentNotes(moments.merged),
      ...copyNotes,
      ...jvmNotes,
      ...stacksFromHeaps.map(
        (h) =>
          `no thread dump given: the threads are those recorded in the heap dump ${h.path} (stacks from its HPROF ` +
          'traces, states from Thread.threadStatus, what parked threads wait for from Thread.parkBlocker); a heap dump ' +
          'has no lock lines, so monitor owners and waiters are unknown: jstack -l output of the same JVM adds them',
      ),
      ...concurrency.notes,
      ...heaps.flatMap((h) =>
        h.memory?.model.skipped !== undefined ? [`${h.path}: what holds its memory (dominator tree, leak suspects) was ${h.memory.model.skipped}`] : [],
      ),
    ],
    missingEvidence,
    leftOut: others.leftOut ?? [],
    leftOutMore: others.leftOutMore ?? 0,
  };
}

/** Merged moments listed one by one; the rest are counted. */
const MOMENTS_LISTED = 5;

/** What the merges of JSON dumps into the text dumps of their moments did, in one note. */
function momentNotes(merged: readonly MergedMoment[]): string[] {
  if (merged.length === 0) return [];
  // 0: the JSON dump's time falls within the text dump's (a text dump's time has whole seconds).
  const apart = (m: MergedMoment) =>
    m.secondsApart === undefined ? '' : m.secondsApart === 0 ? 'taken in the same second, ' : `${m.secondsApart.toFixed(1)} s apart, `;
  const how =
    'the virtual threads no carrier was running come from the JSON (Thread.print does not list them; each is cited by its JSON file), ' +
    "those a carrier was running are in the carrier's stack, " +
    "and the platform threads are the text dump's, with their locks (matched by Java id and name)";
  if (merged.length === 1) {
    const m = merged[0]!;
    return [
      `${m.fromSource} and ${m.into} are one moment of one JVM (${apart(m)}${m.added} virtual threads added, ${m.platformMatched} platform threads matched), ` +
        `read as one dump: ${how}`,
    ];
  }
  const listed = merged
    .slice(0, MOMENTS_LISTED)
    .map((m) => `${m.fromSource} into ${m.into} (${apart(m)}${m.added} virtual threads added)`)
    .join('; ');
  const more = merged.length > MOMENTS_LISTED ? `; and ${merged.length - MOMENTS_LISTED} more` : '';
  return [
    `${merged.length} JSON thread dumps and the Thread.print dumps of the same moments are read as one dump each, not as more dumps of the series: ` +
      `${listed}${more}; ${how}`,
  ];
}

/**
 * The dumps of a JVM that runs virtual threads, in a format that leaves out those no carrier runs,
 * with no JSON dump beside them: said, with the command that lists them, because a deadlock or a
 * pile-up of virtual threads is not in them.
 */
function unlistedVirtualThreadsNote(dumps: readonly ThreadDump[]): string[] {
  const signed = dumps.flatMap((d) => {
    const sign = virtualThreadSign(d);
    return sign === undefined ? [] : [{ d, sign }];
  });
  if (signed.length === 0 || dumps.some((d) => d.threads.some((t) => t.virtual))) return [];
  const files = [...new Set(signed.map((s) => s.d.source))];
  const named = files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
  return [
    `${named}: the JVM runs virtual threads (${signed[0]!.sign}), and jcmd Thread.print or jstack lists only those a carrier is running ` +
      'at that instant: virtual threads that are parked, waiting for a lock or sleeping are not in this dump, nor what they wait for ' +
      '(a deadlock or a pile-up of them looks like nothing); jcmd <pid> Thread.dump_to_file -format=json <file> lists them: ' +
      'give that file beside this one (dumpsleuth capture takes both on JDK 21+)',
  ];
}

/** `dump 1 of a.txt`, `dumps 2, 3 of a.txt`, `3 dumps (a.txt, b.txt)`. */
function describeDumps(dumps: readonly ThreadDump[], group: readonly number[]): string {
  if (group.length === 1) return dumpLabel(dumps[group[0]!]!);
  const files = [...new Set(group.map((i) => dumps[i]!.source))];
  if (files.length === 1) return `dumps ${group.map((i) => dumps[i]!.index + 1).join(', ')} of ${files[0]}`;
  return `${group.length} dumps (${files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more files`})`;
}

/** The series of dumps of one JVM, each thread matched across them, with where it stayed and the CPU it used. */
function buildSeries(dumps: ThreadDump[], jvms: readonly number[][]): SeriesModel[] {
  return seriesOfJvms(dumps, jvms).map((group) => {
    const s = matchSeries(dumps, group);
    const first = dumps[group[0]!]!;
    const last = dumps[group[group.length - 1]!]!;
    const spanSeconds = first.timestampIso && last.timestampIso ? (Date.parse(last.timestampIso) - Date.parse(first.timestampIso)) / 1000 : null;
    return {
      dumps: group,
      spanSeconds,
      threads: s.threads.map((t) => {
        const entries = t.indexes.map((ti, pos) => (ti === null ? null : dumps[group[pos]!]!.threads[ti]!));
        const head = entries[0];
        const all = head !== null && head !== undefined && entries.every((e) => e !== null);
        const sameStack = all && entries.every((e) => sameFrames(e!.frames, head.frames));
        const samePlaceAll = all && entries.every((e) => samePlace(e!.frames, head.frames, e!.state === 'RUNNABLE' && head.state === 'RUNNABLE'));
        const tail = entries[entries.length - 1];
        const cpuMsDelta = all && head.cpuMs !== undefined && tail?.cpuMs !== undefined ? tail.cpuMs - head.cpuMs : null;
        return {
          name: t.name,
          key: t.key,
          states: entries.map((e) => (e === null ? null : e.state)),
          indexes: t.indexes,
          sameStack,
          samePlace: samePlaceAll,
          cpuMsDelta,
        };
      }),
    };
  });
}
