/**
 * The few log lines worth reading next to the dumps: Dubbo's own messages when its pool is exhausted,
 * when the `executes` limit rejects a call, and when the `actives` limit times a caller out. Their
 * texts are the same from Dubbo 2.5 to 3.3 (java-internals.md, 1.3 and 1.4). Pure: lines in, events out.
 */
import type { LogEventModel } from '../model/model.js';

interface KnownLine {
  readonly kind: LogEventModel['kind'];
  readonly pattern: RegExp;
  readonly facts: (m: RegExpExecArray) => Record<string, number | string>;
  readonly subject?: (m: RegExpExecArray) => { service: string; method: string };
}

const serviceOfUrl = (url: string): string => {
  const path = /^[a-z][\w+.-]*:\/\/[^/]*\/([^?]*)/.exec(url)?.[1] ?? url;
  return path.replace(/\/+$/, '');
};

export const KNOWN_LINES: readonly KnownLine[] = [
  {
    kind: 'dubbo-pool-exhausted',
    pattern:
      /Thread pool is EXHAUSTED! Thread Name: (.*?), Pool Size: (\d+) \(active: (\d+), core: (\d+), max: (\d+), largest: (\d+)\), Task: (\d+) \(completed: (\d+)\), Executor status:\(isShutdown:(\w+), isTerminated:(\w+), isTerminating:(\w+)\), in ([\w.+-]+):\/\/([^:\s]+):(\d+)!/,
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
    pattern: /Waiting concurrent invoke timeout in client-side for service:\s+(\S+), method: (\S+), elapsed: (\d+), timeout: (\d+)\. concurrent invokes: (\d+)\. max concurrent invoke limit: (\d+)/,
    facts: (m) => ({ elapsedMs: Number(m[3]), timeoutMs: Number(m[4]), concurrent: Number(m[5]), actives: Number(m[6]) }),
    subject: (m) => ({ service: m[1]!, method: m[2]! }),
  },
];

const EXCEPTION_HEADER = /^\s*(?:Caused by: )?[\w.$]+(?:Exception|Error)(?::|\s*$)/;

/** Collects known lines as they stream by; `events()` groups them per kind (and per method for rejections). */
export class KnownLineCollector {
  private readonly byKey = new Map<string, { kind: LogEventModel['kind']; count: number; first: LogEventModel['first']; last: LogEventModel['last']; facts: Record<string, number | string>; subject?: { service: string; method: string } }>();
  matched = 0;

  constructor(private readonly source: string) {}

  /** The message and line of the last match: a stack trace right after a log record repeats its message. */
  private lastMessage = '';
  private lastLine = -10;

  push(line: string, lineNo: number): void {
    // Cheap gate: every known line contains one of these words.
    if (!line.includes('EXHAUSTED') && !line.includes('Failed to invoke') && !line.includes('concurrent invoke timeout')) return;
    for (const k of KNOWN_LINES) {
      const m = k.pattern.exec(line);
      if (!m) continue;
      // `com.x.RpcException: <message>` opening the stack trace of the record just logged is the same event.
      const repeat = m[0] === this.lastMessage && lineNo - this.lastLine <= 3 && EXCEPTION_HEADER.test(line);
      this.lastMessage = m[0];
      this.lastLine = lineNo;
      if (repeat) return;
      const subject = k.subject?.(m);
      const key = subject ? `${k.kind} ${subject.service}#${subject.method}` : k.kind;
      const at = { source: this.source, line: lineNo, text: line.trim().slice(0, 500) };
      const e = this.byKey.get(key);
      if (e) {
        e.count++;
        e.last = at;
        e.facts = k.facts(m);
      } else {
        this.byKey.set(key, { kind: k.kind, count: 1, first: at, last: at, facts: k.facts(m), ...(subject ? { subject } : {}) });
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
    }));
  }
}
