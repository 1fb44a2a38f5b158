/**
 * The line-oriented thread-dump parser for every text format except IBM javacores: the section state
 * machine (ThreadDumpSections, which reads each line by what text-lines.ts says it is) with the
 * speed-ups that make a dump of 200,000 threads quick. None of them changes what the parse gives
 * (the differential tests compare them with ThreadDumpSections and with line-by-line push):
 *  - remembered frame lines: a raw frame line seen before is taken without being trimmed or parsed (push);
 *  - predicted frame lines: each remembered frame line keeps the one that followed it, and in a chunk
 *    the next line is compared with that prediction as one slice (pushText);
 *  - the header fast path: a line that starts with a quote, in a thread list, is read as a header directly;
 *  - remembered bodies: a thread body seen before (ThreadBodies) is applied whole, not read again.
 *
 * It is push-based and pure: feed it lines (`push`) or chunks of text (`pushText`), then `finish()`.
 */
import type { StackFrame, ThreadDump, ThreadEntry } from '../model/thread-dump.js';
import { detach } from './dump-builder.js';
import { markSharedStack } from './per-stack.js';
import { type RawFrameLine, RawFrameLines } from './raw-frame-lines.js';
import { ThreadDumpSections } from './text-sections.js';
import { MAX_BODY_CHARS, ThreadBodies, type ThreadBody } from './thread-bodies.js';
import { parseThreadHeader } from './thread-header.js';

export class TextDumpParser extends ThreadDumpSections {
  private readonly rawFrameLines = new RawFrameLines();
  private readonly bodies = new ThreadBodies();
  /** The frame line just taken, whose successor prediction the next line is checked against. */
  private lastFrameLine: RawFrameLine | undefined;

  /**
   * Feeds a chunk of decoded text (lines may span chunks). A frame line that the previous frame line
   * predicts is compared with it and taken without being parsed or hashed (a slice compared with `===`
   * is compared as memory; `startsWith` at an offset goes character by character).
   */
  override pushText(chunk: string): void {
    let start = this.finishCarriedLine(chunk);
    if (start < 0) return;
    const length = chunk.length;
    while (start < length) {
      const nl = chunk.indexOf('\n', start);
      if (nl < 0) break;
      start = this.pushLineAt(chunk, start, nl);
    }
    if (start < length) this.carry.add(chunk.slice(start));
    this.keepTexts();
  }

  /** Takes the line from `start` to the newline at `nl`; returns where the next line to read starts. */
  private pushLineAt(chunk: string, start: number, nl: number): number {
    const th = this.thread;
    if (th !== null && chunk.charCodeAt(start) === 9 && chunk.charCodeAt(start + 1) === 97 /* \ta */ && this.section === 'threads') {
      const predicted = this.lastFrameLine?.next;
      if (predicted !== undefined && predicted.raw.length === nl - start && chunk.slice(start, nl) === predicted.raw) {
        this.lineNo++;
        this.takeFrameLine(th, predicted);
        return nl + 1;
      }
    }
    if (chunk.charCodeAt(start) === 34 /* " */) return this.pushHeaderLineAt(chunk, start, nl);
    this.push(chunk.slice(start, nl));
    return nl + 1;
  }

  /**
   * A line that starts with a quote: in a dump's thread list, a header is all push() would find
   * (handle() tries nothing else first for such a line), so it is read directly; then its body.
   */
  private pushHeaderLineAt(chunk: string, start: number, nl: number): number {
    const line = chunk.slice(start, nl);
    const last = chunk.charCodeAt(nl - 1);
    const dump = this.dump;
    // Without trailing whitespace or `\r`, the line is its own trimmed text.
    const header = dump !== null && this.section === 'threads' && last > 32 && last < 127 ? parseThreadHeader(line) : null;
    if (header === null) {
      const before = this.thread;
      this.push(line);
      const started = this.thread;
      return started !== before && started !== null ? this.pushBody(chunk, nl + 1, started) : nl + 1;
    }
    this.lineNo++;
    this.lastFrameLine = undefined;
    this.rawLine = line;
    this.startThread(header);
    this.lineTaken(line);
    return this.pushBody(chunk, nl + 1, this.thread!);
  }

