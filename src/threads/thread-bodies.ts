/**
 * The text parser's second cache, one level above RawFrameLines. A thread's body (every line from
 * its header to the next header: state line, frames, lock lines, ownable synchronizers) is very often
 * the exact text of an earlier thread's body: idle workers of one pool park in the same frames on the
 * same queue's condition object, and a big dump is big because of such pools. A body proved to hold
 * nothing but that thread's lines is remembered by its text, and an identical body later is applied
 * from the record instead of being parsed again, line by line.
 *
 * Threads applied from one record share its frame, lock and synchronizer arrays (as identical frame
 * lines already share frame objects). The parser copies them before adding anything to such a thread.
 */
import type { FrameLock, JavaThreadState, LockRef, StackFrame } from '../model/thread-dump.js';
import { detach } from './dump-builder.js';

/** What the body's `java.lang.Thread.State:` line said; the last one wins, as in the parser. */
export interface BodyStateLine {
  readonly state: JavaThreadState;
  /** The last detail in parentheses any state line gave (a line without one keeps the earlier). */
  readonly detail: string | undefined;
}

/** Everything a body did to its thread and to the parser, so it can be done again without the text. */
export interface ThreadBody {
  /** Newlines in the body text: the lines it spans. */
  readonly lines: number;
  /** The thread's last non-blank line, counted from its header line. */
  readonly endOffset: number;
  readonly frames: StackFrame[];
  readonly locks: FrameLock[];
  readonly ownableSynchronizers: LockRef[];
  readonly stateLine: BodyStateLine | undefined;
  readonly lockOwnerName: string | undefined;
  readonly stackTruncated: boolean;
  readonly carriedVirtualThread: string | undefined;
  /** Whether the body ended inside a `Locked ownable synchronizers:` list. */
  readonly inOwnable: boolean;
  /** The body's last non-blank line, trimmed (the parser's `previousText` after it). */
  readonly lastText: string;
}

/** Bodies longer than this are not remembered: deep stacks rarely repeat, and their keys cost memory. */
export const MAX_BODY_CHARS = 32 * 1024;
/**
 * Total text kept as keys. When every body is different (each thread holds its own locks), the cache
 * would otherwise grow to the size of the input; past this it only answers for the bodies it has.
 */
const MAX_KEPT_BODY_CHARS = 8 * 1024 * 1024;

/**
 * Bodies of one length kept at most: past it, a length is shared by bodies that differ (each thread
 * holding its own lock, say) and new ones are not remembered, so a lookup compares at most this many.
 */
const MAX_BODIES_PER_LENGTH = 4;

/**
 * Records keyed by the body's length and compared whole with `===`. (A Map keyed by the text hashes
 * every character of every body; V8 compares flat one-byte strings as memory, several times faster.)
 */
export class ThreadBodies {
  private readonly byLength = new Map<number, { readonly text: string; readonly body: ThreadBody }[]>();
  private keptChars = 0;
  /** Recent lookups and hits (halved now and then, so they describe the recent threads). */
  private lookups = 0;
  private hits = 0;
  private skipped = 0;

  /**
   * Whether the next body is worth looking up. When most bodies lately were new (every thread holding
   * its own locks), cutting, comparing and remembering them costs without paying off: then only one
   * body in 16 is tried, enough to notice when repeated bodies come back.
   */
  worthTrying(): boolean {
    if (this.lookups < 256 || this.hits * 8 >= this.lookups) return true;
    return (++this.skipped & 15) === 0;
  }

  get(text: string): ThreadBody | undefined {
    if (++this.lookups >= 4096) {
      this.lookups >>= 1;
      this.hits >>= 1;
    }
    const candidates = this.byLength.get(text.length);
    if (candidates === undefined) return undefined;
    for (const c of candidates) {
      if (c.text === text) {
        this.hits++;
        return c.body;
      }
    }
    return undefined;
  }

  /** Remembers a body proved clean; the text may be a slice of a chunk, so the record keeps a copy. */
  add(text: string, body: ThreadBody): void {
    if (this.keptChars + text.length > MAX_KEPT_BODY_CHARS) return;
    let candidates = this.byLength.get(text.length);
    if (candidates === undefined) this.byLength.set(text.length, (candidates = []));
    if (candidates.length >= MAX_BODIES_PER_LENGTH) return;
    this.keptChars += text.length;
    candidates.push({ text: detach(text), body });
  }
}
