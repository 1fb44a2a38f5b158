/**
 * Threads that burn CPU. The idea: a thread is hot when the CPU time it used is a large share of the
 * wall-clock time it was watched, whatever its stack says (a RUNNABLE thread in a socket read uses
 * none; a thread in a loop uses a core). The measures, best first: the `cpu=` and `elapsed=` of its
 * header across a series (JDK 11+: both are the thread's own, so no dump timestamps are needed),
 * and `top -H` samples given beside the dumps (matched by native id); one dump alone only hints,
 * from the thread's whole life. Threads waiting for work and the JVM's own are left out.
 */
import { isJdkClass } from '../knowledge/index.js';
import type { Evidence } from '../model/findings.js';
import type { CpuSampleModel, Model, ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { poolNameOf } from '../threads/pool-naming.js';
import { activityFrame } from '../threads/thread-activity.js';
import type { FindingDraft, Rule } from './rule.js';
import { plural } from './support/evidence.js';
import { threadEvidence } from './support/evidence.js';

export const cpuHotThreads: Rule = {
  meta: {
    id: 'cpu-hot-threads',
    defaultSeverity: 'warning',
    title: 'Threads burning CPU',
    description:
      'Threads whose CPU time is a large share of the time they were watched: from cpu= and elapsed= across a ' +
      'series of dumps (JDK 11+), or from top -H output given beside the dumps (PID = nid); one dump alone gives ' +
      "a hint (info) from the thread's whole life. Threads waiting for work and the JVM's own threads are left out.",
    remedy:
      'Look at where the hot thread runs in every dump: a loop that does not end (a bad loop condition, a regular expression ' +
      'that backtracks, a retry without a pause) is fixed in that code; a thread that is merely busy needs a limit or more cores.',
    remedyKind: 'search',
    options: {
      minCoreShare: { type: 'number', min: 0, max: 1, default: 0.5, description: 'Share of one core a thread must use to be reported.' },
      errorCoreShare: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.9,
        description: 'Share of one core, measured over a series or by top, that makes it an error.',
      },
      runawayLifetimeShare: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.67,
        description:
          'With a single dump: the share of a core over its whole life that makes a thread running code now a runaway (a warning, not a hint). ' +
          'Two thirds: it has been on a core twice as long as off it, since it started. A thread that serves work spends much of its life ' +
          'waiting for it (a queue, a socket, a lock), so its lifetime average stays well below; only a loop that rarely waits gets there.',
      },
      runawayLifetimeSeconds: {
        type: 'number',
        min: 0,
        default: 20,
        description:
          'With a single dump: how long a thread must have lived at that share to be called a runaway. Long enough that its start ' +
          '(class loading and JIT compilation, a few seconds at a full core) cannot by itself make two thirds of its life (a 5 s burst is ' +
          'a quarter of 20 s), and longer than a request a user still waits for.',
      },
      spinLifetimeShare: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.5,
        description:
          'With a single dump, for a thread RUNNABLE in a spin-wait (Thread.yield or Thread.onSpinWait called from its own loop): ' +
          'the share of a core over its life that makes it a runaway. The stack already says it spins; half a core says the spin is ' +
          'what it has done most of its life (a yield gives the core away when others want it, so a spinner on a busy host gets less than a core).',
      },
      spinLifetimeSeconds: {
        type: 'number',
        min: 0,
        default: 5,
        description:
          'With a single dump: how long a spinning thread must have lived at that share. A spin-wait is meant to last micro- to ' +
          'milliseconds before the thread parks; seconds of it are a wait that never parks, and 5 s is far past any start-up.',
      },
      minLifetimeSeconds: {
        type: 'number',
        min: 0,
        default: 60,
        description: 'With a single dump: how long a thread must have lived for its lifetime average to be a hint.',
      },
    },
  },
  check({ model, options }) {
    const minShare = Number(options['minCoreShare']);
    const errorShare = Number(options['errorCoreShare']);
    const bars: LifetimeBars = {
      hint: { share: minShare, seconds: Number(options['minLifetimeSeconds']) },
      runaway: { share: Number(options['runawayLifetimeShare']), seconds: Number(options['runawayLifetimeSeconds']) },
      spin: { share: Number(options['spinLifetimeShare']), seconds: Number(options['spinLifetimeSeconds']) },
    };
    // The lowest of the three bars: below it a lifetime average says nothing, whatever the stack.
    const floor = {
      share: Math.min(bars.hint.share, bars.runaway.share, bars.spin.share),
      seconds: Math.min(bars.hint.seconds, bars.runaway.seconds, bars.spin.seconds),
    };
    const hot: HotThread[] = [];
    for (const [name, refs] of candidatesByName(model, floor)) {
      const last = refs[refs.length - 1]!;
      const lastThread = model.dumps[last.dump]!.threads[last.thread]!;
      if (neverWorking(model, refs) && spinsIn(lastThread) === undefined) continue;
      const top =
        model.cpuSamples.length === 0
          ? undefined
          : topMeasure(model.cpuSamples, new Set(refs.flatMap((r) => model.dumps[r.dump]!.threads[r.thread]!.nativeId ?? [])));
      const measured = [refs.length > 1 ? seriesMeasure(model, refs) : undefined, top].filter((m): m is Measure => m !== undefined);
      if (measured.length > 0) {
        if (measured.some((m) => m.share >= minShare)) hot.push({ name, refs, measures: measured });
        continue;
      }
      // One dump: its lifetime average, read against the bar its stack and life call for.
      const lifetime = lifetimeMeasure(lastThread, floor.seconds, floor.share);
      const verdict = lifetime === undefined ? undefined : lifetimeVerdict(model, last, lifetime.share, bars);
      if (lifetime !== undefined && verdict !== undefined) hot.push({ name, refs, measures: [lifetime], verdict });
    }
    // Hot workers of one pool are one finding (four workers of pool-4 spinning are one problem).
    const groups = new Map<string, HotThread[]>();
    for (const h of hot) {
      const key = poolNameOf(h.name) ?? h.name;
      groups.set(key, [...(groups.get(key) ?? []), h]);
    }
    return [...groups].map(([pool, members]): FindingDraft => {
      const lead = members.reduce((a, b) => (Math.max(...b.measures.map((m) => m.share)) > Math.max(...a.measures.map((m) => m.share)) ? b : a));
      const shareOf = (h: HotThread) => Math.max(...h.measures.map((m) => m.share));
      const total = members.reduce((n, h) => n + shareOf(h), 0);
      const share = shareOf(lead);
      const last = lead.refs[lead.refs.length - 1]!;
      const th = model.dumps[last.dump]!.threads[last.thread]!;
      const lifetimeOnly = members.every((h) => h.measures.every((m) => m.how === 'lifetime'));
      // From one dump: a spinner or a long-lived runaway is a warning; a lifetime average alone only hints.
      const runaway = members.find((h) => h.verdict?.kind === 'spin') ?? members.find((h) => h.verdict?.kind === 'runaway');
      const hintOnly = lifetimeOnly && runaway === undefined;
      const inside = sharedFrame(model, lead.refs);
      const states = [...new Set(lead.refs.map((r) => model.dumps[r.dump]!.threads[r.thread]!.state))];
      const where = activityFrame(th);
      const who =
        members.length === 1
          ? `"${lead.name}" ${hintOnly ? 'has used' : 'uses'} ${pct(share)} of a core`
          : `${plural(members.length, 'thread')} of ${pool} ${hintOnly ? 'have used' : 'use'} ${total.toFixed(1)}` +
            ` cores together (${members.map((h) => `"${h.name}" ${pct(shareOf(h))}`).join(', ')})`;
      return {
        subject: members.length === 1 ? lead.name : pool,
        ...(hintOnly ? { severity: 'info' as const } : !lifetimeOnly && share >= errorShare ? { severity: 'error' as const } : {}),
        message:
          `${who}: ${members.length > 1 ? `"${lead.name}": ` : ''}${lead.measures.map((m) => m.text).join('; ')}. ` +
          `It is ${states.join(', then ')} in ${where}` +
          `${inside !== undefined && inside !== where ? `, inside ${inside} in all ${lead.refs.length} dumps` : ''}.` +
          (hintOnly
            ? ' One dump gives only its lifetime average: take a few dumps a few seconds apart (or top -H beside one) to see whether it burns CPU now.'
            : lifetimeOnly && runaway?.verdict !== undefined
              ? ` ${runaway.verdict.text}${members.length > 1 ? ` ("${runaway.name}")` : ''}: a runaway, even from one dump ` +
                '(take a few dumps a few seconds apart, or top -H, to see the rate now).'
              : ''),
        facts: {
          threads: members.map((h) => h.name),
          threadCount: members.length,
          coreShare: Number(share.toFixed(3)),
          coresTogether: Number(total.toFixed(3)),
          measuredBy: [...new Set(members.flatMap((h) => h.measures.map((m) => m.how)))],
          measures: lead.measures.map((m) => m.text),
          states,
          frame: where,
          sharedFrame: inside ?? null,
          nativeId: th.nativeId ?? null,
          dumps: lead.refs.map((r) => r.dump),
          ...(runaway?.verdict?.kind === 'spin' ? { spinsIn: runaway.verdict.frame } : {}),
        },
        evidence: members.flatMap((h) => [threadEvidence(model, h.refs[h.refs.length - 1]!), ...h.measures.flatMap((m) => m.evidence)]).slice(0, 60),
        // A core burned weighs like ten threads held.
        impact: Math.round(10 * total),
      };
    });
  },
};

