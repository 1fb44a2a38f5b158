/** Findings: what rules produce, what reports draw. */
import type { FrameLockKind } from './thread-dump.js';

export const SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

/** A lock line of a frame shown in a finding, as the dump wrote it; `heldBy` names the owner of the lock the thread waits for. */
export interface EvidenceLock {
  readonly kind: FrameLockKind;
  /** The lock's address or identity hash; empty when the dump named none. */
  readonly lock: string;
  readonly className: string;
  /** The thread that holds it, for the lock this thread waits for, when the dump shows the owner. */
  readonly heldBy?: string;
}

/** One frame of a thread shown in a finding: `Class.method(File.java:42)`, its depth from the top, and its lock lines. */
export interface EvidenceFrame {
  readonly frame: string;
  /** 0 for the top frame; a jump in depth between two frames is frames left out. */
  readonly depth: number;
  /** The first frame of the application's own code (outside the JDK and the frameworks the knowledge registry names). */
  readonly application: boolean;
  readonly locks: readonly EvidenceLock[];
}

/**
 * The code of a thread a finding names (deadlocks, contention, stuck and saturated pools): its top
 * frames down to the first application frame, the frames where it took a lock, with the lock lines.
 */
export interface ThreadCode {
  /** `BLOCKED (on object monitor)`: the state as the dump wrote it. */
  readonly state: string;
  readonly frames: readonly EvidenceFrame[];
  /** How many frames the thread's stack has (those not in `frames` are left out). */
  readonly stackDepth: number;
  /** j.u.c. locks it holds (`Locked ownable synchronizers`), which no frame carries. */
  readonly holds: ReadonlyArray<{ readonly lock: string; readonly className: string }>;
}

export type Evidence =
  | ({
      readonly kind: 'thread';
      readonly thread: string;
      readonly index: number;
      readonly dump: number;
      readonly source: string;
      readonly line: number;
      readonly note?: string;
    } & Partial<ThreadCode>)
  | { readonly kind: 'lock'; readonly lock: string; readonly className: string; readonly dump: number; readonly note?: string }
  | { readonly kind: 'jvm-report'; readonly dump: number; readonly source: string; readonly line: number; readonly note?: string }
  | { readonly kind: 'heap-object'; readonly source: string; readonly id: string; readonly className: string; readonly note?: string }
  | { readonly kind: 'log'; readonly source: string; readonly line: number; readonly text: string; readonly note?: string };

/**
 * What a remedy is: `fix`, what to change (a pool's size, an appender); `search`, how to find the cause
 * (what stuck threads or a lock's owner wait for), for findings that say where it hurts, not why. The
 * summary's first step is the first `fix` of the top cause's chain.
 */
export type RemedyKind = 'fix' | 'search';

export type FactValue = number | string | boolean | null | readonly string[] | readonly number[];

export interface Finding {
  /** Stable id within a report: rule id plus subject. */
  readonly id: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly subject: string;
  readonly title: string;
  /** The finding in one line, for the report's summary: the rule's, else its message's first sentence. */
  readonly headline: string;
  readonly message: string;
  readonly facts: Readonly<Record<string, FactValue>>;
  readonly evidence: readonly Evidence[];
  readonly causedBy: readonly string[];
  readonly remedy: string;
  readonly remedyKind: RemedyKind;
  /** Orders findings of one severity, biggest first (threads held up, CPU burned); see rules/rule.ts. */
  readonly impact: number;
}

/** The facts in which rules count the threads a finding is about, the most telling first. */
const THREAD_COUNT_FACTS = ['threadCount', 'threads', 'waiters', 'waitingThreads', 'workers', 'executingThreads'] as const;

/** How many threads a finding's rule says it is about, when its facts say (a list fact is not a count). */
export function threadsCounted(facts: Readonly<Record<string, unknown>>): number | undefined {
  for (const k of THREAD_COUNT_FACTS) {
    const v = facts[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return undefined;
}

/** Longest headline kept whole; longer ones are cut at a word and end in `…`. */
const MAX_HEADLINE = 240;

/**
 * Text up to the end of its first sentence, whole: a full stop followed by a space and a capital, a
 * quote or a bracket (so `127.0.0.1`, `java.util.concurrent` and `e.g. this` do not end it). What
 * the user must do is never cut (the summary's first step); a headline is (firstSentence).
 */
export function wholeFirstSentence(text: string): string {
  const end = /[.!?](?=\s+["'(A-Z])/.exec(text);
  return end !== null ? text.slice(0, end.index + 1) : text;
}

/** The first sentence (wholeFirstSentence), cut at a word past MAX_HEADLINE characters: a headline. */
export function firstSentence(text: string): string {
  const sentence = wholeFirstSentence(text);
  if (sentence.length <= MAX_HEADLINE) return sentence;
  const cut = sentence.lastIndexOf(' ', MAX_HEADLINE - 1);
  return `${sentence.slice(0, cut > MAX_HEADLINE / 2 ? cut : MAX_HEADLINE - 1)}…`;
}
