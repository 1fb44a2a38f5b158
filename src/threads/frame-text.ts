/**
 * Parsing of the small pieces inside a thread entry: stack frames and lock references.
 * Shared by every text format (HotSpot, VisualVM, ThreadInfo, JRockit, javacore) and the JSON ones.
 */
import { withoutTrailingBracket } from '../model/text-scan.js';
import type { FrameLockKind, JavaThreadState, LockRef, StackFrame } from '../model/thread-dump.js';

const HIDDEN_CLASS_SUFFIX = /\/0x[0-9a-fA-F]+(?=\.)/;

/**
 * Turns the text of a frame (what follows `at `) into a StackFrame.
 * Handles `pkg.Cls.m(File.java:1)`, `pkg.Cls.m(java.base@17/File.java:1)`,
 * `java.base@17/pkg.Cls.m(...)` (VisualVM), `app//pkg.Cls.m(...)`, `java.base/pkg.Cls.m(...)` (jcmd JSON),
 * JRockit's `java/lang/Object.wait(J)V(Native Method)` and lambda hidden classes `Cls$$Lambda$1/0x0123.run`.
 */
export function parseFrameText(text: string): StackFrame {
  const open = text.indexOf('(');
  let qualifiedRaw = open >= 0 ? text.slice(0, open) : text;
  let location = '';
  const lastOpen = text.lastIndexOf('(');
  if (lastOpen >= 0) {
    const close = text.indexOf(')', lastOpen);
    location = text.slice(lastOpen + 1, close >= 0 ? close : text.length);
    const slash = location.lastIndexOf('/');
    if (slash >= 0) location = location.slice(slash + 1);
  }
  qualifiedRaw = qualifiedRaw.trim();
  if (qualifiedRaw.includes('/')) qualifiedRaw = normaliseSlashes(qualifiedRaw);
  const dot = qualifiedRaw.lastIndexOf('.');
  const className = dot > 0 ? qualifiedRaw.slice(0, dot) : qualifiedRaw;
  const method = dot > 0 ? qualifiedRaw.slice(dot + 1) : '';
  return { className, method, location, qualified: qualifiedRaw };
}

function normaliseSlashes(q: string): string {
  // Lambda hidden classes carry `/0x<address>`; the address differs per JVM run, so it is dropped.
  let s = q.replace(HIDDEN_CLASS_SUFFIX, '');
  if (!s.includes('/')) return s;
  const lastSlash = s.lastIndexOf('/');
  const after = s.slice(lastSlash + 1);
  const before = s.slice(0, lastSlash);
  const afterDots = after.split('.').length - 1;
  // A module or class-loader prefix (`java.base@17/`, `app//`, `java.base/`) precedes a dotted class name;
  // JRockit and javacore use slashes as package separators (`java/lang/Object.wait`).
  if (afterDots > 1 || before.includes('.') || before.includes('@') || before.endsWith('/')) {
    s = after;
  } else {
    s = s.replace(/\//g, '.');
  }
  return s;
}

/** Parses `<0x00000000d5e4f3c8> (a java.lang.Object)`, `java.lang.Object@1b6d3586`, JRockit `java/lang/Object@0x0095C8D0[thin lock]`. */
export function parseLockRef(text: string): LockRef | null {
  const t = text.trim();
  if (t.length === 0) return null;
  const lt = t.indexOf('<');
  if (lt >= 0) {
    const gt = t.indexOf('>', lt);
    const inner = t.slice(lt + 1, gt >= 0 ? gt : t.length).trim();
    const id = /^(0x)?[0-9a-fA-F]+$/.test(inner) ? inner.toLowerCase() : '';
    const a = t.indexOf('(a ', gt);
    let className = '';
    if (a >= 0) {
      const end = t.indexOf(')', a);
      className = t.slice(a + 3, end >= 0 ? end : t.length).trim();
    }
    return { id, className: className.replace(/\//g, '.') };
  }
  const at = t.indexOf('@');
  if (at > 0) {
    const className = t.slice(0, at).replace(/\//g, '.');
    const idMatch = /^(0x[0-9a-fA-F]+|[0-9a-fA-F]+)/.exec(t.slice(at + 1));
    return { id: idMatch ? idMatch[1]!.toLowerCase() : '', className };
  }
  // `the Class initialization monitor for X`, or a bare class name.
  const forIdx = t.lastIndexOf(' for ');
  return { id: '', className: (forIdx >= 0 ? t.slice(forIdx + 5) : t).trim() };
}

export interface ParsedLockLine {
  readonly kind: FrameLockKind;
  readonly lock: LockRef | null;
  /** `owned by "name"` when the format names the owner (VisualVM). */
  readonly ownerName?: string;
}

const LOCK_PREFIXES: ReadonlyArray<readonly [string, FrameLockKind]> = [
  ['locked ', 'locked'],
  ['Locked ', 'locked'],
  ['waiting to lock ', 'waiting-to-lock'],
  ['waiting to re-lock in wait() ', 'waiting-to-relock'],
  // JDK 17+: a thread waiting for another thread to finish initialising a class (before `waiting on `, which it starts with).
  ['waiting on the Class initialization monitor for ', 'waiting-class-init'],
  ['waiting on ', 'waiting-on'],
  ['parking to wait for ', 'parking'],
  ['eliminated ', 'eliminated'],
  ['blocked on ', 'blocked-on'],
];

/** Parses the text after `- ` in a HotSpot/VisualVM/ThreadInfo lock line. Null when it is not a lock line. */
export function parseLockLine(text: string): ParsedLockLine | null {
  const t = text.trimStart();
  for (const [prefix, kind] of LOCK_PREFIXES) {
    if (t.startsWith(prefix)) {
      let rest = t.slice(prefix.length);
      let ownerName: string | undefined;
      const owned = rest.indexOf(' owned by "');
      if (owned >= 0) {
        const end = rest.indexOf('"', owned + 11);
        ownerName = rest.slice(owned + 11, end >= 0 ? end : rest.length);
        rest = rest.slice(0, owned);
      }
      const lock = parseLockRef(rest);
      return ownerName === undefined ? { kind, lock } : { kind, lock, ownerName };
    }
  }
  return null;
}

const JROCKIT_LOCK_PREFIXES: ReadonlyArray<readonly [string, FrameLockKind | null]> = [
  ['-- Blocked trying to get lock:', 'waiting-to-lock'],
  ['-- Waiting for notification on:', 'waiting-on'],
  ['-- Parking to wait for:', 'parking'],
  ['^-- Holding lock:', 'locked'],
  ['^-- Lock released while waiting:', null],
];

/** JRockit lock annotations. Returns undefined when not one; `kind: null` for understood-but-ignored lines. */
export function parseJrockitLockLine(t: string): { kind: FrameLockKind | null; lock: LockRef | null } | undefined {
  for (const [prefix, kind] of JROCKIT_LOCK_PREFIXES) {
    if (t.startsWith(prefix)) {
      const rest = withoutTrailingBracket(t.slice(prefix.length));
      return { kind, lock: parseLockRef(rest) };
    }
  }
  return undefined;
}

const STATE_NAMES: ReadonlyMap<string, JavaThreadState> = new Map(
  (['NEW', 'RUNNABLE', 'BLOCKED', 'WAITING', 'TIMED_WAITING', 'TERMINATED'] as const).map((n) => [n, n]),
);

/**
 * The state named by `s`, as the shared constant: a state cut out of the input would be a V8 slice
 * that keeps the whole decoded chunk around it alive for as long as the thread lives.
 */
export function javaStateNamed(s: string): JavaThreadState | undefined {
  return STATE_NAMES.get(s);
}