/** One way the thread's CPU was measured. */
interface Measure {
  readonly share: number;
  readonly how: 'series' | 'top' | 'lifetime';
  readonly text: string;
  readonly evidence: Evidence[];
}

interface HotThread {
  readonly name: string;
  /** Where it was seen, each dump once, oldest first. */
  readonly refs: ThreadRef[];
  readonly measures: Measure[];
  /** With one dump only: why its lifetime average is a runaway, or only a hint. */
  readonly verdict?: LifetimeVerdict;
}

/** A share of a core over at least so many seconds of a thread's life. */
interface Bar {
  readonly share: number;
  readonly seconds: number;
}

interface LifetimeBars {
  /** An average worth a hint (info). */
  readonly hint: Bar;
  /** Running code now at this average: a runaway. */
  readonly runaway: Bar;
  /** In a spin-wait of its own loop at this average: a runaway sooner. */
  readonly spin: Bar;
}

type LifetimeVerdict =
  | { readonly kind: 'spin' | 'runaway'; readonly text: string; readonly frame: string }
  | { readonly kind: 'hint'; readonly text?: undefined; readonly frame?: undefined };

const pct = (share: number) => `${Math.round(share * 100)} %`;

/**
 * The threads that may be hot, by name, with their refs in dump order. One dump needs no map (a
 * name is one thread there; a map of 200,000 names cost more than every other step of this rule),
 * and there only threads that pass the one measure a single dump has are yielded.
 */
