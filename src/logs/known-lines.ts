/**
 * The few log lines worth reading next to the dumps: Dubbo's own messages when its pool is exhausted,
 * when the `executes` limit rejects a call, and when the `actives` limit times a caller out (their
 * texts are the same from Dubbo 2.5 to 3.3, java-internals.md 1.3 and 1.4); and the hung-thread
 * reports of application servers' own monitors, with the stack they log under them and the line
 * that says a reported thread recovered. Pure: lines in, events out.
 */

/** Characters of a known line kept for quoting: the longest real lines (Dubbo's, with a provider URL) are about 900. */
const MAX_KEPT_LINE = 4000;
import type { LogEventModel } from '../model/model.js';
import { trimEndChar } from '../model/text-scan.js';

interface KnownLine {
  readonly kind: LogEventModel['kind'];
  /** Where the line comes from, for the reader of this table. */
  readonly source?: string;
  readonly pattern: RegExp;
  /**
   * The text a match begins with. The pattern is then sticky and tried only where this text occurs:
   * linear in the line's length, where a pattern tried at every position with lazy groups was not.
   */
  readonly at?: string;
  /** Text the line must also hold (a message code before the part that is matched). */
  readonly requires?: string;
  readonly facts: (m: RegExpExecArray) => Record<string, number | string>;
  readonly subject?: (m: RegExpExecArray) => { service: string; method: string };
  /** The thread the line is about (hung-thread reports and recoveries). */
  readonly thread?: (m: RegExpExecArray) => string;
  /** The `at ...` lines that follow are the thread's stack. */
  readonly stackFollows?: boolean;
}

const millis = (text: string) => Number(text.replace(/[,.\s]/g, ''));
/** WebLogic names a thread `[STUCK] ExecuteThread: '12' for queue: '...'`; the state in brackets changes, the rest is its name. */
const weblogicThread = (m: RegExpExecArray) => `ExecuteThread: '${m[1]}' for queue: '${m[2]}'`;

const serviceOfUrl = (url: string): string => {
  const path = /^[a-z][\w+.-]*:\/\/[^/]*\/([^?]*)/.exec(url)?.[1] ?? url;
  return trimEndChar(path, '/');
};

const KNOWN_LINES: readonly KnownLine[] = [
  {
    kind: 'dubbo-pool-exhausted',
    at: 'Thread pool is EXHAUSTED!',
    pattern: new RegExp(
      /Thread pool is EXHAUSTED! Thread Name: ([^,]*), Pool Size: (\d+) \(active: (\d+), core: (\d+), /y.source +
        /max: (\d+), largest: (\d+)\), Task: (\d+) \(completed: (\d+)\), Executor status:\(isShutdown:(\w+), /y.source +
        /isTerminated:(\w+), isTerminating:(\w+)\), in ([\w.+-]+):\/\/([^:\s]+):(\d+)!/y.source,
      'y',
    ),
    facts: (m) => ({
      threadName: m[1]!,
      poolSize: Number(m[2]),
      active: Number(m[3]),
      core: Number(m[4]),
      max: Number(m[5]),
      largest: Number(m[6]),
      tasks: Number(m[7]),
      completed: Number(m[8]),
      address: `${m[12]}://${m[13]}:${m[14]}`,
    }),
  },
  {
    kind: 'dubbo-executes-rejected',
    pattern: /Failed to invoke method (\S+?) in provider (\S+?), cause: The service using threads greater than <dubbo:service executes="(\d+)" \/> limited\./,
    facts: (m) => ({ method: m[1]!, provider: m[2]!.split('?')[0]!, executes: Number(m[3]) }),
    subject: (m) => ({ service: serviceOfUrl(m[2]!), method: m[1]! }),
  },
  {
    kind: 'dubbo-actives-timeout',
    pattern: new RegExp(
      /Waiting concurrent invoke timeout in client-side for service:\s+(\S+), method: (\S+), /.source +
        /elapsed: (\d+), timeout: (\d+)\. concurrent invokes: (\d+)\. max concurrent invoke limit: (\d+)/.source,
    ),
    facts: (m) => ({ elapsedMs: Number(m[3]), timeoutMs: Number(m[4]), concurrent: Number(m[5]), actives: Number(m[6]) }),
    subject: (m) => ({ service: m[1]!, method: m[2]! }),
  },
];

