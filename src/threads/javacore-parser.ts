/**
 * IBM / OpenJ9 javacore parser (J9 2.4 through Semeru 21, and the old Classic VM 1.3/1.4 layout).
 * Javacores are tagged line by line (`3XMTHREADINFO`, `4XESTACKTRACE`, ...): only the tags that
 * matter for threads and monitors are read, every other tagged line is understood as "not ours".
 */
import type { JavaThreadState, JvmDeadlockReport, LockRef, ThreadDump, ThreadDumpFile, ThreadEntry } from '../model/thread-dump.js';
import { FrameInterner, newThreadDump, newThreadEntry, recordUnparsed, threadCountMismatch } from './dump-builder.js';
import { parseLockRef } from './frame-text.js';
import { toHex } from './thread-header.js';

/** J9 thread state codes. */
const J9_STATES: Record<string, { state: JavaThreadState; detail?: string }> = {
  R: { state: 'RUNNABLE' },
  CW: { state: 'WAITING', detail: 'on condition' },
  B: { state: 'BLOCKED', detail: 'on object monitor' },
  MW: { state: 'WAITING', detail: 'on object monitor' },
  P: { state: 'WAITING', detail: 'parking' },
  S: { state: 'WAITING', detail: 'suspended' },
  Z: { state: 'TERMINATED' },
};

interface MonitorRecord {
  lock: LockRef;
  owner?: string;
  enterWaiters: string[];
  notifyWaiters: string[];
}

export class JavacoreParser {
  private readonly source: string;
  private readonly dumps: ThreadDump[] = [];
  private readonly frames = new FrameInterner();
  private lineNo = 0;
  private outsideLines = 0;
  /** The first `Full thread dump` line of a HotSpot dump in the same file, or 0. */
  private hotspotLine = 0;
  private dump: ThreadDump | null = null;
  private thread: ThreadEntry | null = null;
  private monitors: MonitorRecord[] = [];
  private monitor: MonitorRecord | null = null;
  private monitorQueue: 'enter' | 'notify' | null = null;
  private deadlockThreads: string[] = [];
  private pendingTimestamp: string | undefined;
  private inCurrentThreadSection = false;
  /** The thread of the "Current thread" section, read there, until the list shows whether it has it too. */
  private currentThread: ThreadEntry | undefined;

  constructor(source: string) {
    this.source = source;
  }

