/**
 * One moment of one JVM taken in two formats. On JDK 21+ `jcmd Thread.print` (and jstack) lists the
 * platform threads with their monitors and locks, but not the virtual threads no carrier is running
 * (parked, waiting for a lock, sleeping): a service whose virtual threads deadlock or pile up on a
 * lock shows nothing. `jcmd Thread.dump_to_file -format=json` lists every virtual thread. Taken
 * together (as `dumpsleuth capture` does), they are one moment, not two dumps of a series: the JSON
 * dump's virtual threads are added to the Thread.print dump of the same instant, each saying which
 * file it came from; its platform threads are those the text dump already holds (with their locks).
 *
 * A pair is a JSON dump and a HotSpot text dump that nothing says are two JVMs (jvm-identity.ts),
 * whose platform threads mostly match by Java id and name, taken within MAX_APART_MS of each other.
 * The text dump's clock is the dumping machine's local time with no zone, the JSON's is UTC: their
 * difference is a zone offset (a multiple of 15 minutes, at most 14 h) plus the time between them.
 */
import type { StackFrame, ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { sightingOfDump, whyNotOneJvm } from './jvm-identity.js';
import { dumpLabel } from './series.js';

/** Two dumps further apart than this (beyond the zone offset) are two moments. */
const MAX_APART_MS = 60_000;
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_ZONE_OFFSET_MS = 14 * 60 * 60_000;

export interface MergedMoment {
  /** The text dump the JSON dump's virtual threads were added to, as the merged dump names it. */
  readonly into: string;
  /** The JSON dump, as a label (`dump 1 of threads-1.json`) and its file. */
  readonly from: string;
  readonly fromSource: string;
  /** Virtual threads added; those a carrier of the text dump was running (already in its stack) were not. */
  readonly added: number;
  readonly mounted: number;
  /** Platform threads of the JSON dump matched in the text dump by Java id and name. */
  readonly platformMatched: number;
  /** Seconds between the two, when both have a time. */
  readonly secondsApart?: number;
}

/**
 * The dumps with every JSON dump that pairs with a text dump merged into it (the JSON dump then
 * leaves the list), in the order given, and what was merged.
 */
export function mergeMoments(dumps: readonly ThreadDump[]): { dumps: ThreadDump[]; merged: MergedMoment[] } {
  const jsons = dumps.map((_, i) => i).filter((i) => dumps[i]!.format === 'jcmd-json');
  const texts = dumps.map((_, i) => i).filter((i) => dumps[i]!.format === 'hotspot' && !dumps[i]!.threads.some((t) => t.virtual));
  if (jsons.length === 0 || texts.length === 0) return { dumps: [...dumps], merged: [] };
  const pairedText = new Map<number, number>();
  const consumed = new Set<number>();
  for (const j of jsons) {
    let best: { text: number; apartMs: number | undefined } | undefined;
    for (const t of texts) {
      if (pairedText.has(t)) continue;
      // The clocks first (cheap): the threads are compared only for dumps of one moment.
      const apartMs = msApart(dumps[t]!, dumps[j]!);
      if (apartMs === null) continue;
      if (apartMs === undefined && (jsons.length > 1 || texts.length > 1)) continue;
      if (!sameMoment(dumps[t]!, dumps[j]!)) continue;
      if (best === undefined || (apartMs ?? Infinity) < (best.apartMs ?? Infinity)) best = { text: t, apartMs };
    }
    if (best === undefined) continue;
    pairedText.set(best.text, j);
    consumed.add(j);
  }
  const merged: MergedMoment[] = [];
  const out: ThreadDump[] = [];
  dumps.forEach((d, i) => {
    if (consumed.has(i)) return;
    const j = pairedText.get(i);
    if (j === undefined) return void out.push(d);
    const { dump, moment } = mergeInto(d, dumps[j]!);
    out.push(dump);
    merged.push(moment);
  });
  return { dumps: out, merged };
}

/**
 * Whether the two dumps can be one moment of one JVM: no contradiction, most platform threads the
 * same (Java id and name), and none of those with another outermost frame. A thread's outermost
 * frame (its `run` or `main`) is where it started and stays for its life, while two JVMs of one JDK
 * share the ids and names of their first threads (`main` is #3 in both; its outermost frame is each
 * program's own main).
 */
function sameMoment(text: ThreadDump, json: ThreadDump): boolean {
  if (whyNotOneJvm(sightingOfDump(text, dumpLabel(text)), sightingOfDump(json, dumpLabel(json))) !== undefined) return false;
  const byId = new Map<string, ThreadEntry>();
  for (const t of text.threads) if (t.javaId !== undefined) byId.set(t.javaId, t);
  let withId = 0;
  let matched = 0;
  for (const t of json.threads) {
    if (t.virtual || t.javaId === undefined) continue;
    withId++;
    const same = byId.get(t.javaId);
    if (same === undefined || same.name !== t.name) continue;
    const [a, b] = [outermost(same), outermost(t)];
    if (a !== undefined && b !== undefined && a !== b) return false;
    matched++;
  }
  // Threads start and end between the two: most, not all. Half is far above what two JVMs share by chance (ids and names).
  return withId > 0 && matched * 2 >= withId;
}

/** The frame a thread started in, when its whole stack is there. */
function outermost(t: ThreadEntry): string | undefined {
  return t.stackTruncated || t.frames.length === 0 ? undefined : t.frames[t.frames.length - 1]!.qualified;
}

/**
 * Milliseconds between the two dumps beyond a zone offset; undefined when either has no time, null
 * when too far apart. A text dump's time has whole seconds (`18:10:18`): it was taken somewhere in
 * that second, so a JSON dump at 18:10:18.868 is 0 ms from it, not 868 (and 132 from `18:10:19`):
 * taken a second apart, the nearest second must not pair a JSON dump with the next moment's text.
 */
function msApart(text: ThreadDump, json: ThreadDump): number | undefined | null {
  if (text.timestampIso === undefined || json.timestampIso === undefined) return undefined;
  const a = Date.parse(asUtc(text.timestampIso));
  const b = Date.parse(asUtc(json.timestampIso));
  if (!Number.isFinite(a) || !Number.isFinite(b)) return undefined;
  const within = /T?\d\d:\d\d:\d\d\.\d/.test(text.timestampIso) ? 0 : 1000;
  const diff = b - a;
  const zone = Math.round((diff - within / 2) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  if (Math.abs(zone) > MAX_ZONE_OFFSET_MS) return null;
  const off = diff - zone;
  const apart = off < 0 ? -off : off > within ? off - within : 0;
  return apart <= MAX_APART_MS ? apart : null;
}

/** An ISO time read as UTC when it names no zone (a text dump's local time): only differences modulo a zone are used. */
function asUtc(iso: string): string {
  return /(?:Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`;
}

function mergeInto(text: ThreadDump, json: ThreadDump): { dump: ThreadDump; moment: MergedMoment } {
  // A virtual thread a carrier was running is in the carrier's stack already (`Carrying virtual thread #N`).
  const carried = new Set<string>();
  for (const t of text.threads) if (t.carriedVirtualThread !== undefined) carried.add(t.carriedVirtualThread);
  const textIds = new Map<string, string>();
  for (const t of text.threads) if (t.javaId !== undefined) textIds.set(t.javaId, t.name);
  const added: ThreadEntry[] = [];
  let mounted = 0;
  let platformMatched = 0;
  for (const t of json.threads) {
    if (!t.virtual) {
      if (t.javaId !== undefined && textIds.get(t.javaId) === t.name) platformMatched++;
      continue;
    }
    if (t.javaId !== undefined && carried.has(t.javaId)) {
      mounted++;
      continue;
    }
    added.push({ ...t, from: json.source });
  }
  const apart = msApart(text, json);
  return {
    dump: { ...text, threads: [...text.threads, ...added] },
    moment: {
      into: dumpLabel(text),
      from: dumpLabel(json),
      fromSource: json.source,
      added: added.length,
      mounted,
      platformMatched,
      ...(typeof apart === 'number' ? { secondsApart: apart / 1000 } : {}),
    },
  };
}

/** A thread name the JDK gives only to a thread of the virtual-thread scheduler. */
const SCHEDULER_THREAD = /^VirtualThread-(?:unparker|unblocker)$/;

/**
 * What in a HotSpot text dump shows that its JVM runs virtual threads, which the format does not
 * list unless a carrier runs them: a carrier carrying one, the scheduler's own threads, or frames of
 * a virtual thread or a continuation. Undefined when nothing does (or the dump lists virtual threads).
 */
export function virtualThreadSign(dump: ThreadDump): string | undefined {
  if (dump.format !== 'hotspot' || dump.threads.some((t) => t.virtual)) return undefined;
  // The plainest sign first: a carrier caught running one.
  const carrier = dump.threads.find((t) => t.carriedVirtualThread !== undefined);
  if (carrier !== undefined) return `"${carrier.name}" carries virtual thread #${carrier.carriedVirtualThread!}`;
  const scheduler = dump.threads.find((t) => SCHEDULER_THREAD.test(t.name));
  if (scheduler !== undefined) return `the scheduler's thread "${scheduler.name}"`;
  // Threads of one stack share its frames (stack-interner.ts): each stack is read once.
  const read = new Set<readonly StackFrame[]>();
  for (const t of dump.threads) {
    if (read.has(t.frames)) continue;
    read.add(t.frames);
    const f = t.frames.find((fr) => fr.className === 'java.lang.VirtualThread' || fr.className.startsWith('jdk.internal.vm.Continuation'));
    if (f !== undefined) return `"${t.name}" runs ${f.qualified}`;
  }
  return undefined;
}
