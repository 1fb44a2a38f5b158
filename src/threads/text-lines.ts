/**
 * What a line of a text thread dump is, by its text alone: pure classifiers for the eight grammars the
 * text parser reads (HotSpot jstack and kill -3, JRockit, ThreadInfo/JMX, the JDK 21+ virtual-thread
 * lines, WebLogic's wrapper, and the sections around a thread list). They know nothing of where the
 * parser is; the section state machine (text-parser.ts) decides what a kind means there.
 *
 * `t` is always the line trimmed; `c0` its first character code, which the callers have at hand.
 */

/** A line that opens or closes a dump, whatever section the parser is in. */
export type DumpBoundary =
  /** `Full thread dump <jvm>:` */
  | 'hotspot-banner'
  /** `===== FULL THREAD DUMP ...` */
  | 'jrockit-banner'
  /** `===== END OF THREAD DUMP ...` or `<EndOfDump>` */
  | 'end-of-dump'
  /** `=====`: the underline of a report heading, ignored inside a dump */
  | 'underline'
  /** `num     #instances  #bytes  class name`: a class histogram printed after the dump */
  | 'class-histogram';

export function dumpBoundary(t: string, c0: number): DumpBoundary | undefined {
  if (c0 === 70 /* F */) return t.startsWith('Full thread dump') ? 'hotspot-banner' : undefined;
  if (c0 === 61 /* = */) {
    if (t.startsWith('===== FULL THREAD DUMP')) return 'jrockit-banner';
    if (t.startsWith('===== END OF THREAD DUMP')) return 'end-of-dump';
    return /^=+$/.test(t) ? 'underline' : undefined;
  }
  if (c0 === 60 /* < */) return t === '<EndOfDump>' ? 'end-of-dump' : undefined;
  if (c0 === 110 /* n */) return /^num\s+#instances\s+#bytes\s+class name/.test(t) ? 'class-histogram' : undefined;
  return undefined;
}

/** WebLogic's wrapper line before each dump of old Sun JVMs: text between dumps. */
export function isWeblogicWrapper(t: string, c0: number): boolean {
  return c0 === 84 /* T */ && t.startsWith('THREAD DUMP from JVM taken at ');
}

/** A line that ends the thread list and opens another section of the dump. */
export type SectionMarker =
  /** `Threads class SMR info:` (JDK 11+), before the thread list */
  | { readonly kind: 'smr' }
  /** `Found one Java-level deadlock:` / `Found a total of N deadlocks.`: HotSpot's deadlock report */
  | { readonly kind: 'deadlock-report' }
  /** JRockit's `Circular (deadlocked) lock chains`, `Blocked lock chains`, `Open lock chains` */
  | { readonly kind: 'lock-chains'; readonly deadlocked: boolean }
  /** `JNI global refs: 12, weak refs: 3`: the end of HotSpot's thread list */
  | { readonly kind: 'jni-refs'; readonly globalRefs?: number; readonly weakRefs?: number };

export function sectionMarker(t: string): SectionMarker | undefined {
  if (t.startsWith('Threads class SMR info:')) return { kind: 'smr' };
  if (isDeadlockReportStart(t)) return { kind: 'deadlock-report' };
  if (/^(Circular \(deadlocked\)|Blocked|Open) lock chains/.test(t)) return { kind: 'lock-chains', deadlocked: t.startsWith('Circular') };
  if (t.startsWith('JNI global ref')) {
    const m = /JNI global ref\w*: (\d+)(?:, weak refs: (\d+))?/.exec(t);
    if (m === null) return { kind: 'jni-refs' };
    return m[2] !== undefined ? { kind: 'jni-refs', globalRefs: Number(m[1]), weakRefs: Number(m[2]) } : { kind: 'jni-refs', globalRefs: Number(m[1]) };
  }
  return undefined;
}

/** The first line of HotSpot's deadlock report (one deadlock, or the count of several). */
export function isDeadlockReportStart(t: string): boolean {
  return t.startsWith('Found one Java-level deadlock') || t.startsWith('Found a total of');
}