  push(rawLine: string): void {
    this.lineNo++;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const t = line.trim();
    if (t.length === 0) {
      if (this.dump === null) this.outsideLines++;
      return;
    }
    const sp = t.search(/\s/);
    const tag = sp < 0 ? t : t.slice(0, sp);
    const body = sp < 0 ? '' : t.slice(sp).trim();
    if (!/^(?:[0-9][A-Z0-9]+|NULL)$/.test(tag)) {
      this.unparsed(t);
      return;
    }
    if (tag === '0SECTION' && body.startsWith('TITLE')) {
      if (this.dump === null || this.dump.threads.length > 0) this.openDump();
      return;
    }
    if (tag === '1TISIGINFO' && this.dump !== null && this.dump.threads.length > 0) this.openDump();
    if (this.dump === null) this.openDump();
    const dump = this.dump!;
    dump.endLine = this.lineNo;
    // The thread that asked for the dump, under "Current thread": J9 2.4 prints it again in the
    // thread list, OpenJ9 only there. It is read, and kept when the list does not have it (closeDump).
    if (tag === '1XMCURTHDINFO') {
      this.inCurrentThreadSection = true;
      this.thread = null;
      return;
    }
    if (tag.startsWith('1')) this.inCurrentThreadSection = false;
    switch (tag) {
      case '1TIDATETIME': {
        const m = /Date:\s*(\d{4})\/(\d{2})\/(\d{2}) at (\d{2}):(\d{2}):(\d{2})(?::(\d{1,3}))?/.exec(body);
        dump.timestamp = body.replace(/^Date:\s*/, '');
        if (m) dump.timestampIso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ? '.' + m[7].padStart(3, '0') : ''}`;
        return;
      }
      case '1TISIGINFO': {
        // `Dump Event "systhrow" (00040000) Detail "java/lang/OutOfMemoryError" "Java heap space" received`
        const m = /Dump Event "([^"]*)"\s*(?:\([^)]*\)\s*)?(?:Detail\s+((?:"[^"]*"\s*)+))?/.exec(body);
        if (m) {
          const detail = m[2]?.trim();
          dump.trigger = { event: m[1]!, ...(detail ? { detail } : {}), line: this.lineNo };
        }
        return;
      }
      case '1STHEAPTOTAL':
      case '1STHEAPINUSE': {
        const bytes = /:\s*(\d+)/.exec(body);
        if (!bytes) return;
        const figures = (dump.heapFigures ??= { line: this.lineNo });
        if (tag === '1STHEAPTOTAL') figures.totalBytes = Number(bytes[1]);
        else figures.inUseBytes = Number(bytes[1]);
        return;
      }
      case '1CIJAVAVERSION':
        dump.jvm = body;
        return;
      case '2XMFULLTHDDUMP':
        if (dump.jvm === undefined) dump.jvm = body.replace(/^Full thread dump\s*/, '').replace(/:$/, '');
        return;
      case '2XMPOOLLIVE': {
        const m = /live threads:\s*(\d+)/.exec(body);
        if (m) dump.declaredThreads = { count: Number(m[1]), what: 'Java threads', by: 'the javacore (2XMPOOLLIVE)' };
        return;
      }
      case '3XMTHREADINFO':
        return this.startThread(body);
      case '3XMJAVALTHREAD': {
        const th = this.thread;
        if (!th) return;
        const id = /getId:(0x[0-9A-Fa-f]+|\d+)/.exec(body);
        if (id) th.javaId = String(Number(id[1]));
        if (/isDaemon:true/.test(body)) th.daemon = true;
        return;
      }
      case '3XMTHREADINFO1': {
        const th = this.thread;
        const nid = /native thread ID:(0x[0-9A-Fa-f]+|\d+)/.exec(body);
        if (th && nid && th.nativeId === undefined) th.nativeId = toHex(nid[1]!);
        return;
      }
      case '3XMCPUTIME': {
        const th = this.thread;
        const cpu = /CPU usage total: ([\d.]+) secs/.exec(body);
        if (th && cpu) th.cpuMs = Number(cpu[1]) * 1000;
        return;
      }
      case '3XMTHREADBLOCK':
        return this.threadBlock(body);
      case '4XESTACKTRACE': {
        const th = this.thread;
        if (!th) return;
        th.frames.push(this.frames.intern(body.replace(/^at\s+/, '')));
        return;
      }
      case '5XESTACKTRACE': {
        const th = this.thread;
        const m = /entered lock: (\S+?),/.exec(body);
        if (th && m) {
          const lock = parseLockRef(m[1]!);
          th.locks.push({ frameIndex: Math.max(0, th.frames.length - 1), kind: 'locked', lock });
        }
        return;
      }
      case '2LKMONINUSE':
      case '2LKREGMON':
        this.monitor = null;
        this.monitorQueue = null;
        return;
      case '3LKMONOBJECT': {
        const m = /^(\S+?):?\s+(?:owner "(.*)"|<unowned>|Flat locked by "(.*?)")/.exec(body) ?? /^(\S+?):/.exec(body);
        if (!m) return;
        const lock = parseLockRef(m[1]!);
        if (!lock) return;
        const rec: MonitorRecord = { lock, enterWaiters: [], notifyWaiters: [] };
        const owner = m[2] ?? m[3];
        if (owner !== undefined) rec.owner = owner;
        this.monitors.push(rec);
        this.monitor = rec;
        return;
      }
      case '3LKWAITERQ':
        this.monitorQueue = 'enter';
        return;
      case '3LKNOTIFYQ':
        this.monitorQueue = 'notify';
        return;
      case '3LKWAITER':
      case '3LKWAITNOTIFY': {
        const m = /"(.*)"/.exec(body);
        if (!m || !this.monitor) return;
        if (tag === '3LKWAITNOTIFY' || this.monitorQueue === 'notify') this.monitor.notifyWaiters.push(m[1]!);
        else this.monitor.enterWaiters.push(m[1]!);
        return;
      }
      case '2LKDEADLOCKTHR': {
        const m = /Thread "(.*)"/.exec(body);
        if (m) this.deadlockThreads.push(m[1]!);
        return;
      }
      case '1LKDEADLOCK':
        this.flushDeadlock();
        return;
      default:
        if (tag.startsWith('1') && this.deadlockThreads.length > 0) this.flushDeadlock();
        return;
    }
  }

  private startThread(body: string): void {
    const dump = this.dump!;
    // Native threads unknown to Java are listed as `Anonymous native thread`.
    // The name runs from the first quote to the last (names may hold quotes), taken apart in code: as
    // a regular expression it backtracked on a long run of quotes.
    const close = body.startsWith('"') ? body.lastIndexOf('"') : -1;
    const m =
      close > 0
        ? ['', body.slice(1, close), body.slice(close + 1).trimStart()]
        : body.startsWith('Anonymous native thread')
          ? ['', '<anonymous native thread>', body]
          : null;
    if (!m) {
      this.unparsed(body);
      return;
    }
    const rest = m[2]!;
    const stateCode = /state:\s*([A-Z]+|0x[0-9A-Fa-f]+|\d+)/.exec(rest);
    const code = stateCode ? stateCode[1]! : '';
    const mapped = J9_STATES[code];
    const th = newThreadEntry(m[1]!, this.lineNo);
    th.headerState = code;
    if (mapped) th.state = mapped.state;
    if (mapped?.detail !== undefined) th.stateDetail = mapped.detail;
    const prio = /prio=(\d+)/.exec(rest);
    if (prio) th.priority = Number(prio[1]);
    const nid = /native ID:(0x[0-9A-Fa-f]+|\d+)/.exec(rest);
    if (nid) th.nativeId = toHex(nid[1]!);
    const addr = /(?:J9VMThread|TID):(0x[0-9A-Fa-f]+)/.exec(rest);
    if (addr) th.address = addr[1]!.toLowerCase();
    this.thread = th;
    if (this.inCurrentThreadSection) this.currentThread = th;
    else dump.threads.push(th);
  }

  private threadBlock(body: string): void {
    const th = this.thread;
    if (!th) return;
    const head = /^(Waiting on|Blocked on|Parked on|Waiting to enter):/.exec(body);
    if (!head) return;
    // `<lock>` then optionally `Owned by: <owner>`, read in code (linear in the line's length).
    const after = body.slice(head[0].length).trimStart();
    const space = after.search(/\s/);
    const lockText = space < 0 ? after : after.slice(0, space);
    const tail = space < 0 ? '' : after.slice(space).trimStart();
    if (lockText === '') return;
    const m = [head[0], head[1], lockText, tail.startsWith('Owned by:') ? tail.slice('Owned by:'.length).trimStart() : undefined] as const;
    const lock = parseLockRef(m[2]!);
    const kind = m[1] === 'Blocked on' || m[1] === 'Waiting to enter' ? 'blocked-on' : m[1] === 'Parked on' ? 'parking' : 'waiting-on';
    th.locks.push({ frameIndex: 0, kind, lock });
    // The owner's name, between the first quote and the last.
    const ownerText = m[3] ?? '';
    const first = ownerText.indexOf('"');
    const last = ownerText.lastIndexOf('"');
    if (first >= 0 && last > first) th.lockOwnerName = ownerText.slice(first + 1, last);
  }

  private flushDeadlock(): void {
    if (this.deadlockThreads.length === 0 || !this.dump) return;
    const names = this.deadlockThreads;
    // The javacore lists the cycle in order; the last thread waits for the first.
    const unique = names.filter((n, i) => names.indexOf(n) === i);
    const report: JvmDeadlockReport = {
      line: this.lineNo,
      entries: unique.map((n, i) => ({ thread: n, waitingFor: '', heldBy: unique[(i + 1) % unique.length]! })),
    };
    this.dump.jvmDeadlocks.push(report);
    this.deadlockThreads = [];
  }

  private openDump(): void {
    this.closeDump();
    const dump = newThreadDump(this.source, this.dumps.length, 'ibm-javacore', this.lineNo);
    if (this.pendingTimestamp !== undefined) dump.timestamp = this.pendingTimestamp;
    this.dump = dump;
    this.dumps.push(dump);
  }

  private closeDump(): void {
    const dump = this.dump;
    if (dump === null) return;
    const current = this.currentThread;
    if (current !== undefined && !dump.threads.some((t) => sameJ9Thread(t, current))) dump.threads.push(current);
    this.currentThread = undefined;
    this.flushDeadlock();
    this.applyMonitors(dump);
    this.monitors = [];
    this.monitor = null;
    this.thread = null;
    this.dump = null;
  }

  /** Older javacores have no 3XMTHREADBLOCK line: the monitor pool dump says who owns and who waits. */
  private applyMonitors(dump: ThreadDump): void {
    if (this.monitors.length === 0) return;
    const byName = new Map<string, ThreadEntry>();
    for (const th of dump.threads) if (!byName.has(th.name)) byName.set(th.name, th);
    for (const mon of this.monitors) {
      if (mon.owner !== undefined) {
        const owner = byName.get(mon.owner);
        if (owner && !owner.locks.some((l) => l.kind === 'locked' && l.lock?.id === mon.lock.id)) {
          owner.locks.push({ frameIndex: 0, kind: 'locked', lock: mon.lock });
        }
      }
      for (const w of mon.enterWaiters) {
        const th = byName.get(w);
        if (th && !th.locks.some((l) => l.lock?.id === mon.lock.id)) th.locks.push({ frameIndex: 0, kind: 'blocked-on', lock: mon.lock });
        if (th && mon.owner !== undefined && th.lockOwnerName === undefined) th.lockOwnerName = mon.owner;
      }
      for (const w of mon.notifyWaiters) {
        const th = byName.get(w);
        if (th && !th.locks.some((l) => l.lock?.id === mon.lock.id)) th.locks.push({ frameIndex: 0, kind: 'waiting-on', lock: mon.lock });
      }
    }
  }

  private unparsed(t: string): void {
    // A HotSpot dump pasted before or after the javacore: said at the end, not dropped silently.
    if (this.hotspotLine === 0 && t.startsWith('Full thread dump ')) this.hotspotLine = this.lineNo;
    const dump = this.dump;
    if (dump === null) {
      this.outsideLines++;
      return;
    }
    recordUnparsed(dump, this.lineNo, t);
  }

  finish(): ThreadDumpFile {
    this.closeDump();
    // The live-thread count leaves out the JVM's anonymous native threads, which the thread list shows.
    const warnings = this.dumps.map((d) => threadCountMismatch(d, (t) => t.name !== '<anonymous native thread>')).filter((w): w is string => w !== undefined);
    if (this.hotspotLine > 0)
      warnings.push(
        `line ${this.hotspotLine}: the file also holds a HotSpot thread dump, which was not read with the javacore; ` +
          'cut it out and give it as a file of its own',
      );
    return { source: this.source, dumps: this.dumps, outsideLines: this.outsideLines, totalLines: this.lineNo, warnings };
  }
}

/** One thread printed twice (the current thread's section and the list): the same J9VMThread address, else the same name and native id. */
function sameJ9Thread(a: ThreadEntry, b: ThreadEntry): boolean {
  if (a.address !== undefined && b.address !== undefined) return a.address === b.address;
  return a.name === b.name && a.nativeId === b.nativeId;
}