/** Application servers' hung-thread monitors (docs/thread-activity.md; the texts of their message catalogues). */
const HUNG_THREAD_LINES: readonly KnownLine[] = [
  {
    kind: 'hung-thread-reported',
    source: 'WebSphere traditional ThreadMonitor, WSVR0605W',
    at: 'WSVR0605W:',
    pattern: new RegExp(
      /WSVR0605W: Thread "([^"]+)" \((\w+)\) has been active for (\d+) milliseconds and may /y.source +
        /be hung\.\s+There is\/are (\d+) thread\(s\) in total in the server that may be hung/y.source,
      'y',
    ),
    facts: (m) => ({ server: 'WebSphere', activeMs: Number(m[3]), hungInServer: Number(m[4]), code: 'WSVR0605W' }),
    thread: (m) => m[1]!,
    stackFollows: true,
  },
  {
    kind: 'hung-thread-recovered',
    source: 'WebSphere traditional ThreadMonitor, WSVR0606W',
    at: 'WSVR0606W:',
    pattern:
      /WSVR0606W: Thread "([^"]+)" \((\w+)\) was previously reported to be hung but has completed\.\s+It was active for approximately (\d+) milliseconds/y,
    facts: (m) => ({ server: 'WebSphere', activeMs: Number(m[3]), code: 'WSVR0606W' }),
    thread: (m) => m[1]!,
  },
  {
    kind: 'server-pool-full',
    source: 'WebSphere traditional, WSVR0652W',
    at: 'WSVR0652W:',
    pattern: /WSVR0652W: The size of thread pool "([^"]+)" has reached 100 percent of its maximum/y,
    facts: (m) => ({ server: 'WebSphere', pool: m[1]!, code: 'WSVR0652W' }),
    thread: (m) => `pool ${m[1]}`,
  },
  {
    kind: 'hung-thread-reported',
    source: 'WebLogic, BEA-000337 [STUCK]',
    requires: 'BEA-000337',
    at: "ExecuteThread: '",
    pattern: new RegExp(
      /ExecuteThread: '(\d+)' for queue: '([^']+)' has been busy for "(\d+)" seconds working on /y.source +
        /the request "([^"]*)", which is more than the configured time \(StuckThreadMaxTime\) of "(\d+)" seconds/y.source,
      'y',
    ),
    facts: (m) => ({ server: 'WebLogic', activeMs: Number(m[3]) * 1000, request: m[4]!.slice(0, 300), thresholdSeconds: Number(m[5]), code: 'BEA-000337' }),
    thread: weblogicThread,
    stackFollows: true,
  },
  {
    kind: 'hung-thread-recovered',
    source: 'WebLogic, BEA-000339 unstuck',
    requires: 'BEA-000339',
    at: "ExecuteThread: '",
    pattern: /ExecuteThread: '(\d+)' for queue: '([^']+)' has become "unstuck"/y,
    facts: () => ({ server: 'WebLogic', code: 'BEA-000339' }),
    thread: weblogicThread,
  },
  {
    kind: 'hung-thread-reported',
    source: 'Tomcat StuckThreadDetectionValve (notifyStuckThreadDetected)',
    at: 'Thread [',
    pattern: new RegExp(
      /Thread \[([^\]]+)\] \(id=\[(\d+)\]\) has been active for \[([\d,. ]+)\] milliseconds /y.source +
        /\(since \[([^\]]+)\]\) to serve the same request for \[([^\]]*)\] and may be stuck /y.source +
        /\(configured threshold for this StuckThreadDetectionValve is \[(\d+)\] seconds\)/y.source,
      'y',
    ),
    facts: (m) => ({
      server: 'Tomcat',
      activeMs: millis(m[3]!),
      request: m[5]!.slice(0, 300),
      thresholdSeconds: Number(m[6]),
      code: 'StuckThreadDetectionValve',
    }),
    thread: (m) => m[1]!,
    stackFollows: true,
  },
  {
    kind: 'hung-thread-recovered',
    source: 'Tomcat StuckThreadDetectionValve (notifyStuckThreadCompleted)',
    at: 'Thread [',
    pattern: new RegExp(
      /Thread \[([^\]]+)\] \(id=\[(\d+)\]\) was previously reported to be stuck but has completed\. /y.source +
        /It was active for approximately \[([\d,. ]+)\] milliseconds/y.source,
      'y',
    ),
    facts: (m) => ({ server: 'Tomcat', activeMs: millis(m[3]!), code: 'StuckThreadDetectionValve' }),
    thread: (m) => m[1]!,
  },
];

/** Every known line: Dubbo's, then the servers'. */
const ALL_LINES: readonly KnownLine[] = [...KNOWN_LINES, ...HUNG_THREAD_LINES];