/**
 * A line of the SMR section (`_java_thread_list=0x... length=12, elements={`, the addresses, `}`,
 * and on some JDKs `_to_delete_list=...` with its own block); undefined for a line after it.
 * `declaredThreads` is the thread list's length, when the line gives it.
 */
export function smrLine(t: string, c0: number): { readonly declaredThreads?: number } | undefined {
  if (c0 !== 95 /* _ */ && c0 !== 125 /* } */ && !t.startsWith('0x')) return undefined;
  if (t.startsWith('_java_thread_list=')) {
    const m = /\blength=(\d+)/.exec(t);
    if (m) return { declaredThreads: Number(m[1]) };
  }
  return {};
}

/**
 * Kinds of the lines of a thread's body. Numbers, not objects: the state machine meets a body line for
 * most lines of a dump and parses only what the kind says it needs.
 */
export const BodyLine = {
  /** Not a body line. */
  OTHER: 0,
  /** `at com.acme.Foo.bar(Foo.java:12)` */
  FRAME: 1,
  /** A line starting `--`: JRockit's `-- Waiting for notification on: ...` or a stack trace's end (see jrockitDashLine). */
  DOUBLE_DASH: 2,
  /** `- locked <0x...> (a java.lang.Object)` and the other HotSpot lock lines, or an entry of a synchronizer list. */
  LOCK: 3,
  /** JRockit's `^-- Holding lock: ...`. */
  CARET_LOCK: 4,
  /** `java.lang.Thread.State: WAITING (parking)` (see parseStateLine). */
  STATE: 5,
  /** `Locked ownable synchronizers:` and its JRockit / ThreadInfo forms: a list follows. */
  OWNABLE_HEADER: 6,
  /** `<0x...> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)`: an entry of the list, when one is open. */
  ANGLE_REF: 7,
  /** `...`: ThreadInfo's cut stack. */
  ELLIPSIS: 8,
  /** `Carrying virtual thread #N` (JDK 21+), `Mounted virtual thread #N` (JDK 25) (see parseCarrierLine). */
  CARRIER: 9,
  /** Compiler threads' `No compile task`, `Compiling: 123 ...`: nothing to keep. */
  COMPILER_TASK: 10,
  /**
   * IntelliJ's debugger export: `waiting for main@1 to release lock on <0x2705> (a java.util.HashMap)`
   * (the lock the thread waits to enter and its owner) and `blocks pool-1-thread-1@9887` (the reverse, said by the owner).
   */
  IDE_LOCK_NOTE: 11,
} as const;
export type BodyLine = (typeof BodyLine)[keyof typeof BodyLine];

