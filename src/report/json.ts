/**
 * `--format json`: the versioned `dumpsleuth.report/1` document. Bump the schema on any breaking change.
 * The model is summarised (no raw stacks of every thread) so the document stays small and stable.
 */
import type { ThreadActivity } from '../model/activity.js';
import { SEVERITIES } from '../model/findings.js';
import { compareText } from '../model/text-order.js';
import { causalSummary, type CauseNode } from './causal-summary.js';
import { completenessOf } from './completeness.js';
import { memorySummaryJson } from './memory-text.js';
import type { Report } from './report.js';
import { REPORT_SCHEMA } from './report.js';

/** Names listed per verdict; the count says how many share it. */
const NAMES_PER_VERDICT = 200;

/** One dump's verdicts, grouped by what was decided and why (a pool's idle workers share one line). */
function activitySummary(dump: number, verdicts: readonly ThreadActivity[], threads: ReadonlyArray<{ readonly name: string }>) {
  const counts: Record<ThreadActivity['activity'], number> = { idle: 0, working: 0, blocked: 0, housekeeping: 0 };
  type Group = { activity: ThreadActivity['activity']; basis: ThreadActivity['basis']; reason: string; count: number; threads: string[] };
  const byReason = new Map<string, Group>();
  // Threads of one stack share their verdict object: looked up by identity first, by text only once per object.
  const byVerdict = new Map<ThreadActivity, Group>();
  verdicts.forEach((v, i) => {
    counts[v.activity]++;
    let g = byVerdict.get(v);
    if (g === undefined) {
      const key = `${v.activity}\u0000${v.basis}\u0000${v.reason}`;
      g = byReason.get(key);
      if (g === undefined) byReason.set(key, (g = { activity: v.activity, basis: v.basis, reason: v.reason, count: 0, threads: [] }));
      byVerdict.set(v, g);
    }
    g.count++;
    if (g.threads.length < NAMES_PER_VERDICT) g.threads.push(threads[i]!.name);
  });
  return { dump, counts, verdicts: [...byReason.values()].sort((a, b) => b.count - a.count || compareText(a.reason, b.reason)) };
}

/** The causal tree by finding id (the findings themselves are in `findings`). */
function causeNodesJson(nodes: readonly CauseNode[]): unknown[] {
  return nodes.map((n) => ({
    finding: n.finding.id,
    ...(n.alsoCausedBy.length > 0 ? { alsoCausedBy: n.alsoCausedBy.map((c) => c.id) } : {}),
    effects: causeNodesJson(n.effects),
  }));
}

