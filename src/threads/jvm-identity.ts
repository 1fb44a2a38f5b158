/**
 * Can two captures (thread dumps, a heap dump) come from one JVM? Only contradictions are looked
 * for, never likenesses: two JVMs of one service share thread names, JDK and often native ids (a
 * container starts its threads in the same order every time), so agreement proves little, while
 * one JVM never contradicts itself:
 * - its banner (`Full thread dump <VM> (<version>)`) is the same in every dump;
 * - it started once: a dump's time minus its oldest thread's `elapsed=` is the same in every dump;
 * - a Java thread id is never reused while the JVM lives, and the thread it names keeps its native
 *   id (`nid=`) and its JavaThread address (`tid=`, which a heap dump's Thread.eetop also holds);
 *   dumps without Java ids (JDK 8, JRockit) still name the threads the JVM starts at boot and keeps;
 * - a dump format that only one JVM prints (jstack's, JRockit's, a javacore) names its vendor.
 */
import type { ThreadDump } from '../model/thread-dump.js';

/** What a capture says about the JVM it was taken from. */
export interface JvmSighting {
  /** How messages name the capture: `dump 2 (x.txt)`, `heap.hprof`. */
  readonly label: string;
  /** The VM banner, when the capture prints one. */
  readonly jvm?: string;
  /** When the JVM started, in ms since the epoch (local clock of the dump's timestamp). */
  readonly startMs?: number;
  /** The JVM vendor the format names, when only one JVM prints it. */
  readonly vendor?: string;
  /** The captured threads by Java id (`#12`), or by name for lifetime threads of dumps without ids: their native id and JavaThread address, when known. */
  readonly threads: ReadonlyMap<string, SightedThread>;
}

export interface SightedThread {
  readonly name: string;
  readonly nativeId?: string;
  readonly address?: bigint;
}

/**
 * Threads the JVM starts at boot and keeps until it exits: in dumps without Java ids, the same name
 * is the same thread. (From the JDK's sources: java.lang.ref.Reference and Finalizer start their
 * threads in static initialisers, the VM its own at boot; JRockit and J9 keep the Java ones.)
 */
const LIFETIME_THREADS: ReadonlyArray<{ readonly name: string; readonly why: string }> = [
  { name: 'Reference Handler', why: 'java.lang.ref.Reference starts it at boot; it never ends' },
  { name: 'Finalizer', why: 'java.lang.ref.Finalizer starts it at boot; it never ends' },
  { name: 'Signal Dispatcher', why: 'the VM starts it at boot to deliver signals (kill -3)' },
  { name: 'VM Thread', why: "HotSpot's VM-operation thread, one per JVM for its life" },
  { name: 'VM Periodic Task Thread', why: "HotSpot's watcher thread, one per JVM for its life" },
  { name: 'Common-Cleaner', why: 'jdk.internal.ref.CleanerFactory starts it at boot (JDK 9+); it never ends' },
];
const LIFETIME_NAMES = new Set(LIFETIME_THREADS.map((t) => t.name));

/** The JVM a dump format tells: only HotSpot's jstack, JRockit and IBM/OpenJ9 javacores print their own. */
const FORMAT_VENDOR: Readonly<Record<string, string>> = { hotspot: 'HotSpot', jrockit: 'JRockit', 'ibm-javacore': 'IBM/OpenJ9 J9' };

/** Start times further apart than this are two JVMs: timestamps have a one-second grain, and a big dump takes a while to print. */
const START_TOLERANCE_MS = 120_000;

export function sightingOfDump(d: ThreadDump, label: string): JvmSighting {
  const threads = new Map<string, SightedThread>();
  let oldestS: number | undefined;
  for (const t of d.threads) {
    if (t.elapsedS !== undefined && (oldestS === undefined || t.elapsedS > oldestS)) oldestS = t.elapsedS;
    if (t.virtual) continue;
    const key = t.javaId !== undefined ? `#${t.javaId}` : LIFETIME_NAMES.has(t.name) ? `"${t.name}"` : undefined;
    if (key === undefined) continue;
    const address = addressOf(t.address);
    threads.set(key, {
      name: t.name,
      ...(t.nativeId !== undefined && t.nativeId !== '0x0' ? { nativeId: t.nativeId } : {}),
      ...(address !== undefined ? { address } : {}),
    });
  }
  const at = d.timestampIso !== undefined ? Date.parse(d.timestampIso) : NaN;
  const vendor = FORMAT_VENDOR[d.format];
  return {
    label,
    ...(d.jvm !== undefined ? { jvm: d.jvm } : {}),
    ...(vendor !== undefined ? { vendor } : {}),
    ...(oldestS !== undefined && Number.isFinite(at) ? { startMs: at - oldestS * 1000 } : {}),
    threads,
  };
}

/** `0x00007f1c2c0b8800` as a number; undefined for placeholders (VisualVM's `0x0`) and non-hex text. */
function addressOf(text: string | undefined): bigint | undefined {
  if (text === undefined || !/^0x[0-9a-fA-F]+$/.test(text)) return undefined;
  const v = BigInt(text);
  return v === 0n ? undefined : v;
}