/** A stack line a server logs under its report: `at pkg.Class.method(File.java:12)`, module prefix optional. */
const STACK_LINE = /^\s+at\s+(?:[^\s(]*\/)?([\w.$<>]+)\(/;
/** How many frames of a logged stack are kept. */
const LOGGED_FRAMES = 12;

const EXCEPTION_HEADER = /^\s*(?:Caused by: )?[\w.$]+(?:Exception|Error)(?::|\s*$)/;

/** Collects known lines as they stream by; `events()` groups them per kind (and per method for rejections). */
export class KnownLineCollector {
  private readonly byKey = new Map<
    string,
    {
      kind: LogEventModel['kind'];
      count: number;
      first: LogEventModel['first'];
      last: LogEventModel['last'];
      facts: Record<string, number | string>;
      subject?: { service: string; method: string };
      thread?: string;
      frames?: string[];
    }
  >();
  matched = 0;

  constructor(private readonly source: string) {}

  /** The message and line of the last match: a stack trace right after a log record repeats its message. */
  private lastMessage = '';
  private lastLine = -10;

  /** The report whose stack the next `at` lines are, while they come. */
  private stackOf: { key: string; frames: string[] } | undefined;

  push(line: string, lineNo: number): void {
    if (this.stackOf !== undefined) {
      const frame = STACK_LINE.exec(line);
      // The report's own stack runs on (`java.lang.Throwable` may head it); anything else ends it.
      if (frame !== null) {
        if (this.stackOf.frames.length < LOGGED_FRAMES) this.stackOf.frames.push(frame[1]!);
        return;
      }
      if (!/^java\.lang\.Throwable\s*$/.test(line.trim())) this.stackOf = undefined;
    }
    // Cheap gate: every known line contains one of these words.
    if (
      !line.includes('EXHAUSTED') &&
      !line.includes('Failed to invoke') &&
      !line.includes('concurrent invoke timeout') &&
      !line.includes('WSVR06') &&
      !line.includes('BEA-00033') &&
      !line.includes('StuckThreadDetectionValve') &&
      !line.includes('reported to be stuck')
    )
      return;
    for (const k of ALL_LINES) {
      const m = matchOf(k, line);
      if (!m) continue;
      // `com.x.RpcException: <message>` opening the stack trace of the record just logged is the same event.
      const repeat = m[0] === this.lastMessage && lineNo - this.lastLine <= 3 && EXCEPTION_HEADER.test(line);
      this.lastMessage = m[0];
      this.lastLine = lineNo;
      if (repeat) return;
      const subject = k.subject?.(m);
      const thread = k.thread?.(m);
      const key = subject ? `${k.kind} ${subject.service}#${subject.method}` : thread !== undefined ? `${k.kind} ${thread}` : k.kind;
      // Kept whole up to a bound (the cause sits at the end of long lines); each format shortens its quote.
      const at = { source: this.source, line: lineNo, text: line.trim().slice(0, MAX_KEPT_LINE) };
      const e = this.byKey.get(key);
      if (e) {
        e.count++;
        e.last = at;
        e.facts = k.facts(m);
      } else {
        this.byKey.set(key, {
          kind: k.kind,
          count: 1,
          first: at,
          last: at,
          facts: k.facts(m),
          ...(subject ? { subject } : {}),
          ...(thread !== undefined ? { thread } : {}),
        });
      }
      // The stack under a report is the last report's.
      if (k.stackFollows === true) {
        const frames: string[] = [];
        this.byKey.get(key)!.frames = frames;
        this.stackOf = { key, frames };
      }
      this.matched++;
      return;
    }
  }

  events(): LogEventModel[] {
    return [...this.byKey.values()].map((e) => ({
      kind: e.kind,
      count: e.count,
      first: e.first,
      last: e.last,
      facts: e.facts,
      ...(e.subject ? { service: e.subject.service, method: e.subject.method } : {}),
      ...(e.thread !== undefined ? { thread: e.thread } : {}),
      ...(e.frames !== undefined ? { frames: e.frames } : {}),
    }));
  }
}

/** The line's match of a known line: tried where its `at` text occurs (sticky), or anywhere. */
function matchOf(k: KnownLine, line: string): RegExpExecArray | null {
  if (k.at === undefined) return k.pattern.exec(line);
  if (k.requires !== undefined && !line.includes(k.requires)) return null;
  for (let i = line.indexOf(k.at); i >= 0; i = line.indexOf(k.at, i + 1)) {
    k.pattern.lastIndex = i;
    const m = k.pattern.exec(line);
    if (m !== null) return m;
  }
  return null;
}
