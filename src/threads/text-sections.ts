/**
 * The line-oriented thread-dump parser for every text format except IBM javacores, without its
 * speed-ups (TextDumpParser adds them).
 *
 * It is push-based and pure: feed it lines (`push`), then `finish()`. It never throws on odd input:
 * a line it does not understand inside a dump is counted and kept (`unparsed`), and lines between
 * dumps (log lines around kill -3 output) are counted as `outsideLines`.
 */
import { LineCarry, linesCutWarning } from '../model/line-carry.js';
import type {
  DeadlockReportEntry,
  FrameLock,
  JvmDeadlockReport,
  LockRef,
  StackFrame,
  ThreadDump,
  ThreadDumpFile,
  ThreadDumpFormat,
  ThreadEntry,
} from '../model/thread-dump.js';
import { detach, detachAll, FrameInterner, newThreadDump, newThreadEntry, recordUnparsed, StringInterner, threadCountMismatch } from './dump-builder.js';
import { javaStateNamed, parseJrockitLockLine, parseLockLine, parseLockRef } from './frame-text.js';
import { closesDumpsWithJniLine } from './jvm-identity.js';
import { StackInterner } from './stack-interner.js';
import {
  BodyLine,
  bodyLineKind,
  deadlockEntryLine,
  dumpBoundary,
  isDeadlockReportEnd,
  isDeadlockReportStart,
  isDeadlockStacksStart,
  isRepeatedStackLine,
  isTraceEnd,
  isWeblogicWrapper,
  jrockitChainLine,
  parseCarrierLine,
  parseIdeLockWait,
  parseStateLine,
  type SectionMarker,
  sectionMarker,
  smrLine,
} from './text-lines.js';
import type { BodyStateLine } from './thread-bodies.js';
import { isDeadlockEntryLine, parseThreadHeader, stateFromHotspotWords, type ThreadHeader } from './thread-header.js';
import { parseDumpTimestamp } from './timestamps.js';

/**
 * `tail` is the part after `JNI global refs`: HotSpot prints its deadlock report there, and
 * anything else (a heap summary, log lines) is outside the dump.
 */
export type Section = 'threads' | 'smr' | 'deadlock' | 'deadlock-stacks' | 'jrockit-chains' | 'jrockit-preamble' | 'tail';

/** What follows `Full thread dump`, without the spaces around it and the closing colon. */
function bannerText(banner: string): string {
  const text = banner.startsWith('Full thread dump') ? banner.slice('Full thread dump'.length).trim() : banner;
  return text.endsWith(':') ? text.slice(0, -1) : text;
}

// What a new thread starts with, shared until something is added (ownArrays); frozen, so a missed copy fails loudly.
const NO_FRAMES = Object.freeze([]) as unknown as StackFrame[];
const NO_LOCKS = Object.freeze([]) as unknown as FrameLock[];
const NO_SYNCHRONIZERS = Object.freeze([]) as unknown as LockRef[];

const MAX_TEXTS_TO_KEEP = 4096;

/**
 * The section state machine: lines in, in order, each classified (text-lines.ts) and applied to the
 * dump, thread or report being read; the ThreadDumpFile out. Correct on its own: TextDumpParser
 * adds the speed-ups, which must give the same file (test/threads/text-sections.test.ts).
 *
 * What a speed-up may use is protected, nothing else: where the machine is (thread, section, dump,
 * lineNo), takeFrame and startThread to apply what it read faster, frameRead to hear of each frame
 * line parsed, and the shared-array bookkeeping (sharedBodyThread, stackInterned) a replayed body needs.
 */
