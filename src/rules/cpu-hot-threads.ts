/**
 * Threads that burn CPU. The idea: a thread is hot when the CPU time it used is a large share of the
 * wall-clock time it was watched, whatever its stack says (a RUNNABLE thread in a socket read uses
 * none; a thread in a loop uses a core). The measures, best first: the `cpu=` and `elapsed=` of its
 * header across a series (JDK 11+: both are the thread's own, so no dump timestamps are needed),
 * and `top -H` samples given beside the dumps (matched by native id); one dump alone only hints,
 * from the thread's whole life. Threads waiting for work and the JVM's own are left out.
 */
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
        default: 0.8,
        description: 'With a single dump: the share of a core over its whole life that makes a long-lived working thread a runaway (a warning, not a hint).',
      },
      runawayLifetimeSeconds: {
        type: 'number',
        min: 0,
        default: 30,
        description: 'With a single dump: how long a thread must have lived at that share to be called a runaway.',
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
    const runaway = { share: Number(options['runawayLifetimeShare']), seconds: Number(options['runawayLifetimeSeconds']) };
    // A runaway's life may be shorter than a hint's: both are read from the one lifetime measure.
    const minLife = Math.min(Number(options['minLifetimeSeconds']), runaway.seconds);
    const hot: HotThread[] = [];
    for (const [name, refs] of candidatesByName(model, minShare, minLife)) {
      if (neverWorking(model, refs)) continue;
      const top =
        model.cpuSamples.length === 0
          ? undefined
          : topMeasure(model.cpuSamples, new Set(refs.flatMap((r) => model.dumps[r.dump]!.threads[r.thread]!.nativeId ?? [])));
      const measured = [refs.length > 1 ? seriesMeasure(model, refs) : undefined, top].filter((m): m is Measure => m !== undefined);
      const last = refs[refs.length - 1]!;
      const measures =
        measured.length > 0
          ? measured
          : [lifetimeMeasure(model.dumps[last.dump]!.threads[last.thread]!, minLife, minShare)].filter((m): m is Measure => m !== undefined);
      if (measures.some((m) => m.share >= minShare)) hot.push({ name, refs, measures });
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
      // Most of a core over a long life is a runaway even in one dump; less, or a short life, only hints.
      const runawayFor = lifetimeOnly ? members.filter((h) => isRunaway(model, h, runaway)) : [];
      const hintOnly = lifetimeOnly && runawayFor.length === 0;
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
            : lifetimeOnly
              ? ` Over ${pct(runaway.share)} of a core for more than ${runaway.seconds.toFixed(0)} s of its life, and running code now: ` +
                'a runaway, even from one dump (take a few dumps a few seconds apart, or top -H, to see the rate now).'
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
}

const pct = (share: number) => `${Math.round(share * 100)} %`;

/**
 * The threads that may be hot, by name, with their refs in dump order. One dump needs no map (a
 * name is one thread there; a map of 200,000 names cost more than every other step of this rule),
 * and there only threads that pass the one measure a single dump has are yielded.
 */
function* candidatesByName(model: Model, minShare: number, minLife: number): Generator<[string, ThreadRef[]]> {
  if (model.dumps.length === 1) {
    const threads = model.dumps[0]!.threads;
    const activity = model.activity[0]!;
    for (let thread = 0; thread < threads.length; thread++) {
      // Most threads of a big dump wait for work or, with no top samples, have a lifetime average
      // below the bar (the only measure one dump has). The verdicts are read first: they lie side
      // by side, the threads' CPU times each in a thread of its own.
      const a = activity[thread]!.activity;
      if (a === 'idle' || a === 'housekeeping') continue;
      if (model.cpuSamples.length === 0 && lifetimeMeasure(threads[thread]!, minLife, minShare) === undefined) continue;
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

/** A thread of one dump that has burned most of a core for a long life (its lifetime average, the one measure one dump has). */
function isRunaway(model: Model, h: HotThread, runaway: { readonly share: number; readonly seconds: number }): boolean {
  const last = h.refs[h.refs.length - 1]!;
  const th = model.dumps[last.dump]!.threads[last.thread]!;
  // Running code now (not parked, not in a blocking read): a thread that burned a core and now waits is not running away.
  const running = model.activity[last.dump]![last.thread]!.basis === 'running';
  return running && th.elapsedS !== undefined && th.elapsedS >= runaway.seconds && h.measures.some((m) => m.share >= runaway.share);
}