export function renderJson(report: Report): string {
  const m = report.model;
  const causes = causalSummary(report.findings);
  const completeness = completenessOf(m);
  const summary: Record<string, number> = {};
  for (const s of SEVERITIES) summary[s] = report.findings.filter((f) => f.severity === s).length;
  const doc = {
    schema: REPORT_SCHEMA,
    tool: report.tool,
    ...(report.redacted === true ? { redacted: true } : {}),
    ...(report.config !== undefined ? { config: { path: report.config.path, chosen: report.config.chosen } } : {}),
    // Whether the analysis saw all of the evidence: every input read to its end and none left out.
    complete: completeness.complete,
    missingEvidence: completeness.missing,
    incomplete: completeness.cut,
    leftOut: { files: completeness.leftOut, more: completeness.leftOutMore },
    inputs: m.inputs.map((i) => ({
      path: i.path,
      kind: i.kind,
      format: i.format,
      gzip: i.gzip,
      encoding: i.encoding,
      dumps: i.dumps,
      threads: i.threads,
      unparsedLines: i.unparsedLines,
      outsideLines: i.outsideLines,
      warnings: i.warnings,
      ...(i.linePrefix !== undefined ? { linePrefix: i.linePrefix } : {}),
      ...(i.cut !== undefined ? { cut: i.cut } : {}),
      ...(i.heap !== undefined ? { heap: { objects: i.heap.objects, shallowBytes: i.heap.shallowBytes, classes: i.heap.classes } } : {}),
    })),
    dumps: m.dumps.map((d, i) => ({
      index: i,
      source: d.source,
      indexInSource: d.index,
      format: d.format,
      lines: [d.startLine, d.endLine],
      timestamp: d.timestampIso ?? d.timestamp ?? null,
      jvm: d.jvm ?? null,
      threads: d.threads.length,
      states: m.stateSummaries[i],
      jvmReportedDeadlocks: d.jvmDeadlocks.length,
      unparsedLines: d.unparsedCount,
      unparsedSample: d.unparsed.slice(0, 20),
    })),
    model: {
      executors: m.executors.map((e) => ({
        name: e.name,
        source: e.source,
        namedLikePool: e.namedLikePool,
        loop: e.loop,
        dump: e.dump,
        workers: e.workers,
        busy: e.busy,
        idle: e.idle,
        busyActivities: e.busyActivities.slice(0, 10),
        busyThreads: e.busyThreads.map((t) => t.name),
        ...(e.heap !== undefined ? { heap: e.heap } : {}),
      })),
      counters: m.counters.map((c) => ({
        ...c,
        threadsInside: c.threadsInside.map((t) => ({ dump: t.dump, count: t.count, threads: t.threads.slice(0, 50).map((x) => x.name) })),
      })),
      connectionPools: m.connectionPools.map((p) => ({
        ...p,
        waitingThreads: p.waitingThreads.map((w) => ({ dump: w.dump, count: w.threads.length, threads: w.threads.slice(0, 50).map((x) => x.name) })),
      })),
      locks: {
        contended: m.locks.contended.map((l) => ({
          dump: l.dump,
          lock: l.lock,
          owner: l.owner?.name ?? null,
          waiters: l.waiters.length,
          waiterNames: l.waiters.slice(0, 100).map((w) => w.name),
        })),
        deadlocks: m.locks.deadlocks.map((d) => ({
          dump: d.dump,
          threads: d.threads.map((t) => t.name),
          locks: d.locks,
          confidence: d.confidence,
          reportedByJvm: d.reportedByJvm,
          ...(d.note !== undefined ? { note: d.note } : {}),
          ...(d.through !== undefined ? { through: d.through } : {}),
        })),
      },
      shutdown: {
        dumps: m.shutdown.dumps.map((d) => ({
          dump: d.dump,
          hooks: d.hooks.map((h) => ({ kind: h.kind, thread: h.thread.name, doing: h.doing })),
          inFlight: d.inFlight.map((t) => t.name),
        })),
      },
      logEvents: m.logEvents,
      cpuSamples: m.cpuSamples,
      finalizerQueues: m.finalizerQueues,
      asyncAppenders: m.asyncAppenders,
      memory: m.memory.map((h) => ({
        input: h.input,
        ...(h.summary !== undefined ? memorySummaryJson(h.summary) : {}),
        ...(h.skipped !== undefined ? { skipped: h.skipped } : {}),
      })),
      notes: m.notes,
      threadGroups: m.threadGroups
        .filter((g) => g.count > 1)
        .slice(0, 200)
        .map((g) => ({
          dump: g.dump,
          state: g.state,
          count: g.count,
          topFrames: g.topFrames.slice(0, 5),
          activity: g.activity.activity,
          reason: g.activity.reason,
        })),
      threadActivity: m.activity.map((verdicts, dump) => activitySummary(dump, verdicts, m.dumps[dump]!.threads)),
      series: m.series.map((s) => ({
        dumps: s.dumps,
        threads: s.threads.length,
        sameStackThreads: s.threads.filter((t) => t.sameStack).length,
        samePlaceThreads: s.threads.filter((t) => t.samePlace).length,
      })),
    },
    findings: report.findings,
    // Findings come sorted by severity, highest first.
    summary: { ...summary, highest: report.findings[0]?.severity ?? null, causes: causeNodesJson(causes.causes), first: causes.first?.step ?? null },
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
