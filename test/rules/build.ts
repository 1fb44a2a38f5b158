/**
 * Small hand-built inputs for rule tests, in the spirit of ESLint's RuleTester: a thread, a dump and
 * a Model from a few fields each, so a case reads as the situation it sets up. The Model goes
 * through the real buildModel (activity, lock graph, pools, series), so what a rule sees is what it
 * would see from a parsed dump; heap and log facts (counters, pools, queues) are laid on top.
 */
import { expect } from 'vitest';

import { defaultConfig, resolveConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import type { Finding, Severity } from '../../src/model/findings.js';
import type { ConnectionPoolModel, CounterModel, ExecutorHeapState, Model, ThreadRef } from '../../src/model/model.js';
import type { FrameLockKind, JavaThreadState, LockRef, StackFrame, ThreadDump, ThreadEntry } from '../../src/model/thread-dump.js';
import { buildModel } from '../../src/reconstruct/build-model.js';
import { RULES } from '../../src/rules/index.js';

/** `com.acme.Foo.bar` or `com.acme.Foo.bar(Native Method)`: a frame as the dump prints it, line made up. */
function frame(text: string): StackFrame {
  const m = /^(.*)\.([^.(]+)(?:\((.*)\))?$/.exec(text)!;
  const className = m[1]!;
  const simple = className.slice(className.lastIndexOf('.') + 1).replace(/\$.*/, '');
  return { className, method: m[2]!, location: m[3] ?? `${simple}.java:1`, qualified: `${className}.${m[2]!}` };
}

export interface LockSpec {
  /** The frame (0 = top) the lock line is under. */
  readonly at: number;
  readonly kind: FrameLockKind;
  readonly id: string;
  readonly className: string;
}

export interface ThreadSpec {
  readonly name: string;
  readonly state?: JavaThreadState;
  /** `parking`, `sleeping`, `on object monitor`, ... */
  readonly detail?: string;
  /** Top first. */
  readonly frames?: readonly string[];
  readonly locks?: readonly LockSpec[];
  /** j.u.c. locks held (jstack -l's `Locked ownable synchronizers`). */
  readonly owns?: readonly LockRef[];
  readonly javaId?: string;
  readonly nativeId?: string;
  readonly virtual?: boolean;
  readonly daemon?: boolean;
  readonly cpuMs?: number | undefined;
  readonly elapsedS?: number;
  readonly carriedVirtualThread?: string;
}

function thread(s: ThreadSpec, line = 1): ThreadEntry {
  const frames = (s.frames ?? []).map(frame);
  return {
    name: s.name,
    javaId: s.javaId,
    nativeId: s.nativeId,
    daemon: s.daemon ?? false,
    virtual: s.virtual ?? false,
    state: s.state ?? 'RUNNABLE',
    stateDetail: s.detail,
    cpuMs: s.cpuMs,
    elapsedS: s.elapsedS,
    frames,
    locks: (s.locks ?? []).map((l) => ({ frameIndex: l.at, kind: l.kind, lock: { id: l.id, className: l.className } })),
    ownableSynchronizers: [...(s.owns ?? [])],
    carriedVirtualThread: s.carriedVirtualThread,
    stackTruncated: false,
    line,
    endLine: line + frames.length + 1,
  } as ThreadEntry;
}

export interface DumpSpec {
  readonly threads: readonly ThreadSpec[];
  /** ISO-8601 local time; dumps of one JVM seconds apart make a series. */
  readonly at?: string;
  readonly source?: string;
}

function dump(d: DumpSpec, index = 0): ThreadDump {
  let line = 3;
  const threads = d.threads.map((s) => {
    const t = thread(s, line);
    line = t.endLine + 2;
    return t;
  });
  return {
    source: d.source ?? `dump-${index + 1}.txt`,
    index: 0,
    format: 'hotspot',
    startLine: 1,
    endLine: line,
    ...(d.at !== undefined ? { timestamp: d.at.replace('T', ' '), timestampIso: d.at } : {}),
    jvm: 'OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing)',
    threads,
    jvmDeadlocks: [],
    unparsed: [],
    unparsedCount: 0,
  };
}

/** Heap and log facts laid on the Model built from the dumps, given its thread refs to cite. */
export type Extra = (m: Model) => Partial<Model>;

/** A Model from hand-built dumps, each its own input file, as `analyze dump-1.txt dump-2.txt` gives. */
export function modelOf(dumps: readonly DumpSpec[], extra?: Extra): Model {
  const built = buildModel(
    dumps.map((d, i) => {
      const td = dump(d, i);
      return {
        path: td.source,
        format: 'hotspot',
        gzip: false,
        encoding: 'utf8',
        file: { source: td.source, dumps: [td], outsideLines: 0, totalLines: td.endLine, warnings: [] },
      };
    }),
  );
  return extra === undefined ? built : { ...built, ...extra(built) };
}

/** The ref of the thread named `name` in dump `dump` of the model. */
export function ref(m: Model, name: string, dumpIndex = 0): ThreadRef {
  const r = m.threadRefs[dumpIndex]!.find((t) => t.name === name);
  if (r === undefined) throw new Error(`no thread ${name} in dump ${dumpIndex}`);
  return r;
}

export const refs = (m: Model, names: readonly string[], dumpIndex = 0): ThreadRef[] => names.map((n) => ref(m, n, dumpIndex));

/** `n` threads named `prefix1..n`, each from `make(name)`. */
export function many(n: number, prefix: string, make: (name: string, i: number) => Omit<ThreadSpec, 'name'>): ThreadSpec[] {
  return Array.from({ length: n }, (_, k) => ({ name: `${prefix}${k + 1}`, ...make(`${prefix}${k + 1}`, k + 1) }));
}

/** The frames of a pool worker running `task` (top first) inside ThreadPoolExecutor's loop. */
export const inPoolWorker = (...task: string[]): string[] => [
  ...task,
  'java.util.concurrent.ThreadPoolExecutor.runWorker',
  'java.util.concurrent.ThreadPoolExecutor$Worker.run',
  'java.lang.Thread.run',
];

/** An idle ThreadPoolExecutor worker, parked in getTask. */
export const idlePoolWorker: Omit<ThreadSpec, 'name'> = {
  state: 'WAITING',
  detail: 'parking',
  frames: [
    'jdk.internal.misc.Unsafe.park(Native Method)',
    'java.util.concurrent.locks.LockSupport.park',
    'java.util.concurrent.LinkedBlockingQueue.take',
    'java.util.concurrent.ThreadPoolExecutor.getTask',
    ...inPoolWorker().slice(0),
  ],
};

export const heapObject = (className: string, id = '0x1000') => ({ input: 'heap.hprof', id, className });

export function counter(c: Partial<CounterModel> & Pick<CounterModel, 'active' | 'limit'>): CounterModel {
  return {
    kind: 'dubbo-executes',
    name: 'com.acme.DemoService#sayHello',
    service: 'com.acme.DemoService',
    method: 'sayHello',
    identity: null,
    limitSource: 'sayHello.executes',
    total: null,
    failed: null,
    threadsInside: [],
    rejectionsLogged: 0,
    object: heapObject('org.apache.dubbo.rpc.RpcStatus'),
    serviceActive: null,
    ...c,
  };
}

export function connectionPool(p: Partial<ConnectionPoolModel> & Pick<ConnectionPoolModel, 'kind' | 'name'>): ConnectionPoolModel {
  return { route: null, width: null, maxTotal: null, leased: null, idle: null, pending: null, waitingThreads: [], source: 'threads', object: null, ...p };
}

export function executorHeap(h: Omit<Partial<ExecutorHeapState>, 'queue'> & { queue: Partial<ExecutorHeapState['queue']> }): ExecutorHeapState {
  return {
    object: heapObject('java.util.concurrent.ThreadPoolExecutor', '0x2000'),
    runState: 'RUNNING',
    corePoolSize: null,
    maximumPoolSize: null,
    poolSize: 0,
    activeWorkers: 0,
    largestPoolSize: null,
    completedTasks: null,
    workerThreadNames: [],
    ...h,
    queue: {
      className: 'java.util.concurrent.LinkedBlockingQueue',
      size: 0,
      capacity: null,
      complete: true,
      id: '0x3000',
      ...h.queue,
    } as ExecutorHeapState['queue'],
  };
}

/** What a case expects of one finding: its subject, and as much else as matters. */
interface Expected {
  readonly subject: string;
  readonly severity?: Severity;
  readonly facts?: Record<string, unknown>;
  readonly message?: RegExp;
  readonly causedBy?: readonly string[];
}

export interface Case {
  readonly name: string;
  readonly model: () => Model;
  /** The rule's options as a config gives them. */
  readonly options?: Record<string, unknown>;
  /** Empty: a negative control, the rule is silent. */
  readonly expect: readonly Expected[];
}

/** The rule's findings on the model, through the engine with every rule registered (so cause links resolve). */
function findingsOf(ruleId: string, m: Model, options?: Record<string, unknown>): Finding[] {
  const config = options === undefined ? defaultConfig(RULES) : resolveConfig(RULES, { rules: { [ruleId]: { options } } }, 'test');
  return runRules(m, RULES, config).filter((f) => f.rule === ruleId);
}

/** Checks one case: the rule's findings, in order, are the expected ones. */
export function check(ruleId: string, c: Case): Finding[] {
  const found = findingsOf(ruleId, c.model(), c.options);
  expect(
    found.map((f) => f.subject),
    c.name,
  ).toEqual(c.expect.map((e) => e.subject));
  c.expect.forEach((e, k) => {
    const f = found[k]!;
    if (e.severity !== undefined) expect(f.severity, `${c.name}: severity`).toBe(e.severity);
    if (e.facts !== undefined) expect(f.facts, `${c.name}: facts`).toMatchObject(e.facts);
    if (e.message !== undefined) expect(f.message, `${c.name}: message`).toMatch(e.message);
    if (e.causedBy !== undefined) expect(f.causedBy, `${c.name}: causedBy`).toEqual(e.causedBy);
  });
  return found;
}