  /**
   * The body of the thread whose header line was just read: every line up to the next line that
   * starts with a quote, when the chunk holds all of it. A body seen before is applied from
   * ThreadBodies; a new one is parsed line by line and remembered when it proved to be nothing but
   * this thread's lines. Returns where the next line to read starts.
   */
  private pushBody(chunk: string, bodyStart: number, th: ThreadEntry): number {
    const dump = this.dump;
    // A record replays what a body does to a thread fresh from a HotSpot-style header: nothing of its
    // own yet, outside any synchronizer list. (ThreadInfo headers bring a lock and an owner.)
    const fresh = th.frames.length === 0 && th.locks.length === 0 && th.ownableSynchronizers.length === 0 && th.lockOwnerName === undefined && !this.inOwnable;
    if (dump === null || this.section !== 'threads' || !fresh || !this.bodies.worthTrying()) return bodyStart;
    const end = chunk.indexOf('\n"', bodyStart - 1);
    if (end < bodyStart || end - bodyStart > MAX_BODY_CHARS) return bodyStart;
    const text = chunk.slice(bodyStart, end + 1);
    const known = this.bodies.get(text);
    if (known !== undefined) {
      this.applyBody(th, dump, known);
      return end + 1;
    }
    const before = { line: this.lineNo, unparsed: dump.unparsedCount, outside: this.outsideLines, dumps: this.dumps.length };
    this.lastStateLine = undefined;
    let p = bodyStart;
    while (p <= end) p = this.pushLineAt(chunk, p, chunk.indexOf('\n', p));
    const clean =
      this.thread === th &&
      this.dump === dump &&
      this.section === 'threads' &&
      dump.unparsedCount === before.unparsed &&
      this.outsideLines === before.outside &&
      this.dumps.length === before.dumps;
    if (clean) {
      this.mountFirst(th);
      th.frames = this.stacks.intern(th.frames);
      this.stackInterned = th;
      this.bodies.add(text, {
        lines: this.lineNo - before.line,
        endOffset: th.endLine - th.line,
        frames: th.frames,
        locks: th.locks,
        ownableSynchronizers: th.ownableSynchronizers,
        stateLine: this.lastStateLine,
        lockOwnerName: th.lockOwnerName,
        stackTruncated: th.stackTruncated,
        carriedVirtualThread: th.carriedVirtualThread,
        inOwnable: this.inOwnable,
        lastText: detach(this.previousText),
      });
      this.sharedBodyThread = th;
    }
    return end + 1;
  }

  private applyBody(th: ThreadEntry, dump: ThreadDump, body: ThreadBody): void {
    // Now held by two threads at least; marking again is a lookup.
    markSharedStack(body.frames);
    th.frames = body.frames;
    th.locks = body.locks;
    th.ownableSynchronizers = body.ownableSynchronizers;
    const stateLine = body.stateLine;
    if (stateLine !== undefined) {
      th.state = stateLine.state;
      if (stateLine.detail !== undefined) th.stateDetail = stateLine.detail;
    }
    if (body.lockOwnerName !== undefined) th.lockOwnerName = body.lockOwnerName;
    if (body.stackTruncated) th.stackTruncated = true;
    if (body.carriedVirtualThread !== undefined) th.carriedVirtualThread = body.carriedVirtualThread;
    if (body.endOffset > 0) {
      th.endLine = th.line + body.endOffset;
      dump.endLine = th.endLine;
      this.previousText = body.lastText;
      this.previousLine = th.endLine;
    }
    this.lineNo += body.lines;
    this.inOwnable = body.inOwnable;
    this.lastFrameLine = undefined;
    this.sharedBodyThread = th;
    this.stackInterned = th;
  }

  /** Feeds one line (without its `\n`). */
  override push(rawLine: string): void {
    // Hot path: a frame line of the current thread whose text was seen before (pools repeat stacks).
    const th0 = this.thread;
    if (th0 !== null && rawLine.charCodeAt(0) === 9 && rawLine.charCodeAt(1) === 97 /* \ta */ && this.section === 'threads') {
      const known = this.rawFrameLines.get(rawLine);
      if (known !== undefined) {
        this.lineNo++;
        return this.takeFrameLine(th0, known);
      }
    }
    const previousFrameLine = this.lastFrameLine;
    this.lastFrameLine = undefined;
    super.push(rawLine);
    if (previousFrameLine !== undefined && this.lastFrameLine !== undefined) previousFrameLine.next = this.lastFrameLine;
    // A lock line (`\t- locked <0x..>`) sits between two frame lines: the frame before it still predicts the one after.
    else if (this.lastFrameLine === undefined && th0 !== null && this.thread === th0 && this.section === 'threads' && isLockLine(rawLine)) {
      this.lastFrameLine = previousFrameLine;
    }
  }

  /** Remembers the raw line, so the next identical line skips trimming and parsing (see push). */
  protected override frameRead(rawLine: string, frame: StackFrame): void {
    if (rawLine.charCodeAt(0) === 9) this.lastFrameLine = this.rawFrameLines.add(rawLine, frame);
  }

  private takeFrameLine(th: ThreadEntry, frameLine: RawFrameLine): void {
    const previous = this.lastFrameLine;
    if (previous !== undefined) previous.next = frameLine;
    this.lastFrameLine = frameLine;
    this.takeFrame(th, frameLine.frame);
  }
}

/** A raw `\t- ...` line (a tab, then 45, a dash): a lock line of a HotSpot stack. */
function isLockLine(rawLine: string): boolean {
  return rawLine.charCodeAt(0) === 9 && rawLine.charCodeAt(1) === 45;
}