export function bodyLineKind(t: string): BodyLine {
  const c0 = t.charCodeAt(0);
  if (c0 === 97 /* a */ && t.startsWith('at ')) return BodyLine.FRAME;
  if (c0 === 45 /* - */) return t.startsWith('--') ? BodyLine.DOUBLE_DASH : BodyLine.LOCK;
  if (c0 === 94 /* ^ */) return BodyLine.CARET_LOCK;
  if (t.startsWith('java.lang.Thread.State:')) return BodyLine.STATE;
  if (t === 'Locked ownable synchronizers:' || t.startsWith('Locked synchronizers:') || t.startsWith('Number of locked synchronizers'))
    return BodyLine.OWNABLE_HEADER;
  if (c0 === 60 /* < */) return BodyLine.ANGLE_REF;
  if (t === '...') return BodyLine.ELLIPSIS;
  if (/^(Carrying|Mounted) virtual thread #\d/.test(t)) return BodyLine.CARRIER;
  if (t === 'No compile task' || t.startsWith('Compiling:')) return BodyLine.COMPILER_TASK;
  if ((c0 === 119 /* w */ && t.startsWith('waiting for ') && t.includes(' to release lock on <')) || (c0 === 98 /* b */ && t.startsWith('blocks ')))
    return BodyLine.IDE_LOCK_NOTE;
  return BodyLine.OTHER;
}

/** A `--` line that is a stack trace's end (`-- end of trace`, `--- End of stack trace`), not a JRockit lock line. */
export function isTraceEnd(t: string): boolean {
  return t.startsWith('-- end of trace') || t.startsWith('--- End of stack trace');
}

/** `java.lang.Thread.State: WAITING (parking)` -> the state's word and its detail; undefined for a line not of that form. */
export function parseStateLine(t: string): { readonly word: string; readonly detail: string | undefined } | undefined {
  const m = /^java\.lang\.Thread\.State: ([A-Z_]+)(?: \((.*)\))?/.exec(t);
  return m ? { word: m[1]!, detail: m[2] } : undefined;
}

/** IntelliJ's `waiting for main@1 to release lock on <0x2705> (a java.util.HashMap)` -> the owner's name and the lock's text. */
export function parseIdeLockWait(t: string): { readonly owner: string; readonly lock: string } | undefined {
  const at = t.indexOf(' to release lock on ');
  if (!t.startsWith('waiting for ') || at < 0) return undefined;
  return { owner: t.slice('waiting for '.length, at), lock: t.slice(at + ' to release lock on '.length) };
}

/** `Carrying virtual thread #42` / `Mounted virtual thread #42` -> its id, and whether it is JDK 25's `Mounted` form. */
export function parseCarrierLine(t: string): { readonly virtualThread: string; readonly mounted: boolean } | undefined {
  const m = /^(Carrying|Mounted) virtual thread #(\d+)/.exec(t);
  return m ? { virtualThread: m[2]!, mounted: m[1] === 'Mounted' } : undefined;
}

/** `Found 1 deadlock.`: the end of HotSpot's deadlock report. */
export function isDeadlockReportEnd(t: string): boolean {
  return /^Found \d+ deadlocks?\.?$/.test(t);
}

/** `Java stack information for the threads listed above:`: the deadlocked threads' stacks follow, again. */
export function isDeadlockStacksStart(t: string): boolean {
  return t.startsWith('Java stack information for the threads listed above');
}

/** A line of the repeated stacks after a deadlock report, which the thread list already gave. */
export function isRepeatedStackLine(t: string): boolean {
  return t.startsWith('at ') || t.startsWith('- ') || t.startsWith('java.lang.Thread.State');
}

/** A line of a deadlock report's entry after its thread's line: whom the thread waits for, or who holds it. */
export type DeadlockEntryLine = { readonly kind: 'held-by'; readonly thread: string } | { readonly kind: 'waiting'; readonly text: string };

export function deadlockEntryLine(t: string): DeadlockEntryLine | undefined {
  const held = /which is held by "(.*)"/.exec(t);
  if (held) return { kind: 'held-by', thread: held[1]! };
  if (t.startsWith('which is held by')) return { kind: 'held-by', thread: t.slice('which is held by'.length).trim() };
  if (t.startsWith('waiting')) return { kind: 'waiting', text: t.replace(/,$/, '') };
  return undefined;
}

/** A line of JRockit's lock chains; undefined for a line that ends them. */
export type JrockitChainLine =
  /** `Chain 2:` */
  | { readonly kind: 'chain' }
  /** `"worker-1" id=12 idx=0x30 tid=123 waiting for java/lang/Object@0x... held by:` */
  | { readonly kind: 'waiting'; readonly thread: string; readonly waitingFor: string }
  /** `"worker-2" ...`: any other quoted line; the last of a chain repeats its first thread */
  | { readonly kind: 'quoted'; readonly thread: string }
  /** A line that opens a quote and never closes it: not part of the chains, but not the end of them either */
  | { readonly kind: 'open-quote' };

export function jrockitChainLine(t: string): JrockitChainLine | undefined {
  if (/^Chain \d+:/.test(t)) return { kind: 'chain' };
  if (t.charCodeAt(0) !== 34 /* " */) return undefined;
  const m = /^"(.*?)"(?: \(id: \S+\)| id=\S+ idx=\S+ tid=\S+)? waiting for (\S+) held by:?\s*$/.exec(t);
  if (m) return { kind: 'waiting', thread: m[1]!, waitingFor: m[2]! };
  const closing = /^"(.*?)"/.exec(t);
  return closing ? { kind: 'quoted', thread: closing[1]! } : { kind: 'open-quote' };
}