function* candidatesByName(model: Model, floor: Bar): Generator<[string, ThreadRef[]]> {
  if (model.dumps.length === 1) {
    const threads = model.dumps[0]!.threads;
    const activity = model.activity[0]!;
    for (let thread = 0; thread < threads.length; thread++) {
      // Most threads of a big dump wait for work or, with no top samples, have a lifetime average
      // below the bar (the only measure one dump has). The verdicts are read first: they lie side
      // by side, the threads' CPU times each in a thread of its own.
      const a = activity[thread]!.activity;
      // A spin-wait reads as a wait to the classifier, yet it burns the core: its CPU decides.
      if ((a === 'idle' || a === 'housekeeping') && spinsIn(threads[thread]!) === undefined) continue;
      if (model.cpuSamples.length === 0 && lifetimeMeasure(threads[thread]!, floor.seconds, floor.share) === undefined) continue;
      const ref = model.threadRefs[0]![thread]!;
      yield [ref.name, [ref]];
    }
    return;
  }
  const out = new Map<string, ThreadRef[]>();
  model.dumps.forEach((d, dump) =>
    d.threads.forEach((th, thread) => {
      const list = out.get(th.name);
      if (list === undefined) out.set(th.name, [{ dump, thread, name: th.name }]);
      else list.push({ dump, thread, name: th.name });
    }),
  );
  yield* out;
}