export class ThreadDumpSections {
  private readonly source: string;
  protected readonly dumps: ThreadDump[] = [];
  private readonly frames = new FrameInterner();
  private readonly sharedTexts = new StringInterner();
  protected readonly stacks = new StackInterner();
  /** The current thread, when its frames array is already the shared one (StackInterner). */
  protected stackInterned: ThreadEntry | null = null;
  /** JDK 25 prints a carrier's frames, then `Mounted virtual thread #N` and the virtual thread's: where those begin. */
  private mountedAt: number | undefined;
  /**
   * The current thread, when its arrays are shared (copy before adding): with a ThreadBodies record,
   * or the empty ones every thread starts with (most threads then get a record's arrays).
   */
  protected sharedBodyThread: ThreadEntry | null = null;
  /** The last state line read (a state line without its detail keeps the one before), as ThreadBodies records it. */
  protected lastStateLine: BodyStateLine | undefined;
  /** The start of a line whose end is in the next chunk. */
  protected readonly carry = new LineCarry();
  /** Threads whose name and address are still slices of the text they were read from (see keepTexts), at most MAX_TEXTS_TO_KEEP. */
  private readonly textsToKeep: ThreadEntry[] = [];
  private readonly warnings: string[] = [];
  /** The first line of an IBM javacore among the lines outside the dumps, or 0. */
  private javacoreLine = 0;
  /** Header figures (cpu=, elapsed=) that could not be read as numbers: how many, and the first line. */
  private unreadableFigures = 0;
  private firstUnreadableFigure = '';
  private unreadableFigure(line: number, field: string): void {
    if (this.unreadableFigures++ === 0) this.firstUnreadableFigure = `line ${line}, ${field}`;
  }
  protected lineNo = 0;
  protected outsideLines = 0;
  protected dump: ThreadDump | null = null;
  protected thread: ThreadEntry | null = null;
  protected section: Section = 'threads';
  protected inOwnable = false;
  private deadlockEntry: { thread: string; waitingFor: string; heldBy: string } | null = null;
  private deadlockReport: JvmDeadlockReport | null = null;
  private jrockitPreambleLeft = 0;
  protected rawLine = '';
  /** The last non-blank line (a dump's timestamp precedes its banner) and its number. */
  protected previousText = '';
  protected previousLine = 0;
  /** The last bare timestamp line seen between dumps. */
  private outsideTimestamp: string | undefined;
  /** Number of the last line recorded as unparsed. */
  private lastUnparsedLine = 0;
  /** Number of the last line counted as outside any dump. */
  private lastOutsideLine = 0;

  /**
   * `onOtherLine` sees every line that is not part of a thread dump (the log around kill -3 output,
   * and stray lines a logger wrote into a dump), so known log events there are not lost.
   */
  constructor(
    source: string,
    private readonly onOtherLine?: (text: string, lineNo: number) => void,
  ) {
    this.source = source;
  }

  /**
   * Completes the line the previous chunk left open: the offset where this chunk's own lines start,
   * or -1 when the whole chunk is still inside that line.
   */
  protected finishCarriedLine(chunk: string): number {
    if (this.carry.isEmpty) return 0;
    const nl = chunk.indexOf('\n');
    if (nl < 0) {
      this.carry.add(chunk);
      return -1;
    }
    this.push(this.carry.close(chunk.slice(0, nl)));
    return nl + 1;
  }

