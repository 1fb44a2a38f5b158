/**
 * Thread header lines of the text formats:
 *   HotSpot     "main" #1 [1234] prio=5 os_prio=0 cpu=5.1ms elapsed=2.2s tid=0x.. nid=0x.. waiting on condition [0x..]
 *   VisualVM    "main" - Thread t@1          (Spring Boot's text/plain threaddump too, sometimes just "main")
 *   ThreadInfo  "main" daemon prio=5 Id=1 BLOCKED on java.lang.Object@1b6d owned by "x" Id=9   (Arthas, Dubbo_JStack.log)
 *   JMX legacy  "main" id=1 in BLOCKED on lock=java.lang.Object@1b6d
 *   JRockit     "main" id=1 idx=0x4 tid=27878 prio=5 alive, in native, waiting
 */
import type { JavaThreadState, LockRef, ThreadDumpFormat, ThreadEntry } from '../model/thread-dump.js';
import { javaStateNamed, parseLockRef } from './frame-text.js';

/** The fields a header line gives, with the same names and meanings as on ThreadEntry. */
export type ThreadHeaderFields = Pick<ThreadEntry, 'name' | 'daemon' | 'virtual'> &
  Partial<
    Pick<
      ThreadEntry,
      'javaId' | 'nativeId' | 'address' | 'priority' | 'cpuMs' | 'elapsedS' | 'headerState' | 'state' | 'stateDetail' | 'lockOwnerName' | 'lockOwnerId'
    >
  >;

export interface ThreadHeader extends ThreadHeaderFields {
  format: Extract<ThreadDumpFormat, 'hotspot' | 'visualvm' | 'threadinfo' | 'jmx-legacy' | 'jrockit'>;
  /** The lock a ThreadInfo / JMX header says the thread is blocked or waiting on. */
  lock?: LockRef;
}

// What may follow the closing quote of a thread name. Anything else means the quote is part of the name.
const AFTER_NAME = /^ +(?:#\d|\[|daemon\b|virtual\b|prio=|os_prio=|tid=|nid=|Id=\d|id=|\(id:|- Thread t@|lwp_id=|cpu=|in [A-Z_]+|runnable|waiting|sleeping|[A-Z_]+\b)/;

/** Index of the quote closing the thread name, or -1. */
export function findNameEnd(line: string): number {
  let p = line.indexOf('"', 1);
  let last = -1;
  while (p >= 0) {
    last = p;
    if (p === line.length - 1) return p;
    const rest = line.slice(p + 1);
    if (AFTER_NAME.test(rest)) return p;
    p = line.indexOf('"', p + 1);
  }
  if (last > 0 && line.slice(last + 1).trim().length === 0) return last;
  return -1;
}

/** True for the deadlock report's `"T1":` entries (not thread headers). */
export function isDeadlockEntryLine(line: string): boolean {
  return line.charCodeAt(0) === 34 && line.trimEnd().endsWith('":');
}

export function parseThreadHeader(line: string): ThreadHeader | null {
  if (line.charCodeAt(0) !== 34 /* " */) return null;
  if (isDeadlockEntryLine(line)) return null;
  return scanCommonHotspotHeader(line) ?? parseAnyThreadHeader(line);
}

/** parseThreadHeader without its fast path: every format, by patterns. Exported for the test that holds the two equal. */
export function parseAnyThreadHeader(line: string): ThreadHeader | null {
  const end = findNameEnd(line);
  if (end < 0) return null;
  const name = line.slice(1, end);
  const tail = line.slice(end + 1).trim();
  if (tail.startsWith('- Thread t@')) {
    return { name, format: 'visualvm', javaId: tail.slice(11).trim(), daemon: false, virtual: false };
  }
  if (tail.length === 0) return { name, format: 'visualvm', daemon: false, virtual: false };
  // Most headers of most dumps; no other format has `tid=0x.. nid=` after `prio=`.
  const common = parseCommonHotspotTail(name, tail);
  if (common !== null) return common;
  if (/(?:^| )Id=\d/.test(tail)) return parseThreadInfoTail(name, tail);
  if (/^id=\d+ in /.test(tail)) return parseJmxLegacyTail(name, tail);
  if (/ idx=0x|^id=\S+ idx=|(?:^|\s)(?:alive|active)(?:,|$)|id=0x[0-9a-fA-F]+ tid=/.test(tail)) return parseJrockitTail(name, tail);
  return parseAnyHotspotTail(name, tail);
}

/**
 * The shape nearly every HotSpot header has (JDK 6 to 25), up to the native id, in one match:
 * `#1 [123] daemon prio=5 os_prio=0 cpu=1.2ms elapsed=3.4s tid=0x.. nid=0x..`; then the state words and
 * the stack address (`waiting on condition  [0x..]`), taken apart in code. (As one regex, the state
 * words and the spaces around the address could each take a long run of whitespace, and a damaged
 * header with thousands of them took half a minute to fail; found by fuzzing.)
 */
const COMMON_HOTSPOT_HEAD =
  /^(?:#(\d+) (?:\[(\d+)\] )?)?(daemon )?prio=(\d+) (?:os_prio=-?\d+ )?(?:cpu=([\d.]+)ms )?(?:elapsed=([\d.]+)s )?tid=(0x[0-9a-fA-F]+) nid=(0x[0-9a-fA-F]+|\d+)/;
const STACK_ADDRESS = /^\[0x[0-9a-fA-F]+\]$/;

/** The state words after `nid=`, without the trailing `[0x..]`; null when the rest is not just that. */
function hotspotStateWords(rest: string): string | null {
  let words = (rest.charCodeAt(0) === 32 ? rest.slice(1) : rest).trimEnd();
  if (words.endsWith(']')) {
    const open = words.lastIndexOf('[');
    if (open >= 0 && STACK_ADDRESS.test(words.slice(open))) words = words.slice(0, open).trimEnd();
  }
  return words.includes('[') || words.includes('=') ? null : words;
}

const SPACE = 32;
const CLOSE_BRACKET = 93;

function hexEnd(line: string, from: number): number {
  let p = from;
  for (let c = line.charCodeAt(p); (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70); c = line.charCodeAt(++p));
  return p;
}

/**
 * COMMON_HOTSPOT_HEAD with the name in front: the whole line up to the native id in one match, for
 * names without quotes and one space after the name (the general parser trims and searches instead).
 */
const COMMON_HOTSPOT_LINE =
  /^"([^"]*)" (?:#(\d+) (?:\[\d+\] )?)?(daemon )?prio=(\d+) (?:os_prio=-?\d+ )?(?:cpu=([\d.]+)ms )?(?:elapsed=([\d.]+)s )?tid=(0x[0-9a-fA-F]+) nid=(0x[0-9a-fA-F]+|\d+)/;