/** Waiting for work in every dump, or the JVM's own (JIT, GC): not a runaway of the application. */
function neverWorking(model: Model, refs: readonly ThreadRef[]): boolean {
  for (const r of refs) {
    const a = model.activity[r.dump]![r.thread]!.activity;
    if (a !== 'idle' && a !== 'housekeeping') return false;
  }
  return true;
}

/** Across the dumps it is in: CPU used over its own elapsed time (or the dumps' span). */
function seriesMeasure(model: Model, refs: readonly ThreadRef[]): Measure | undefined {
  const timed = refs.filter((r) => model.dumps[r.dump]!.threads[r.thread]!.cpuMs !== undefined);
  if (timed.length < 2) return undefined;
  const first = model.dumps[timed[0]!.dump]!.threads[timed[0]!.thread]!;
  const last = model.dumps[timed[timed.length - 1]!.dump]!.threads[timed[timed.length - 1]!.thread]!;
  const cpuSeconds = (last.cpuMs! - first.cpuMs!) / 1000;
  let wall = first.elapsedS !== undefined && last.elapsedS !== undefined ? last.elapsedS - first.elapsedS : undefined;
  if (wall === undefined) {
    const span = model.series.find((s) => s.dumps.includes(timed[0]!.dump) && s.dumps.includes(timed[timed.length - 1]!.dump))?.spanSeconds;
    wall = span ?? undefined;
  }
  // A thread restarted under the same name (its CPU went down) is two threads, not one measure.
  if (wall === undefined || wall < 0.5 || cpuSeconds < 0) return undefined;
  const share = cpuSeconds / wall;
  return {
    share,
    how: 'series',
    text:
      `${cpuSeconds.toFixed(1)} s of CPU in ${wall.toFixed(1)} s between dumps #${timed[0]!.dump} and ` +
      `#${timed[timed.length - 1]!.dump} (cpu= and elapsed= of its header): ${pct(share)} of a core`,
    evidence: [],
  };
}

/** Its rows in the `top -H` samples, by native id: the median share of a core. */
function topMeasure(samples: readonly CpuSampleModel[], nativeIds: ReadonlySet<string>): Measure | undefined {
  const rows = samples.flatMap((s) => s.threads.filter((t) => nativeIds.has(t.nativeId)).map((t) => ({ sample: s, row: t })));
  if (rows.length === 0) return undefined;
  const sorted = rows.map((r) => r.row.cpuPercent).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]! / 100;
  const pid = rows[0]!.row.pid;
  return {
    share: median,
    how: 'top',
    text:
      `top -H: ${rows.map((r) => `${r.row.cpuPercent} %`).join(', ')} (PID ${pid} = nid 0x` +
      `${pid.toString(16)}, ${rows.length === 1 ? 'one sample' : `median of ${rows.length} samples`})`,
    evidence: rows.slice(0, 5).map((r) => ({
      kind: 'log' as const,
      source: r.sample.source,
      line: r.row.line,
      text: `PID ${r.row.pid} ${r.row.cpuPercent} %CPU TIME+ ${r.row.cpuSeconds ?? '?'} s ${r.row.command}`,
      note: r.sample.takenAt !== undefined ? `at ${r.sample.takenAt}` : 'top -H',
    })),
  };
}