  /** Feeds a chunk of decoded text (lines may span chunks), line by line. */
  pushText(chunk: string): void {
    let start = this.finishCarriedLine(chunk);
    if (start < 0) return;
    for (let nl = chunk.indexOf('\n', start); nl >= 0; nl = chunk.indexOf('\n', start)) {
      this.push(chunk.slice(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) this.carry.add(chunk.slice(start));
    this.keepTexts();
  }

  /**
   * Cuts the names and addresses of the threads read since the last call loose from the text they
   * were sliced from, all in one copy (detachAll): a header's fields come from one line, so none
   * holds a newline.
   */
  protected keepTexts(): void {
    const threads = this.textsToKeep;
    if (threads.length === 0) return;
    const texts: string[] = [];
    for (const th of threads) {
      texts.push(th.name);
      if (th.address !== undefined) texts.push(th.address);
    }
    const kept = detachAll(texts);
    let k = 0;
    for (const th of threads) {
      // The entry is this parser's own until finish() hands it over.
      (th as { name: string }).name = kept[k++]!;
      if (th.address !== undefined) th.address = kept[k++]!;
    }
    threads.length = 0;
  }

  /**
   * Gives the thread whose arrays are shared (sharedBodyThread) its own copies, before anything is
   * added to them. Callers test `th === this.sharedBodyThread` first: this runs for every body line.
   */
  protected ownArrays(th: ThreadEntry): void {
    this.stackInterned = null;
    // A new literal for the frozen empty ones: slicing a frozen array takes V8's slow path.
    th.frames = th.frames === NO_FRAMES ? [] : th.frames.slice();
    th.locks = th.locks === NO_LOCKS ? [] : th.locks.slice();
    th.ownableSynchronizers = th.ownableSynchronizers === NO_SYNCHRONIZERS ? [] : th.ownableSynchronizers.slice();
    this.sharedBodyThread = null;
  }

  /**
   * A line of the file that is not the dumps' (another stream or container of a prefixed log, see
   * line-prefix.ts): numbered and counted as outside the dumps, never read as part of one.
   */
  skipLine(rawLine: string): void {
    this.lineNo++;
    this.outsideLines++;
    this.onOtherLine?.(rawLine.trim(), this.lineNo);
  }

  /** Feeds one line (without its `\n`). */
  push(rawLine: string): void {
    this.lineNo++;
    this.rawLine = rawLine;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const t = line.trim();
    if (t.length === 0) {
      this.blank();
      return;
    }
    this.handle(line, t);
    this.lineTaken(t);
  }

  /** After a non-blank line: the current dump and thread reach it, and it is the text before the next. */
  protected lineTaken(text: string): void {
    if (this.dump !== null && this.section !== 'tail') this.dump.endLine = this.lineNo;
    if (this.thread !== null) this.thread.endLine = this.lineNo;
    this.previousText = text;
    this.previousLine = this.lineNo;
  }

  /** A frame line of the current thread that a speed-up took whole: what push() would have done with it. */
  protected takeFrame(th: ThreadEntry, frame: StackFrame): void {
    if (th === this.sharedBodyThread) this.ownArrays(th);
    th.frames.push(frame);
    th.endLine = this.lineNo;
    if (this.dump !== null) this.dump.endLine = this.lineNo;
    this.previousText = '';
  }

  private blank(): void {
    if (this.dump === null) {
      this.outsideLines++;
      return;
    }
    this.inOwnable = false;
    if (this.section === 'deadlock' && this.deadlockEntry) this.flushDeadlockEntry();
  }

  private handle(line: string, t: string): void {
    const c0 = t.charCodeAt(0);
    // Most lines are a thread's body: frames, locks, its state. No dump boundary starts with these characters.
    const th0 = this.thread;
    if (th0 !== null && this.section === 'threads' && (c0 === 97 /* a */ || c0 === 45 /* - */ || c0 === 106 /* j */ || c0 === 76) /* L */) {
      if (this.threadBodyLine(th0, t)) return;
    }
    // Dump boundaries first: they may appear in any section.
    switch (dumpBoundary(t, c0)) {
      case 'hotspot-banner':
        return this.openDump('hotspot', t);
      case 'jrockit-banner':
        this.openDump('jrockit', undefined);
        this.section = 'jrockit-preamble';
        this.jrockitPreambleLeft = 2;
        return;
      case 'end-of-dump':
        return this.closeDump();
      case 'underline':
        if (this.dump !== null) return; // underline of a report heading
        break;
      case 'class-histogram':
        // A class histogram (-XX:+PrintClassHistogram) printed after the dump is not part of it.
        if (this.dump !== null) {
          this.closeDump();
          return this.outside(t);
        }
        break;
      default:
        break;
    }

    switch (this.section) {
      case 'smr': {
        const smr = smrLine(t, c0);
        if (smr !== undefined) {
          if (smr.declaredThreads !== undefined && this.dump !== null) {
            this.dump.declaredThreads = { count: smr.declaredThreads, what: 'Java threads', by: 'the SMR thread list (length=)' };
          }
          return;
        }
        this.section = 'threads';
        break;
      }
      case 'deadlock':
      case 'deadlock-stacks':
        if (this.handleDeadlockLine(line, t)) return;
        break;
      case 'jrockit-chains':
        if (this.handleJrockitChainLine(t)) return;
        break;
      case 'jrockit-preamble':
        if (this.dump && this.jrockitPreambleLeft > 0 && c0 !== 34) {
          this.jrockitPreambleLeft--;
          if (this.dump.timestamp === undefined) this.setTimestamp(this.dump, t);
          else this.dump.jvm = detach(t);
          if (this.jrockitPreambleLeft === 0) this.section = 'threads';
          return;
        }
        this.section = 'threads';
        break;
      case 'tail':
        if (!isDeadlockReportStart(t)) {
          this.closeDump();
          if (c0 !== 34) return this.outside(t);
        }
        break;
      default:
        break;
    }

    // WebLogic's wrapper line before each dump of old Sun JVMs.
    if (isWeblogicWrapper(t, c0)) {
      this.closeDump();
      return this.outside(t);
    }
    if (c0 === 34 /* " */) {
      const header = parseThreadHeader(line.trimStart());
      if (header) return this.startThread(header);
    }

    if (this.dump === null) return this.outside(t);

    const marker = sectionMarker(t);
    if (marker !== undefined) return this.openSection(this.dump, marker);

    const th = this.thread;
    if (th !== null && this.threadBodyLine(th, t)) return;
    this.unparsed(t);
  }

  /** A line that ends the thread list and opens another section of the dump. */
  private openSection(dump: ThreadDump, marker: SectionMarker): void {
    this.endThread();
    switch (marker.kind) {
      case 'smr':
        this.section = 'smr';
        return;
      case 'deadlock-report':
        this.section = 'deadlock';
        this.deadlockReport = { line: this.lineNo, entries: [] };
        dump.jvmDeadlocks.push(this.deadlockReport);
        return;
      case 'lock-chains':
        this.section = 'jrockit-chains';
        this.deadlockReport = marker.deadlocked ? { line: this.lineNo, entries: [] } : null;
        return;
      case 'jni-refs':
        this.awaitingJniLine = false;
        if (marker.globalRefs !== undefined) dump.jniGlobalRefs = marker.globalRefs;
        if (marker.weakRefs !== undefined) dump.jniWeakRefs = marker.weakRefs;
        dump.endLine = this.lineNo;
        this.section = 'tail';
        return;
    }
  }

  /** Told of each frame line parsed, with its raw text: a speed-up may remember it. */
  protected frameRead(_rawLine: string, _frame: StackFrame): void {}

  /** Returns false when the line is not part of a thread body. */
  private threadBodyLine(th: ThreadEntry, t: string): boolean {
    if (th === this.sharedBodyThread) this.ownArrays(th);
    switch (bodyLineKind(t)) {
      case BodyLine.FRAME: {
        const frame = this.frames.intern(t.slice(3));
        this.frameRead(this.rawLine, frame);
        th.frames.push(frame);
        return true;
      }
      case BodyLine.DOUBLE_DASH: {
        const jr = parseJrockitLockLine(t);
        if (jr) {
          if (jr.kind) this.addLock(th, jr.kind, jr.lock, true);
          return true;
        }
        return isTraceEnd(t);
      }
      case BodyLine.LOCK: {
        const body = t.slice(1).trimStart();
        if (this.inOwnable) {
          if (body === 'None') return true;
          const lock = parseLockRef(body);
          if (lock) th.ownableSynchronizers.push(this.keepLock(lock));
          return true;
        }
        const parsed = parseLockLine(body);
        if (parsed) {
          this.addLock(th, parsed.kind, parsed.lock, false);
          if (parsed.ownerName !== undefined && th.lockOwnerName === undefined) th.lockOwnerName = parsed.ownerName;
          return true;
        }
        return false;
      }
      case BodyLine.CARET_LOCK: {
        const jr = parseJrockitLockLine(t);
        if (jr) {
          if (jr.kind) this.addLock(th, jr.kind, jr.lock, false);
          return true;
        }
        return false;
      }
      case BodyLine.STATE: {
        const line = parseStateLine(t);
        const state = line !== undefined ? javaStateNamed(line.word) : undefined;
        if (line !== undefined && state !== undefined) {
          if (this.dump !== null && this.evidencedDump !== this.dump) this.markEvidence(this.dump);
          th.state = state;
          const detail = line.detail !== undefined ? this.sharedTexts.intern(line.detail) : this.lastStateLine?.detail;
          if (line.detail !== undefined) th.stateDetail = detail;
          this.lastStateLine = { state, detail };
        }
        return true;
      }
      case BodyLine.OWNABLE_HEADER:
        this.inOwnable = true;
        return true;
      case BodyLine.ANGLE_REF: {
        if (!this.inOwnable) return false;
        const lock = parseLockRef(t);
        if (lock) th.ownableSynchronizers.push(this.keepLock(lock));
        return true;
      }
      case BodyLine.ELLIPSIS:
        th.stackTruncated = true;
        return true;
      case BodyLine.CARRIER: {
        // JDK 21 prints `Carrying virtual thread #N` over one stack, the virtual thread's frames on top;
        // JDK 25 prints `Carrying ...`, the carrier's frames, then `Mounted virtual thread #N` and the
        // virtual thread's frames, which are put back on top (mountFirst) so both read the same.
        const carried = parseCarrierLine(t)!;
        th.carriedVirtualThread = carried.virtualThread;
        if (carried.mounted && th.frames.length > 0) this.mountedAt = th.frames.length;
        return true;
      }
      case BodyLine.COMPILER_TASK:
        return true;
      case BodyLine.IDE_LOCK_NOTE: {
        // The owner's `blocks X` says nothing its waiter's line does not.
        const wait = parseIdeLockWait(t);
        if (wait === undefined) return true;
        const lock = parseLockRef(wait.lock);
        if (lock === null) return false;
        // Printed above the first frame: the wait belongs to the top frame.
        th.locks.push({ frameIndex: 0, kind: 'waiting-to-lock', lock: this.keepLock(lock) });
        th.lockOwnerName ??= wait.owner;
        return true;
      }
      default:
        return false;
    }
  }

  private addLock(th: ThreadEntry, kind: FrameLock['kind'], lock: FrameLock['lock'], beforeFrame: boolean): void {
    // JRockit and the JMX legacy format print blocking annotations before the first frame.
    const frameIndex = beforeFrame ? th.frames.length : Math.max(0, th.frames.length - 1);
    th.locks.push({ frameIndex, kind, lock: lock === null ? null : this.keepLock(lock) });
  }

  private handleDeadlockLine(line: string, t: string): boolean {
    const report = this.deadlockReport;
    if (isDeadlockReportEnd(t)) {
      this.flushDeadlockEntry();
      this.section = this.dump?.jniGlobalRefs !== undefined ? 'tail' : 'threads';
      this.deadlockReport = null;
      if (this.dump) this.dump.endLine = this.lineNo;
      return true;
    }
    if (isDeadlockStacksStart(t)) {
      this.flushDeadlockEntry();
      this.section = 'deadlock-stacks';
      return true;
    }
    if (this.section === 'deadlock-stacks') {
      if (isDeadlockReportStart(t)) {
        this.section = 'deadlock';
        this.deadlockReport = { line: this.lineNo, entries: [] };
        this.dump?.jvmDeadlocks.push(this.deadlockReport);
        return true;
      }
      // The repeated stacks of the deadlocked threads: already parsed in the thread list.
      if (isDeadlockEntryLine(line.trimStart()) || isRepeatedStackLine(t)) return true;
      if (t.startsWith('JNI global ref')) {
        this.section = 'threads';
        return false;
      }
      return true;
    }
    if (isDeadlockEntryLine(line.trimStart())) {
      this.flushDeadlockEntry();
      this.deadlockEntry = { thread: t.slice(1, -2), waitingFor: '', heldBy: '' };
      return true;
    }
    const entry = this.deadlockEntry;
    if (entry) {
      const what = deadlockEntryLine(t);
      if (what?.kind === 'held-by') {
        entry.heldBy = what.thread;
        return true;
      }
      if (what?.kind === 'waiting') {
        entry.waitingFor = what.text;
        return true;
      }
    }
    if (report !== null) {
      // Unknown text inside the report (JDK variants): keep it as unparsed but stay in the section.
      this.unparsed(t);
      return true;
    }
    return false;
  }

  private flushDeadlockEntry(): void {
    const e = this.deadlockEntry;
    if (e && this.deadlockReport) this.deadlockReport.entries.push(e as DeadlockReportEntry);
    this.deadlockEntry = null;
  }

  private handleJrockitChainLine(t: string): boolean {
    const chain = jrockitChainLine(t);
    switch (chain?.kind) {
      case 'chain':
        return true;
      case 'waiting':
        this.deadlockReport?.entries.push({ thread: chain.thread, waitingFor: chain.waitingFor, heldBy: '' });
        return true;
      case 'quoted': {
        // The last line of a chain repeats its first thread.
        const entries = this.deadlockReport?.entries;
        if (entries && entries.length > 0) this.closeJrockitChain(chain.thread);
        return true;
      }
      case 'open-quote':
        return false;
      default:
        this.section = 'threads';
        return false;
    }
  }

  private closeJrockitChain(closingThread: string): void {
    const report = this.deadlockReport;
    if (!report || !this.dump) return;
    const entries = report.entries;
    // Each entry waits for a lock held by the next one; the last by the closing thread.
    const linked: DeadlockReportEntry[] = entries.map((e, i) => ({
      thread: e.thread,
      waitingFor: e.waitingFor,
      heldBy: i + 1 < entries.length ? entries[i + 1]!.thread : closingThread,
    }));
    this.dump.jvmDeadlocks.push({ line: report.line, entries: linked });
    this.deadlockReport = { line: this.lineNo + 1, entries: [] };
  }

  protected startThread(h: ThreadHeader): void {
    if (this.section !== 'threads') this.section = 'threads';
    if (this.dump === null) this.openDump(h.format, undefined, true);
    const dump = this.dump!;
    if (this.evidencedDump !== dump && (h.javaId !== undefined || h.nativeId !== undefined)) this.markEvidence(dump);
    if (dump.threads.length === 0 && dump.format === 'hotspot' && h.format !== 'hotspot') dump.format = h.format;
    this.endThread();
    const th = this.entryFromHeader(h);
    if (h.lock) {
      // ThreadInfo/JMX name the blocking lock in the header; it belongs to the top frame.
      const kind = h.state === 'BLOCKED' ? 'blocked-on' : 'waiting-on';
      if (th === this.sharedBodyThread) this.ownArrays(th);
      th.locks.push({ frameIndex: 0, kind, lock: this.keepLock(h.lock) });
    }
    this.thread = th;
    this.inOwnable = false;
    dump.threads.push(th);
  }

  /**
   * The entry for a header, field by field (header parsers set only the fields the line has). The
   * strings a thread keeps for the whole run are cut loose from the chunk they were sliced from (see
   * detach); the ones that repeat across threads are shared.
   */
  private entryFromHeader(h: ThreadHeader): ThreadEntry {
    // The name and address stay slices of the chunk until the chunk is done (keepTexts).
    const th = newThreadEntry(h.name, this.lineNo, NO_FRAMES, NO_LOCKS, NO_SYNCHRONIZERS);
    this.sharedBodyThread = th;
    th.daemon = h.daemon;
    th.virtual = h.virtual;
    // A header cut short (`"main" prio=5 Id`) can leave the state unset: it stays UNKNOWN.
    if (h.state !== undefined) th.state = h.state;
    if (h.javaId !== undefined) th.javaId = detach(h.javaId);
    if (h.nativeId !== undefined) th.nativeId = detach(h.nativeId);
    if (h.address !== undefined) th.address = h.address;
    if (h.priority !== undefined) th.priority = h.priority;
    // A figure that cannot be read as a number is left unset and counted, never read as zero.
    if (h.cpuMs !== undefined) {
      if (Number.isNaN(h.cpuMs)) this.unreadableFigure(th.line, 'cpu=');
      else th.cpuMs = h.cpuMs;
    }
    if (h.elapsedS !== undefined) {
      if (Number.isNaN(h.elapsedS)) this.unreadableFigure(th.line, 'elapsed=');
      else th.elapsedS = h.elapsedS;
    }
    if (h.headerState !== undefined) th.headerState = this.sharedTexts.intern(h.headerState);
    if (h.stateDetail !== undefined) th.stateDetail = this.sharedTexts.intern(h.stateDetail);
    if (h.lockOwnerName !== undefined) th.lockOwnerName = detach(h.lockOwnerName);
    if (h.lockOwnerId !== undefined) th.lockOwnerId = detach(h.lockOwnerId);
    // Once every field is set. Fed line by line (push), no chunk end comes: kept every few thousand
    // threads, so the text held stays bounded.
    if (this.textsToKeep.push(th) >= MAX_TEXTS_TO_KEEP) this.keepTexts();
    return th;
  }

  private keepLock(lock: LockRef): LockRef {
    return { id: detach(lock.id), className: this.sharedTexts.intern(lock.className) };
  }

  /** A JDK 25 carrier's stack as JDK 21 prints it: the mounted virtual thread's frames first, then the carrier's. */
  protected mountFirst(th: ThreadEntry): void {
    const k = this.mountedAt;
    this.mountedAt = undefined;
    if (k === undefined || k >= th.frames.length) return;
    const mounted = th.frames.length - k;
    th.frames = [...th.frames.slice(k), ...th.frames.slice(0, k)];
    th.locks = th.locks.map((l) => ({ ...l, frameIndex: l.frameIndex >= k ? l.frameIndex - k : l.frameIndex + mounted }));
  }

  private endThread(): void {
    const th = this.thread;
    if (th === null) return;
    // Its stack is complete: threads with the same frames share one array from here on.
    if (th !== this.stackInterned) {
      this.mountFirst(th);
      th.frames = this.stacks.intern(th.frames);
    }
    this.stackInterned = null;
    if (th.state === 'UNKNOWN' && th.headerState) th.state = stateFromHotspotWords(th.headerState) ?? 'UNKNOWN';
    this.thread = null;
    this.inOwnable = false;
  }

  private openDump(format: ThreadDumpFormat, banner: string | undefined, implicit = false): void {
    this.closeDump();
    const dump = newThreadDump(this.source, this.dumps.length, format, this.lineNo);
    if (!implicit) this.markEvidence(dump);
    if (banner !== undefined) {
      // `Full thread dump <jvm>:` taken apart in code: as a regex, a long run of spaces backtracked quadratically.
      const text = bannerText(banner);
      // HP-UX puts the date in the banner: `Full thread dump [Tue Mar 15 14:48:56 KST 2008] (Java HotSpot ...`.
      const bracket = /^\[([^\]]*)\]/.exec(text);
      if (bracket) {
        this.setTimestamp(dump, bracket[1]!);
        dump.jvm = detach(
          text
            .slice(bracket[0].length)
            .trimStart()
            .replace(/^\(|\)$/g, ''),
        );
      } else if (text.length > 0) {
        dump.jvm = detach(text);
      }
    }
    if (dump.timestamp === undefined && !implicit && parseDumpTimestamp(this.previousText) !== undefined) {
      // The line right before a banner, even when an unclosed dump took it for one of its own.
      this.setTimestamp(dump, this.previousText);
      if (this.previousLine === this.lastUnparsedLine) this.uncountPreviousUnparsed();
      // jstack's first line, the time, belongs to the dump it dates, not to the text around dumps.
      else if (this.previousLine === this.lastOutsideLine) this.outsideLines--;
    } else if (dump.timestamp === undefined && implicit && this.outsideTimestamp !== undefined) {
      this.setTimestamp(dump, this.outsideTimestamp);
    }
    this.outsideTimestamp = undefined;
    this.dump = dump;
    this.section = 'threads';
    this.dumps.push(dump);
    this.awaitingJniLine = format === 'hotspot' && dump.jvm !== undefined && closesDumpsWithJniLine(dump.jvm);
  }

  private uncountPreviousUnparsed(): void {
    // The timestamp line was first taken as an unknown line of the previous, unclosed dump.
    const prevDump = this.dumps[this.dumps.length - 1];
    if (prevDump && prevDump.unparsedCount > 0) {
      prevDump.unparsedCount--;
      prevDump.unparsed.pop();
      prevDump.endLine = Math.max(prevDump.startLine, prevDump.endLine - 1);
    }
  }

  private setTimestamp(dump: ThreadDump, text: string): void {
    dump.timestamp = detach(text);
    const iso = parseDumpTimestamp(text);
    if (iso !== undefined) dump.timestampIso = iso;
  }

  /**
   * Whether the open dump began with HotSpot's banner and has not yet printed its closing `JNI global
   * refs` line: HotSpot prints that line after every thread, the JVM's own last, so a dump that stops
   * before it was cut, most often among those threads, where no thread count (SMR) notices.
   */
  private awaitingJniLine = false;
  /** Dumps cut before their closing line: the line where each starts and where it ends. */
  private readonly cutDumps: ThreadDump[] = [];

  private closeDump(): void {
    // A dump whose threads are in another format (Spring Boot's text, under a HotSpot banner) has no such line.
    if (this.awaitingJniLine && this.dump !== null && this.dump.format === 'hotspot' && this.dump.threads.length > 0) this.cutDumps.push(this.dump);
    this.awaitingJniLine = false;
    this.endThread();
    this.flushDeadlockEntry();
    this.dump = null;
    this.section = 'threads';
    this.deadlockReport = null;
  }

  /** A line between dumps; a bare timestamp among them dates the next dump that has no banner. */
  private outside(t: string): void {
    this.outsideLines++;
    this.lastOutsideLine = this.lineNo;
    // An IBM javacore pasted after (or before) a HotSpot dump: its sections are other lines here, so it is said, not dropped.
    if (this.javacoreLine === 0 && t.startsWith('0SECTION ')) this.javacoreLine = this.lineNo;
    this.onOtherLine?.(t, this.lineNo);
    if (parseDumpTimestamp(t) !== undefined) this.outsideTimestamp = t;
  }

  private unparsed(t: string): void {
    const dump = this.dump;
    if (dump === null) return this.outside(t);
    recordUnparsed(dump, this.lineNo, t);
    this.onOtherLine?.(t, this.lineNo);
    this.lastUnparsedLine = this.lineNo;
  }

  /**
   * Dumps that only a quoted line made (`"AS IS" BASIS, WITHOUT WARRANTIES` in a licence header, a
   * quoted word in a script): no banner, no thread with an id, a state line or a stack frame. They
   * are text, not dumps; when real dumps remain, a warning says where they were.
   */
  private dropDumpsWithoutEvidence(): void {
    for (let i = this.dumps.length - 1; i >= 0; i--) {
      const d = this.dumps[i]!;
      if (this.evidenced.has(d) || d.threads.some((t) => t.frames.length > 0)) continue;
      this.dumps.splice(i, 1);
      this.outsideLines += d.endLine - d.startLine + 1;
      this.dropped.push(d);
    }
    if (this.dumps.length === 0) return;
    for (const d of this.dropped.reverse()) {
      const name = d.threads[0]?.name ?? '';
      const shown = name.length > 40 ? `${name.slice(0, 37)}...` : name;
      this.warnings.push(
        `line ${d.startLine}: "${shown}" looks like a thread header, but nothing around it ` +
          'is a thread dump (no banner, thread id, state line or stack frame); read as text',
      );
    }
    this.dumps.forEach((d, i) => (d.index = i));
  }

  /** Dumps with real signs of being one: a banner, a thread id, a `java.lang.Thread.State:` line. */
  private readonly evidenced = new Set<ThreadDump>();
  /** The last dump marked, so a thread of an evidenced dump costs one comparison. */
  private evidencedDump: ThreadDump | null = null;
  private markEvidence(dump: ThreadDump): void {
    this.evidenced.add(dump);
    this.evidencedDump = dump;
  }
  private readonly dropped: ThreadDump[] = [];

  finish(): ThreadDumpFile {
    if (!this.carry.isEmpty) this.push(this.carry.close());
    if (this.carry.cut > 0) this.warnings.push(linesCutWarning(this.carry.cut));
    this.keepTexts();
    this.closeDump();
    this.dropDumpsWithoutEvidence();
    // A banner with no thread after it (hand-trimmed files) is noted, not reported as a dump,
    // unless it is all the file holds.
    if (this.dumps.some((d) => d.threads.length > 0)) {
      for (let i = this.dumps.length - 1; i >= 0; i--) {
        const d = this.dumps[i]!;
        if (d.threads.length === 0 && d.jvmDeadlocks.length === 0) {
          this.warnings.push(`line ${d.startLine}: a dump header with no threads after it was ignored`);
          this.outsideLines += d.endLine - d.startLine + 1;
          this.dumps.splice(i, 1);
        }
      }
      this.dumps.forEach((d, i) => (d.index = i));
    }
    for (const d of this.dumps) {
      // HotSpot's SMR list holds JavaThreads: the ones printed with a `#id`; VM and GC threads are not in it.
      const mismatch = threadCountMismatch(d, (t) => t.javaId !== undefined && !t.virtual);
      if (mismatch !== undefined) this.warnings.push(mismatch);
    }
    for (const d of this.cutDumps) {
      if (d.index < 0 || this.dumps[d.index] !== d) continue;
      const last = d.threads[d.threads.length - 1]!;
      const among = last.javaId === undefined ? ", among the JVM's own threads," : '';
      this.warnings.push(
        `line ${d.startLine}: the dump stops at line ${d.endLine}${among} without the "JNI global refs" line HotSpot closes every dump with: ` +
          'it was cut, and the threads after that point are missing',
      );
    }
    if (this.javacoreLine > 0 && this.dumps.length > 0)
      this.warnings.push(
        `line ${this.javacoreLine}: the file also holds an IBM javacore, which was not read with the HotSpot dumps; ` +
          'cut it out and give it as a file of its own',
      );
    if (this.unreadableFigures > 0)
      this.warnings.push(
        `${this.unreadableFigures} cpu=/elapsed= figures of thread headers could not be read as numbers ` +
          `(first at ${this.firstUnreadableFigure}); those threads have no CPU time`,
      );
    return {
      source: this.source,
      dumps: this.dumps,
      outsideLines: this.outsideLines,
      totalLines: this.lineNo,
      warnings: this.warnings,
    };
  }
}
