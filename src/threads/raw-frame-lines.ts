/**
 * The cache behind the text parser's hot path. Threads of one pool print the same frame lines in the
 * same order, so each raw `\tat ...` line is parsed once, and each remembers the line that followed it
 * last time: the parser compares the next line with that prediction, without parsing or hashing it.
 */
import type { StackFrame } from '../model/thread-dump.js';
import { detach } from './dump-builder.js';

export interface RawFrameLine {
  /** The line as read (a trailing `\r` included), detached from the chunk it came from. */
  readonly raw: string;
  readonly frame: StackFrame;
  /** The frame line that followed this one the last time it was seen. */
  next: RawFrameLine | undefined;
}

export class RawFrameLines {
  private readonly byRaw = new Map<string, RawFrameLine>();

  get(raw: string): RawFrameLine | undefined {
    return this.byRaw.get(raw);
  }

  add(raw: string, frame: StackFrame): RawFrameLine {
    const entry: RawFrameLine = { raw: detach(raw), frame, next: undefined };
    this.byRaw.set(entry.raw, entry);
    return entry;
  }
}
