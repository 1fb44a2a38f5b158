/**
 * What every thread-dump parser builds the same way: empty dumps and thread entries, the record
 * of lines nobody understood, and interned frames (identical frame text shares one object, which
 * keeps big pools cheap and lets analyses compare frames by identity).
 */
import type { FrameLock, LockRef, StackFrame, ThreadDump, ThreadDumpFormat, ThreadEntry } from '../model/thread-dump.js';
import { parseFrameText } from './frame-text.js';

/** At most this many unparsed lines are kept per dump; all are counted. */
const MAX_KEPT_UNPARSED = 500;

export function newThreadDump(source: string, index: number, format: ThreadDumpFormat, startLine: number): ThreadDump {
  return { source, index, format, startLine, endLine: startLine, threads: [], jvmDeadlocks: [], unparsed: [], unparsedCount: 0 };
}

/**
 * Every field is present from the start, the optional ones as undefined: entries of one shape keep
 * all fields inside the object, where fields added later would each grow a separate property array
 * (100k threads, 100k more objects to allocate and collect).
 */
export function newThreadEntry(
  name: string,
  line: number,
  frames: StackFrame[] = [],
  locks: FrameLock[] = [],
  ownableSynchronizers: LockRef[] = [],
): ThreadEntry {
  return {
    name,
    javaId: undefined,
    nativeId: undefined,
    address: undefined,
    daemon: false,
    virtual: false,
    priority: undefined,
    state: 'UNKNOWN',
    stateDetail: undefined,
    headerState: undefined,
    cpuMs: undefined,
    elapsedS: undefined,
    frames,
    locks,
    ownableSynchronizers,
    lockOwnerName: undefined,
    lockOwnerId: undefined,
    carriedVirtualThread: undefined,
    stackTruncated: false,
    line,
    endLine: line,
  };
}

export function recordUnparsed(dump: ThreadDump, line: number, text: string): void {
  dump.unparsedCount++;
  if (dump.unparsed.length < MAX_KEPT_UNPARSED) dump.unparsed.push({ line, text: detach(text) });
}

export class FrameInterner {
  private readonly frames = new Map<string, StackFrame>();

  /** The frame for this text (what follows `at `), parsed once. */
  intern(text: string): StackFrame {
    let f = this.frames.get(text);
    if (f === undefined) {
      // Kept for the whole run, so cut loose from the chunk the text was sliced from.
      const own = detach(text);
      f = parseFrameText(own);
      this.frames.set(own, f);
    }
    return f;
  }
}

/** One shared, detached copy of each distinct string (for texts that repeat across threads). */
export class StringInterner {
  private readonly strings = new Map<string, string>();

  intern(s: string): string {
    let kept = this.strings.get(s);
    if (kept === undefined) {
      kept = detach(s);
      this.strings.set(kept, kept);
    }
    return kept;
  }
}

/**
 * A copy of `s` that does not keep its parent alive. V8 cuts substrings as slices that point into the
 * string they came from, so one kept thread name would keep a whole decoded 1 MB chunk alive (and with
 * every chunk held that way, the whole input). Concatenating and slicing makes a fresh flat copy.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/**
 * detach for many strings at once (none holding a newline): joined into one new string and cut apart
 * again, each comes back a slice of that string alone. One copy made instead of three objects per
 * string, and strings kept side by side: a pass over 200,000 thread names then reads one string in
 * order rather than 200,000 scattered copies.
 */
export function detachAll(texts: readonly string[]): string[] {
  const parts = texts.join('\n').split('\n');
  // A newline inside one of them would shift every later one: copied one by one instead.
  return parts.length === texts.length ? parts : texts.map(detach);
}

/**
 * Compares the threads parsed with the count the dump declares (see ThreadDump.declaredThreads).
 * Returns a warning when they differ: threads were lost (a cut file, lines dumpsleuth could not read)
 * or the declaration covers other threads than thought.
 */
export function threadCountMismatch(dump: ThreadDump, counted: (t: ThreadEntry) => boolean): string | undefined {
  const declared = dump.declaredThreads;
  if (declared === undefined) return undefined;
  const parsed = dump.threads.filter(counted).length;
  if (parsed === declared.count) return undefined;
  return (
    `line ${dump.startLine}: ${declared.by} declares ${declared.count} ${declared.what}, ${parsed} were read` +
    `${parsed < declared.count ? ` (${declared.count - parsed} missing: the dump may be cut or hold lines dumpsleuth could not read)` : ''}`
  );
}