/**
 * The header nearly every HotSpot thread has, read in one match plus indexes: a big dump has one per
 * thread, and the general parser cuts the line into pieces to try each format in turn. It takes only
 * the exact layout and returns null for anything else, which parseAnyThreadHeader then reads; where
 * it answers, the answer is the same (a test holds the two equal on every header of the corpus and
 * the fixtures). The lines are slices of a chunk, on which V8 reads characters one at a time slowly,
 * so the characters are left to the regex engine.
 */
export function scanCommonHotspotHeader(line: string): ThreadHeader | null {
  const m = COMMON_HOTSPOT_LINE.exec(line);
  if (m === null) return null;
  const afterNid = m[0].length;
  const wordsFrom = line.charCodeAt(afterNid) === SPACE ? afterNid + 1 : afterNid;
  const stateText = knownStateWords(line, wordsFrom) ?? scanStateWords(line, wordsFrom);
  if (stateText === null) return null;
  // One literal, every field in it (absent ones undefined, which every reader treats as absent): no property array to grow.
  const hasWords = stateText.length > 0;
  return {
    name: m[1]!,
    format: 'hotspot',
    daemon: m[3] !== undefined,
    virtual: false,
    javaId: m[2],
    priority: Number(m[4]),
    cpuMs: m[5] !== undefined ? Number(m[5]) : undefined,
    elapsedS: m[6] !== undefined ? Number(m[6]) : undefined,
    address: m[7]!.toLowerCase(),
    nativeId: toHex(m[8]!),
    headerState: hasWords ? stateText : undefined,
    state: hasWords ? stateFromHotspotWords(stateText) : undefined,
  };
}

/**
 * One of the words HotSpot prints after `nid=` for nearly every thread, then optionally the stack
 * address, then spaces to the end; sticky, tried from where the words start.
 */
const KNOWN_STATE_WORDS_TAIL = /(?:runnable|waiting on condition|in Object\.wait\(\)|waiting for monitor entry|sleeping|parking)(?: +\[0x[0-9a-fA-F]+\])? *$/y;

/**
 * hotspotStateWords for the common words, as a constant (no copy cut, nothing to intern);
 * undefined for anything else, which scanStateWords reads. The first letters tell the words apart.
 */
function knownStateWords(line: string, from: number): string | undefined {
  KNOWN_STATE_WORDS_TAIL.lastIndex = from;
  if (!KNOWN_STATE_WORDS_TAIL.test(line)) return undefined;
  switch (line.charCodeAt(from)) {
    case 114 /* r */:
      return 'runnable';
    case 119 /* w */:
      return line.charCodeAt(from + 8) === 111 /* o */ ? 'waiting on condition' : 'waiting for monitor entry';
    case 105 /* i */:
      return 'in Object.wait()';
    case 115 /* s */:
      return 'sleeping';
    default:
      return 'parking';
  }
}

