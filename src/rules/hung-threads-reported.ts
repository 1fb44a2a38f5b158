/**
 * Hung threads an application server reported in its own log. The idea: a server's thread monitor
 * (WebSphere's ThreadMonitor, WebLogic's stuck-thread check, Tomcat's StuckThreadDetectionValve)
 * watched the request from its start, so a thread it reports hung and never reports recovered is
 * stuck, whatever one dump shows; the report's logged stack says what it runs, and the thread of
 * the same name in the dumps given with the log shows what it does now.
 */
import { isJdkClass } from '../knowledge/index.js';
import type { Evidence } from '../model/findings.js';
import type { LogEventModel, Model, ThreadRef } from '../model/model.js';
import { poolNameOf } from '../threads/pool-naming.js';
import type { FindingDraft, Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';

export const hungThreadsReported: Rule = {
  meta: {
    id: 'hung-threads-reported',
    defaultSeverity: 'warning',
    title: 'Hung threads reported by the server',
    description:
      "An application server's own log reports threads hung or stuck (WebSphere WSVR0605W, WebLogic BEA-000337, Tomcat's StuckThreadDetectionValve) " +
      "and does not report them recovered (WSVR0606W, BEA-000339, the valve's completion line); with what the logged stack runs and the same " +
      'threads in the dumps given with the log. Reports that recovered are left out; a pool at its maximum (WSVR0652W) makes it an error.',
    remedy:
      'Look at what the hung threads run (the logged stack, and the thread dump taken beside the log): a ' +
      'remote call or a query without a timeout is the usual cause; set one, and fix what the call waits for.',
    remedyKind: 'search',
    options: {
      minActiveSeconds: {
        type: 'number',
        min: 0,
        default: 0,
        description: "Reports of threads active for less than this are left out (the server's own threshold already applies).",
      },
    },
  },
  check({ model, options }) {
    const minMs = Number(options['minActiveSeconds']) * 1000;
    const reports = model.logEvents.filter((e) => e.kind === 'hung-thread-reported' && e.thread !== undefined);
    const recoveries = model.logEvents.filter((e) => e.kind === 'hung-thread-recovered');
    const hung = reports.filter((r) => !recovered(r, recoveries) && Number(r.facts['activeMs'] ?? 0) >= minMs);
    const poolsFull = model.logEvents.filter((e) => e.kind === 'server-pool-full');
    // One finding per pool of the server (WebContainer, http-nio-8080-exec): its hung threads together.
    const byPool = new Map<string, LogEventModel[]>();
    for (const r of hung) {
      const pool = poolNameOf(r.thread!) ?? r.thread!;
      byPool.set(pool, [...(byPool.get(pool) ?? []), r]);
    }
    return [...byPool].map(([pool, list]): FindingDraft => {
      const server = String(list[0]!.facts['server'] ?? 'the server');
      const full = poolsFull.filter((p) => String(p.facts['pool']) === pool || pool.startsWith(String(p.facts['pool'])));
      const described = list.map((r) => {
        const runs = whatItRuns(r.frames);
        const request = r.facts['request'] !== undefined ? ` serving ${r.facts['request']}` : '';
        return `"${r.thread}" active ${Math.round(Number(r.facts['activeMs']) / 1000)} s${request}${runs !== undefined ? `, in ${runs}` : ''}`;
      });
      const inDumps = list.flatMap((r) => {
        const refs = threadsNamed(model, r.thread!);
        return refs.length > 0 ? [refs[refs.length - 1]!] : [];
      });
      const evidence: Evidence[] = [
        ...list.map((r): Evidence => ({
          kind: 'log',
          source: r.last.source,
          line: r.last.line,
          text: r.last.text,
          note: `${String(r.facts['code'])}${r.count > 1 ? `, reported ${r.count} times` : ''}`,
        })),
        ...full.map((p): Evidence => ({ kind: 'log', source: p.last.source, line: p.last.line, text: p.last.text, note: 'the pool at its maximum' })),
        ...inDumps.map((ref) => threadEvidence(model, ref, 'the same thread in the dump')),
      ];
      const runsSame = new Set(list.map((r) => whatItRuns(r.frames)).filter((w) => w !== undefined));
      return {
        subject: pool,
        ...(full.length > 0 ? { severity: 'error' as const } : {}),
        message:
          `${server} reported ${plural(list.length, 'thread')} of ${pool} hung and never ` +
          `reported ${list.length === 1 ? 'it' : 'them'} recovered: ${described.join('; ')}.` +
          (runsSame.size === 1 && list.length > 1 ? ' They all run the same code.' : '') +
          (full.length > 0 ? ` The server also reports the ${pool} pool at 100 % of its maximum: requests wait for a thread.` : '') +
          (inDumps.length > 0
            ? ` ${plural(inDumps.length, 'of them is', 'of them are')} in the dumps given with the log.`
            : model.dumps.length > 0
              ? ' None of them is in the dumps given with the log (taken at another time, or of another server).'
              : ' Take a thread dump of the server now to see what they do.'),
        facts: {
          server,
          pool,
          threads: list.map((r) => r.thread!),
          threadCount: list.length,
          activeSeconds: list.map((r) => Math.round(Number(r.facts['activeMs']) / 1000)),
          runs: list.map((r) => whatItRuns(r.frames) ?? ''),
          poolFull: full.length > 0,
          recoveredReports: reports.length - hung.length,
          inDumps: inDumps.map((r) => r.name),
        },
        evidence,
        // A hung request thread holds a user's request; a full pool holds every new one.
        impact: list.length * 2 + (full.length > 0 ? 10 : 0),
      };
    });
  },
};

/** A report is resolved when the same log says the thread recovered after it. */
function recovered(report: LogEventModel, recoveries: readonly LogEventModel[]): boolean {
  return recoveries.some((r) => r.thread === report.thread && r.last.source === report.last.source && r.last.line > report.last.line);
}

/** The dumps' threads the server's name for it matches (WebLogic's names carry a state in brackets that changes). */
function threadsNamed(model: Model, name: string): ThreadRef[] {
  const out: ThreadRef[] = [];
  model.dumps.forEach((d, dump) =>
    d.threads.forEach((th, thread) => {
      if (th.name === name || th.name.replace(/^\[[A-Z ]+\]\s*/, '') === name) out.push({ dump, thread, name: th.name });
    }),
  );
  return out;
}

/** What the logged stack runs: its top frame and, when that is the JDK's, the first caller that is not. */
function whatItRuns(frames: readonly string[] | undefined): string | undefined {
  if (frames === undefined || frames.length === 0) return undefined;
  const caller = frames.find((f) => !isJdkClass(f));
  return caller !== undefined && caller !== frames[0] ? `${frames[0]} (called from ${caller})` : frames[0];
}
