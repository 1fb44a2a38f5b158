/**
 * The code a finding's rule attached to a thread of its evidence (rules/support/thread-code.ts), as
 * the lines every format and the UI draw, in jstack's words: `at Class.method(File.java:42)`, then
 * `- locked <0x…> (a X)` under it. The text is the dump's, unescaped: each format escapes it its way.
 */
import type { Evidence, EvidenceLock } from '../model/findings.js';
import type { FrameLockKind } from '../model/thread-dump.js';
import { threadNameText } from './thread-name.js';

type CodeLineKind = 'frame' | 'lock' | 'gap' | 'more';

export interface CodeLine {
  readonly kind: CodeLineKind;
  readonly text: string;
  /** The first frame of the application's own code: the line a user opens. */
  readonly application?: boolean;
}

type ThreadEvidence = Extract<Evidence, { kind: 'thread' }>;

/** The evidence items of a finding that carry code. */
export function threadsWithCode(evidence: readonly Evidence[]): ThreadEvidence[] {
  return evidence.filter((e): e is ThreadEvidence => e.kind === 'thread' && e.frames !== undefined && e.frames.length > 0);
}

/** The thread as a code block's first line: `"mon-1" BLOCKED (on object monitor)`. */
export function codeHeader(e: ThreadEvidence): string {
  return `${threadNameText(e.thread, (n) => `"${n}"`)}${e.state !== undefined ? ` ${e.state}` : ''}`;
}

const VERB: Record<FrameLockKind, string> = {
  locked: 'locked',
  'waiting-on': 'waiting on',
  'waiting-class-init': 'waiting on the Class initialization monitor for',
  'waiting-to-lock': 'waiting to lock',
  'waiting-to-relock': 'waiting to re-lock in wait()',
  parking: 'parking to wait for',
  eliminated: 'eliminated',
  'blocked-on': 'blocked on',
};

function lockText(l: EvidenceLock): string {
  const heldBy = l.heldBy !== undefined ? ` held by ${threadNameText(l.heldBy, (n) => `"${n}"`)}` : '';
  if (l.kind === 'waiting-class-init') return `- ${VERB[l.kind]} ${l.className}${heldBy}`;
  const id = l.lock !== '' ? ` <${l.lock}>` : '';
  const cls = l.className !== '' ? ` (a ${l.className})` : '';
  return `- ${VERB[l.kind]}${id}${cls}${heldBy}`;
}

const frames = (n: number) => `${n} frame${n === 1 ? '' : 's'}`;

/**
 * A thread's code, top first: each frame and its lock lines, `… n frames` where frames were left
 * out between two shown, the j.u.c. locks it holds, and (when `trailing`) how many frames lie below.
 */
export function codeLines(e: ThreadEvidence, trailing: boolean): CodeLine[] {
  const out: CodeLine[] = [];
  let next = 0;
  for (const f of e.frames ?? []) {
    if (f.depth > next) out.push({ kind: 'gap', text: `… ${frames(f.depth - next)}` });
    out.push(f.application ? { kind: 'frame', text: `at ${f.frame}`, application: true } : { kind: 'frame', text: `at ${f.frame}` });
    for (const l of f.locks) out.push({ kind: 'lock', text: lockText(l) });
    next = f.depth + 1;
  }
  const below = (e.stackDepth ?? next) - next;
  if (trailing && below > 0) out.push({ kind: 'more', text: `… ${below} more frame${below === 1 ? '' : 's'}` });
  for (const h of e.holds ?? []) out.push({ kind: 'lock', text: `- locked ownable synchronizer <${h.lock}> (a ${h.className})` });
  return out;
}
