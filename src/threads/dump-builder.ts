/**
 * What every thread-dump parser builds the same way: empty dumps and thread entries, the record
 * of lines nobody understood, and interned frames (identical frame text shares one object, which
 * keeps big pools cheap and lets analyses compare frames by identity).
 */
import type { StackFrame, ThreadDump, ThreadDumpFormat, ThreadEntry } from '../model/thread-dump.js';
import { parseFrameText } from './frame-text.js';

/** At most this many unparsed lines are kept per dump; all are counted. */
export const MAX_KEPT_UNPARSED = 500;

export function newThreadDump(source: string, index: number, format: ThreadDumpFormat, startLine: number): ThreadDump {
  return { source, index, format, startLine, endLine: startLine, threads: [], jvmDeadlocks: [], unparsed: [], unparsedCount: 0 };
}

export function newThreadEntry(name: string, line: number): ThreadEntry {
  return {
    name,
    daemon: false,
    virtual: false,
    state: 'UNKNOWN',
    frames: [],
    locks: [],
    ownableSynchronizers: [],
    stackTruncated: false,
    line,
    endLine: line,
  };
}

export function recordUnparsed(dump: ThreadDump, line: number, text: string): void {
  dump.unparsedCount++;
  if (dump.unparsed.length < MAX_KEPT_UNPARSED) dump.unparsed.push({ line, text });
}

export class FrameInterner {
  private readonly frames = new Map<string, StackFrame>();

  /** The frame for this text (what follows `at `), parsed once. */
  intern(text: string): StackFrame {
    let f = this.frames.get(text);
    if (f === undefined) {
      f = parseFrameText(text);
      this.frames.set(text, f);
    }
    return f;
  }

  /** A frame already known under another key (a raw line), or undefined. */
  lookup(key: string): StackFrame | undefined {
    return this.frames.get(key);
  }

  /** Remembers `frame` under another key too, so the next identical raw line skips parsing. */
  alias(key: string, frame: StackFrame): void {
    this.frames.set(key, frame);
  }
}