/** The end of `line` before `end` without the ASCII spaces it ends with; -1 when it ends with other whitespace. */
function trimmedEnd(line: string, from: number, end: number): number {
  let e = end;
  for (let c = line.charCodeAt(e - 1); e > from && (c === SPACE || (c >= 9 && c <= 13)); c = line.charCodeAt(--e - 1));
  return e > from && line.charCodeAt(e - 1) >= 128 ? -1 : e;
}

/** hotspotStateWords on the line from `from`, with indexes; null where that returns null, or for odd whitespace. */
function scanStateWords(line: string, from: number): string | null {
  let end = trimmedEnd(line, from, line.length);
  if (end < 0) return null;
  if (line.charCodeAt(end - 1) === CLOSE_BRACKET) {
    const open = line.lastIndexOf('[', end - 1);
    if (open >= from) {
      // `[0x...]`, the stack address; any other bracket is left to the general parser.
      if (!line.startsWith('0x', open + 1) || hexEnd(line, open + 3) !== end - 1 || end - 1 === open + 3) return null;
      end = trimmedEnd(line, from, open);
      if (end < 0) return null;
    }
  }
  const bracket = line.indexOf('[', from);
  const equals = line.indexOf('=', from);
  if ((bracket >= 0 && bracket < end) || (equals >= 0 && equals < end)) return null;
  return line.slice(from, end);
}

export function parseHotspotTail(name: string, tail: string): ThreadHeader {
  return parseCommonHotspotTail(name, tail) ?? parseAnyHotspotTail(name, tail);
}

function parseCommonHotspotTail(name: string, tail: string): ThreadHeader | null {
  const m = COMMON_HOTSPOT_HEAD.exec(tail);
  if (m === null) return null;
  const stateText = hotspotStateWords(tail.slice(m[0].length));
  if (stateText === null) return null;
  const h: ThreadHeader = { name, format: 'hotspot', daemon: m[3] !== undefined, virtual: false };
  if (m[1] !== undefined) h.javaId = m[1];
  h.priority = Number(m[4]);
  if (m[5] !== undefined) h.cpuMs = Number(m[5]);
  if (m[6] !== undefined) h.elapsedS = Number(m[6]);
  h.address = m[7]!.toLowerCase();
  h.nativeId = toHex(m[8]!);
  if (stateText.length > 0) {
    h.headerState = stateText;
    const state = stateFromHotspotWords(stateText);
    if (state !== undefined) h.state = state;
  }
  return h;
}

/** Every other HotSpot header: VM threads without ids, extra fields (`allocated=`, `lwp_id=`), odd spacing. */
export function parseAnyHotspotTail(name: string, tail: string): ThreadHeader {
  const h: ThreadHeader = { name, format: 'hotspot', daemon: false, virtual: false };
  let rest = tail;
  const idm = /^#(\d+)(?: \[(\d+)\])?/.exec(rest);
  if (idm) {
    h.javaId = idm[1]!;
    if (idm[2] !== undefined) h.nativeId = toHex(idm[2]);
    rest = rest.slice(idm[0].length);
  }
  if (/(?:^| )daemon(?: |$)/.test(rest)) h.daemon = true;
  if (/(?:^| )virtual(?: |$)/.test(rest)) h.virtual = true;
  const prio = /(?:^| )prio=(\d+)/.exec(rest);
  if (prio) h.priority = Number(prio[1]);
  const cpu = / cpu=([\d.]+)ms/.exec(rest);
  if (cpu) h.cpuMs = Number(cpu[1]);
  const el = / elapsed=([\d.]+)s/.exec(rest);
  if (el) h.elapsedS = Number(el[1]);
  const tid = /(?:^| )tid=(0x[0-9a-fA-F]+|\d+)/.exec(rest);
  if (tid) h.address = tid[1]!.toLowerCase();
  const nid = / ?nid=(0x[0-9a-fA-F]+|\d+)/.exec(rest);
  let stateText = '';
  if (nid) {
    h.nativeId = toHex(nid[1]!);
    stateText = rest.slice(nid.index + nid[0].length);
  } else if (tid) {
    stateText = rest.slice(tid.index + tid[0].length);
  } else {
    // VM threads of some versions: `"VM Thread" os_prio=0 cpu=.. elapsed=.. runnable`.
    stateText = rest.replace(/\S+=\S+/g, '');
  }
  stateText = stateText.replace(/\[[0-9a-fA-Fx.]*\]\s*$/, '').replace(/\b(?:lwp_id|allocated|defined_classes)=\S+/g, '').trim();
  if (stateText.length > 0) {
    h.headerState = stateText;
    const state = stateFromHotspotWords(stateText);
    if (state !== undefined) h.state = state;
  }
  return h;
}