/**
 * Why `a` and `b` cannot be captures of one JVM, or undefined when nothing they hold says so.
 * Thread ids: one thread whose ids disagree, with none that agree, or two that disagree, is enough
 * (one disagreement among many agreements would be a parsing accident, not another JVM).
 */
/**
 * Whether two banners name one JVM build. Formats word it differently: jstack prints `OpenJDK 64-Bit
 * Server VM (25.0.3+9-LTS mixed mode, sharing)`, a JSON dump `25.0.3+9-LTS`; the same version
 * string in both is the same build.
 */
function sameJvmBuild(a: string, b: string): boolean {
  if (a === b) return true;
  const va = bannerVersion(a);
  const vb = bannerVersion(b);
  return va !== undefined && va === vb;
}

/** The version that opens the last parenthesis of a banner (`... VM (25.181-b13 mixed mode)`), or the whole text. */
function bannerVersion(banner: string): string | undefined {
  return /^\d+(?:\.\d+)*(?:[+_-][\w.]+)*/.exec(banner.slice(banner.lastIndexOf('(') + 1).trim())?.[0];
}

/**
 * Whether the HotSpot a banner names closes every dump with a `JNI global refs` line. The VMs of JDK
 * 6u25 to 8 (versions 20.x to 25.x, `25.181-b13`) and every release from JDK 9 on (named by release,
 * `11.0.2+7`, `21.0.2+13-LTS`) do, in every real dump of the corpus; the 1.4, 1.5 and early 6 VMs
 * (`1.5.0_13-b05`, `1.6.0_03-b05`) do not, and a banner with no version says nothing.
 */
export function closesDumpsWithJniLine(banner: string): boolean {
  const version = bannerVersion(banner);
  if (version === undefined || version.startsWith('1.')) return false;
  return version.includes('+') || /^2[0-5]\.\d+-b/.test(version);
}

export function whyNotOneJvm(a: JvmSighting, b: JvmSighting): string | undefined {
  if (a.vendor !== undefined && b.vendor !== undefined && a.vendor !== b.vendor) return `${a.label} is a ${a.vendor} dump, ${b.label} a ${b.vendor} one`;
  if (a.jvm !== undefined && b.jvm !== undefined && !sameJvmBuild(a.jvm, b.jvm)) return `${a.label} was printed by ${a.jvm}, ${b.label} by ${b.jvm}`;
  if (a.startMs !== undefined && b.startMs !== undefined && Math.abs(a.startMs - b.startMs) > START_TOLERANCE_MS) {
    return (
      `the JVM of ${a.label} started at ${clock(a.startMs)}, that of ${b.label} at ` +
      `${clock(b.startMs)} (each dump's time minus its oldest thread's elapsed=)`
    );
  }
  const [small, large] = a.threads.size <= b.threads.size ? [a, b] : [b, a];
  let agree = 0;
  let disagree = 0;
  let example: string | undefined;
  for (const [id, s] of small.threads) {
    const l = large.threads.get(id);
    if (l === undefined) continue;
    const nidDiffers = s.nativeId !== undefined && l.nativeId !== undefined && s.nativeId !== l.nativeId;
    const addressDiffers = s.address !== undefined && l.address !== undefined && s.address !== l.address;
    if (nidDiffers || addressDiffers) {
      disagree++;
      if (example === undefined) {
        const [field, vs, vl] = nidDiffers ? ['native id', s.nativeId!, l.nativeId!] : ['JavaThread address', hex(s.address!), hex(l.address!)];
        const name = s.name === l.name ? `"${s.name}"` : `"${s.name}" / "${l.name}"`;
        const which = id.startsWith('#') ? `Java thread ${id} (${name})` : `the thread ${name}`;
        example = `${which} has ${field} ${vs} in ${small.label} and ${vl} in ${large.label}; a thread keeps its ids while the JVM lives`;
      }
    } else if ((s.nativeId !== undefined && l.nativeId !== undefined) || (s.address !== undefined && l.address !== undefined)) {
      agree++;
    }
  }
  if (disagree >= 2 || (disagree === 1 && agree === 0)) return example;
  return undefined;
}

function hex(v: bigint): string {
  return `0x${v.toString(16)}`;
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Sightings grouped into the JVMs they can come from, in the order given: each joins the first
 * group none of whose members it contradicts. Returns the groups (indexes into `sightings`) and,
 * for each group after the first, why its first member could not join the groups before it.
 */
export function groupByJvm(sightings: readonly JvmSighting[]): { groups: number[][]; reasons: string[] } {
  const groups: number[][] = [];
  const reasons: string[] = [];
  sightings.forEach((s, i) => {
    let why: string | undefined;
    for (const g of groups) {
      let conflict: string | undefined;
      for (const j of g) {
        conflict = whyNotOneJvm(sightings[j]!, s);
        if (conflict !== undefined) break;
      }
      if (conflict === undefined) {
        g.push(i);
        return;
      }
      why ??= conflict;
    }
    groups.push([i]);
    if (groups.length > 1) reasons.push(why!);
  });
  return { groups, reasons };
}