/** One dump: CPU over the thread's whole life, a hint only (a thread busy at start may be idle now). */
function lifetimeMeasure(th: ThreadEntry, minSeconds: number, minShare: number): Measure | undefined {
  if (th.cpuMs === undefined || th.elapsedS === undefined || th.elapsedS < minSeconds) return undefined;
  const share = th.cpuMs / 1000 / th.elapsedS;
  // Below the bar it would be dropped anyway; most threads are, so no text is written for them.
  if (share < minShare) return undefined;
  return {
    share,
    how: 'lifetime',
    text: `cpu=${(th.cpuMs / 1000).toFixed(0)} s over its ${th.elapsedS.toFixed(0)} s of life (one dump: an average, not a rate)`,
    evidence: [],
  };
}

/** The frames every sample of the thread shares, from the bottom of its stack: the method it is inside throughout. */
function sharedFrame(model: Model, refs: readonly ThreadRef[]): string | undefined {
  const stacks = refs.map((r) => model.dumps[r.dump]!.threads[r.thread]!.frames);
  if (stacks.length < 2 || stacks.some((f) => f.length === 0)) return undefined;
  let common = 0;
  for (;;) {
    const at = (f: (typeof stacks)[number]) => f[f.length - 1 - common]?.qualified;
    const here = at(stacks[0]!);
    if (here === undefined || !stacks.every((f) => at(f) === here)) break;
    common++;
  }
  if (common === 0) return undefined;
  const f = stacks[0]!;
  return f[f.length - common]!.qualified;
}

/**
 * What one dump's lifetime average says about a thread: a spinner (a spin-wait of its own loop, at
 * the spin bar), a runaway (running code now, at the runaway bar), a hint (at the hint bar), or
 * nothing (a young thread's average, or one that waits now and burned its CPU earlier).
 */
function lifetimeVerdict(model: Model, ref: ThreadRef, share: number, bars: LifetimeBars): LifetimeVerdict | undefined {
  const th = model.dumps[ref.dump]!.threads[ref.thread]!;
  const life = th.elapsedS ?? 0;
  const passes = (bar: Bar) => share >= bar.share && life >= bar.seconds;
  const spin = spinsIn(th);
  if (spin !== undefined && passes(bars.spin))
    return {
      kind: 'spin',
      frame: spin.call,
      text:
        `It spins: RUNNABLE in ${spin.call} called from its own loop in ${spin.caller}, at over ${pct(bars.spin.share)} of a core ` +
        `for more than ${bars.spin.seconds.toFixed(0)} s of its life (a spin-wait should last microseconds, then park)`,
    };
  // Running code now (not parked, not in a blocking read): a thread that burned a core and now waits is not running away.
  const running = model.activity[ref.dump]![ref.thread]!.basis === 'running';
  if (running && passes(bars.runaway))
    return {
      kind: 'runaway',
      frame: activityFrame(th),
      text: `Over ${pct(bars.runaway.share)} of a core for more than ${bars.runaway.seconds.toFixed(0)} s of its life, and running code now`,
    };
  return passes(bars.hint) && model.activity[ref.dump]![ref.thread]!.activity !== 'idle' ? { kind: 'hint' } : undefined;
}

/** The JDK's spin-wait calls: a thread RUNNABLE in one gives its core up for an instant and comes straight back. */
const SPIN_CALLS = new Set(['java.lang.Thread.yield', 'java.lang.Thread.yield0', 'java.lang.Thread.onSpinWait']);

/**
 * A RUNNABLE thread whose top frames are a spin-wait call made by its own code (not the JDK's: the
 * JDK's queues spin a few rounds inside their own methods before they park): the call and its caller.
 */
function spinsIn(th: ThreadEntry): { readonly call: string; readonly caller: string } | undefined {
  if (th.state !== 'RUNNABLE') return undefined;
  const [top, ...below] = th.frames;
  if (top === undefined || !SPIN_CALLS.has(top.qualified)) return undefined;
  const caller = below.find((f) => !SPIN_CALLS.has(f.qualified));
  return caller !== undefined && !isJdkClass(caller.qualified) ? { call: top.qualified.replace(/0$/, ''), caller: caller.qualified } : undefined;
}