/** Header words of VM threads that print no `java.lang.Thread.State:` line. */
export function stateFromHotspotWords(words: string): JavaThreadState | undefined {
  if (words.startsWith('runnable')) return 'RUNNABLE';
  if (words.startsWith('waiting for monitor entry')) return 'BLOCKED';
  if (words.startsWith('sleeping')) return 'TIMED_WAITING';
  if (words.startsWith('in Object.wait') || words.startsWith('waiting on condition') || words.startsWith('parking')) return 'WAITING';
  return undefined;
}

function parseThreadInfoTail(name: string, tail: string): ThreadHeader {
  const h: ThreadHeader = { name, format: 'threadinfo', daemon: false, virtual: false };
  if (/(?:^| )daemon(?: |$)/.test(tail)) h.daemon = true;
  if (/(?:^| )virtual(?: |$)/.test(tail)) h.virtual = true;
  const prio = /(?:^| )prio=(\d+)/.exec(tail);
  if (prio) h.priority = Number(prio[1]);
  const m = /(?:^| )Id=(\d+) (?:in )?([A-Z_]+)(.*)$/.exec(tail);
  if (!m) return h;
  h.javaId = m[1]!;
  const state = javaStateNamed(m[2]!);
  if (state !== undefined) h.state = state;
  h.headerState = m[2]!;
  let rest = m[3]!;
  const owner = / owned by "(.*)" Id=(\d+)/.exec(rest);
  if (owner) {
    h.lockOwnerName = owner[1]!;
    h.lockOwnerId = owner[2]!;
    rest = rest.slice(0, owner.index) + rest.slice(owner.index + owner[0].length);
  }
  const on = /^ on (\S+)/.exec(rest);
  if (on) {
    const lock = parseLockRef(on[1]!);
    if (lock) h.lock = lock;
  }
  if (rest.includes('(in native)')) h.stateDetail = 'in native';
  return h;
}

function parseJmxLegacyTail(name: string, tail: string): ThreadHeader {
  const m = /^id=(\d+) in ([A-Z_]+)(.*)$/.exec(tail);
  const h: ThreadHeader = { name, format: 'jmx-legacy', daemon: false, virtual: false };
  if (!m) return h;
  h.javaId = m[1]!;
  const state = javaStateNamed(m[2]!);
  if (state !== undefined) h.state = state;
  h.headerState = m[2]!;
  const rest = m[3]!;
  const on = /on lock=(\S+)/.exec(rest);
  if (on) {
    const lock = parseLockRef(on[1]!);
    if (lock) h.lock = lock;
  }
  const owner = /owned by[= ]"?([^"]+)"?(?: id=\d+)?/.exec(rest);
  if (owner) h.lockOwnerName = owner[1]!.trim();
  if (rest.includes('(running in native)')) h.stateDetail = 'in native';
  return h;
}

function parseJrockitTail(name: string, tail: string): ThreadHeader {
  const h: ThreadHeader = { name, format: 'jrockit', daemon: false, virtual: false };
  const id = /(?:^| )id=(\S+)/.exec(tail);
  if (id && id[1] !== '?') h.javaId = id[1]!;
  const tid = /(?:^| )tid=(\S+)/.exec(tail);
  if (tid) h.nativeId = toHex(tid[1]!);
  const prio = /(?:^| )prio=(\d+)/.exec(tail);
  if (prio) h.priority = Number(prio[1]);
  const flagsText = tail.replace(/\S+=\S+/g, '').trim();
  const flags = flagsText.split(',').map((f) => f.trim()).filter((f) => f.length > 0);
  h.headerState = flags.join(', ');
  h.daemon = flags.includes('daemon');
  if (flags.includes('blocked')) h.state = 'BLOCKED';
  else if (flags.includes('sleeping')) h.state = 'TIMED_WAITING';
  else if (flags.includes('parked')) { h.state = 'WAITING'; h.stateDetail = 'parking'; }
  else if (flags.includes('waiting')) h.state = 'WAITING';
  else h.state = 'RUNNABLE'; // alive, in native, native_waiting: running as far as Java is concerned
  return h;
}

/** Native ids are compared in hex; JDK 21 on some platforms and JRockit print them in decimal. */
export function toHex(v: string): string {
  // Most ids are already `0x` and lower-case hex without leading zeros: the same string.
  if (v.length > 2 && v.charCodeAt(0) === 48 && v.charCodeAt(1) === 120 && v.charCodeAt(2) !== 48 && isLowerHexFrom(v, 2)) return v;
  const s = v.trim().toLowerCase();
  if (s.startsWith('0x')) return '0x' + s.slice(2).replace(/^0+(?=.)/, '');
  if (/^\d+$/.test(s)) return '0x' + Number(s).toString(16);
  return s;
}

function isLowerHexFrom(v: string, from: number): boolean {
  for (let i = from; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}
