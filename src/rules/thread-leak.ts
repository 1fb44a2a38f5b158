/**
 * Threads that pile up. The idea: threads are created by pools and timers that should live as long
 * as the application; when each call creates its own executor (or Timer, or HTTP client) and never
 * shuts it down, the dump holds many instances of one naming scheme, each with a thread or two
 * waiting for work that will never come, and a series shows their count growing. Which names carry
 * an instance number is data (the factories that write them, below); a pool that grew to its size
 * and stays there is not a leak.
 */
import { isJdkClass } from '../knowledge/index.js';
import { countText } from '../model/count-text.js';
import type { Model } from '../model/model.js';
import type { FindingDraft, Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { type InstanceNaming, instanceNamingOf } from './support/instance-namings.js';

export const threadLeak: Rule = {
  meta: {
    id: 'thread-leak',
    defaultSeverity: 'warning',
    title: 'Threads piling up',
    description:
      'Executors, Timers, HTTP clients or event-loop groups created per call and never shut down: many instances of one naming scheme ' +
      '(pool-#-thread-#, Timer-#, HttpClient-#-SelectorManager, ...), most of their threads waiting for work, and across a series ' +
      'the count growing; or a series whose thread count grows in every dump. A pool that grew to its size and stays is not a leak.',
    remedy: 'Find where the instances are created (the code that builds an executor, Timer or client per request) and share one, or shut each down when done.',
    options: {
      minInstances: {
        type: 'integer',
        min: 1,
        default: 100,
        description: 'Instances of one naming scheme in one dump that make a leak by themselves (an application may well have 20 pools of its own).',
      },
      minNewInstances: {
        type: 'integer',
        min: 1,
        default: 10,
        description: 'Instances a series must gain, growing in every dump, to make a leak with fewer instances.',
      },
      minGrowth: { type: 'integer', min: 1, default: 50, description: 'Threads a series must gain, growing in every dump, to report the growth alone.' },
    },
  },
  check({ model, options }) {
    const minInstances = Number(options['minInstances']);
    const minNew = Number(options['minNewInstances']);
    const minGrowth = Number(options['minGrowth']);
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    const drafts: FindingDraft[] = [];
    const series = model.series.find((s) => s.dumps.includes(last));
    const counts = series?.dumps.map((d) => model.dumps[d]!.threads.length) ?? [model.dumps[last]!.threads.length];
    const reported = new Set<number>();
    // Each dump's instances, read once (not once per naming scheme).
    const perDump = new Map((series?.dumps ?? [last]).map((d) => [d, instancesIn(model, d)]));
    for (const inst of perDump.get(last) ?? instancesIn(model, last)) {
      const instances = inst.byInstance.size;
      const perSeries = series?.dumps.map((d) => perDump.get(d)!.find((x) => x.naming === inst.naming)?.byInstance.size ?? 0);
      const growing = perSeries !== undefined && perSeries.length > 1 && perSeries.every((n, k) => k === 0 || n > perSeries[k - 1]!);
      const gained = growing ? perSeries![perSeries!.length - 1]! - perSeries![0]! : 0;
      if (instances < minInstances && gained < minNew) continue;
      const threads = [...inst.byInstance.values()].flat();
      const idle = threads.filter((t) => model.activity[last]![t]!.activity === 'idle').length;
      // A leak's threads wait for work that never comes; busy ones are a real load of many pools. Threads
      // started one per call are an explosion whatever they do.
      if (idle < threads.length / 2 && !inst.naming.threadPerInstance) continue;
      const site = inst.naming.threadPerInstance ? creationSite(model, last, threads) : undefined;
      // Threads started one by one are one kind when they start in one place: that many of one site, or a series' growth.
      if (inst.naming.threadPerInstance && (site?.count ?? 0) < minInstances && gained < minNew) continue;
      const numbers = [...inst.byInstance.keys()];
      const highest = Math.max(...numbers);
      const seconds = series?.spanSeconds ?? null;
      for (const t of threads) reported.add(t);
      drafts.push({
        subject: inst.naming.scheme,
        ...(instances >= minInstances * 5 ? { severity: 'error' as const } : {}),
        message:
          `${countText(instances)} instances of ${inst.naming.scheme} (${inst.naming.instance})` +
          ` hold ${plural(threads.length, 'thread')}, ${idle} of them waiting for work` +
          (site !== undefined ? `; ${site.count} of them run ${site.frame}, where they are started` : '') +
          (highest > instances ? `; the numbers reach ${countText(highest)}, so more were created than are left` : '') +
          (growing ? `; their count grew in every dump: ${perSeries!.join(' → ')}${seconds !== null ? ` in ${seconds.toFixed(0)} s` : ''}` : '') +
          `. Instances created per call and never shut down: ${inst.naming.remedy}.`,
        facts: {
          scheme: inst.naming.scheme,
          instances,
          threads: threads.length,
          idleThreads: idle,
          highestNumber: highest,
          instancesPerDump: perSeries ?? [instances],
          growing,
          creationSite: site?.frame ?? null,
        },
        evidence: threads.slice(0, 20).map((t) => threadEvidence(model, model.threadRefs[last]![t]!)),
        remedy: `Find where ${withoutTrailingParenthesis(inst.naming.instance)} is created per call and ${inst.naming.remedy}.`,
        impact: Math.round(threads.length / 10),
      });
    }
    // Growth alone: the thread count rising in every dump of a series, by enough to matter.
    const grew = counts.length > 2 && counts.every((n, k) => k === 0 || n > counts[k - 1]!) && counts[counts.length - 1]! - counts[0]! >= minGrowth;
    if (grew && drafts.length === 0) {
      drafts.push({
        subject: 'thread count',
        message:
          `The JVM's thread count grew in every dump: ${counts.join(' → ')}` +
          `${series?.spanSeconds != null ? ` in ${series.spanSeconds.toFixed(0)} s` : ''}. Compare the dumps' thread names to find what creates them.`,
        facts: { threadsPerDump: counts, growth: counts[counts.length - 1]! - counts[0]! },
        evidence: [],
        impact: Math.round((counts[counts.length - 1]! - counts[0]!) / 10),
      });
    }
    return drafts;
  },
};

interface Instances {
  readonly naming: InstanceNaming;
  /** Instance number -> its threads in the dump. */
  readonly byInstance: Map<number, number[]>;
}

function instancesIn(model: Model, dump: number): Instances[] {
  const out = new Map<InstanceNaming, Map<number, number[]>>();
  // The refs, not the threads: only the names are read, and the refs lie side by side.
  const refs = model.threadRefs[dump]!;
  for (let i = 0; i < refs.length; i++) {
    const found = instanceNamingOf(refs[i]!.name);
    if (found === undefined) continue;
    const n = found.number ?? i; // OkHttp's pools carry no number: each thread is one
    let map = out.get(found.naming);
    if (map === undefined) out.set(found.naming, (map = new Map<number, number[]>()));
    const list = map.get(n);
    if (list === undefined) map.set(n, [i]);
    else list.push(i);
  }
  return [...out].map(([naming, byInstance]) => ({ naming, byInstance }));
}

/** The run method most of the threads start in (their bottom application frame), with how many. */
function creationSite(model: Model, dump: number, threads: readonly number[]): { readonly frame: string; readonly count: number } | undefined {
  const counts = new Map<string, number>();
  for (const t of threads) {
    const frames = model.dumps[dump]!.threads[t]!.frames;
    let site: string | undefined;
    for (let i = frames.length - 1; i >= 0; i--) {
      if (!isJdkClass(frames[i]!.className)) {
        site = frames[i]!.qualified;
        break;
      }
    }
    if (site !== undefined) counts.set(site, (counts.get(site) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  return best === undefined ? undefined : { frame: best[0], count: best[1] };
}

/** `a java.util.Timer (each has its own thread)` → `a java.util.Timer`. */
function withoutTrailingParenthesis(text: string): string {
  const open = text.lastIndexOf(' (');
  return open > 0 && text.endsWith(')') ? text.slice(0, open) : text;
}
