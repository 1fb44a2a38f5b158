/**
 * Thread header lines of the text formats:
 *   HotSpot     "main" #1 [1234] prio=5 os_prio=0 cpu=5.1ms elapsed=2.2s tid=0x.. nid=0x.. waiting on condition [0x..]
 *   VisualVM    "main" - Thread t@1          (Spring Boot's text/plain threaddump too, sometimes just "main")
 *   ThreadInfo  "main" daemon prio=5 Id=1 BLOCKED on java.lang.Object@1b6d owned by "x" Id=9   (Arthas, Dubbo_JStack.log)
 *   JMX legacy  "main" id=1 in BLOCKED on lock=java.lang.Object@1b6d
 *   JRockit     "main" id=1 idx=0x4 tid=27878 prio=5 alive, in native, waiting
 */
import { withoutKeyValues } from '../model/text-scan.js';
import type { JavaThreadState, LockRef, ThreadDumpFormat, ThreadEntry } from '../model/thread-dump.js';
import { javaStateNamed, parseLockRef } from './frame-text.js';

/** The fields a header line gives, with the same names and meanings as on ThreadEntry. */
type HeaderOptionalField =
  'javaId' | 'nativeId' | 'address' | 'priority' | 'cpuMs' | 'elapsedS' | 'headerState' | 'state' | 'stateDetail' | 'lockOwnerName' | 'lockOwnerId';

/** What a header can say of a thread; a field it does not give may be absent or set to undefined (hot paths keep one object shape). */
type ThreadHeaderFields = Pick<ThreadEntry, 'name' | 'daemon' | 'virtual'> & { [K in HeaderOptionalField]?: ThreadEntry[K] | undefined };

export interface ThreadHeader extends ThreadHeaderFields {
  format: Extract<ThreadDumpFormat, 'hotspot' | 'visualvm' | 'threadinfo' | 'jmx-legacy' | 'jrockit'>;
  /** The lock a ThreadInfo / JMX header says the thread is blocked or waiting on. */
  lock?: LockRef;
}

// What may follow the closing quote of a thread name. Anything else means the quote is part of the name.
const AFTER_NAME =
  /^ +(?:#\d|\[|daemon\b|virtual\b|prio=|os_prio=|tid=|nid=|Id=\d|id=|\(id:|- Thread t@|lwp_id=|cpu=|in [A-Z_]+|runnable|waiting|sleeping|[A-Z_]+\b)/;

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
 * The fields nearly every HotSpot header has (JDK 6 to 25), up to the native id, in one sticky match
 * from after the name: `#1 [123] daemon prio=5 os_prio=0 cpu=1.2ms elapsed=3.4s tid=0x.. nid=0x..`;
 * then the state words and the stack address (`waiting on condition  [0x..]`), taken apart in code.
 * (As one regex, the state words and the spaces around the address could each take a long run of
 * whitespace, and a damaged header with thousands of them took half a minute to fail; found by fuzzing.)
 */
const COMMON_HOTSPOT_FIELDS = new RegExp(
  /(?:#(\d+) (?:\[\d+\] )?)?(daemon )?prio=(\d+) (?:os_prio=-?\d+ )?/.source +
    /(?:cpu=([\d.,']+)ms )?(?:elapsed=([\d.,']+)s )?tid=(0x[0-9a-fA-F]+) nid=(0x[0-9a-fA-F]+|\d+)/.source,
  'y',
);

const SPACE = 32;

/**
 * The header nearly every HotSpot thread has, on the whole line: a big dump has one per thread, and
 * this skips the trimming and the tries of other formats that parseAnyThreadHeader makes. It takes a
 * name without quotes followed by one space, and returns null for anything else, which
 * parseAnyThreadHeader then reads (a test holds the two equal on every header of the corpus and the
 * fixtures). The lines are slices of a chunk, on which V8 reads characters one at a time slowly, so
 * the characters are left to the regex engine.
 */
export function scanCommonHotspotHeader(line: string): ThreadHeader | null {
  const nameEnd = line.indexOf('"', 1);
  if (nameEnd < 0 || line.charCodeAt(nameEnd + 1) !== SPACE) return null;
  return commonHotspotHeader(line.slice(1, nameEnd), line, nameEnd + 2);
}

/**
 * The common HotSpot fields of `text` from `from` to its end; null unless that is all there is.
 * The sticky regex only says whether the fields are there and where they end (test, no captures);
 * the fields are then read in place, knowing their order. A match array and a substring per field
 * for every thread of a 200,000-thread dump were a sixth of all the parse allocated.
 */
function commonHotspotHeader(name: string, text: string, from: number): ThreadHeader | null {
  COMMON_HOTSPOT_FIELDS.lastIndex = from;
  if (!COMMON_HOTSPOT_FIELDS.test(text)) return null;
  const afterNid = COMMON_HOTSPOT_FIELDS.lastIndex;
  const wordsFrom = text.charCodeAt(afterNid) === SPACE ? afterNid + 1 : afterNid;
  const stateText = knownStateWords(text, wordsFrom) ?? stateWords(text, wordsFrom);
  if (stateText === null) return null;
  // The regex matched `#1 [123] daemon prio=5 os_prio=0 cpu=1.2ms elapsed=3.4s tid=0x.. nid=0x..`,
  // each part but prio, tid and nid optional, one space apart: walk them in that order.
  let p = from;
  let javaId: string | undefined;
  if (text.charCodeAt(p) === 35 /* # */) {
    const end = text.indexOf(' ', p);
    javaId = text.slice(p + 1, end);
    p = end + 1;
    if (text.charCodeAt(p) === 91 /* [ */) p = text.indexOf(' ', p) + 1;
  }
  const daemon = text.startsWith('daemon ', p);
  if (daemon) p += 7;
  p += 5; // prio=
  const prioEnd = text.indexOf(' ', p);
  const priority = decimalAt(text, p, prioEnd);
  p = prioEnd + 1;
  if (text.startsWith('os_prio=', p)) p = text.indexOf(' ', p) + 1;
  let cpuMs: number | undefined;
  if (text.startsWith('cpu=', p)) {
    const end = text.indexOf('ms ', p + 4);
    cpuMs = decimalAt(text, p + 4, end);
    p = end + 3;
  }
  let elapsedS: number | undefined;
  if (text.startsWith('elapsed=', p)) {
    const end = text.indexOf('s ', p + 8);
    elapsedS = decimalAt(text, p + 8, end);
    p = end + 2;
  }
  const tidEnd = text.indexOf(' ', p + 4);
  const address = text.slice(p + 4, tidEnd).toLowerCase();
  const nativeId = toHex(text.slice(tidEnd + 5, afterNid));
  // One literal, every field in it (absent ones undefined, which every reader treats as absent): no property array to grow.
  const hasWords = stateText.length > 0;
  return {
    name,
    format: 'hotspot',
    daemon,
    virtual: false,
    javaId,
    priority,
    cpuMs,
    elapsedS,
    address,
    nativeId,
    headerState: hasWords ? stateText : undefined,
    state: hasWords ? stateFromHotspotWords(stateText) : undefined,
  };
}

/**
 * Number(text.slice(from, end)) for `[\d.]+`, without the substring: the digits as one integer over
 * a power of ten is the same double (both exact, and one division rounds as parsing does), while the
 * integer stays below 2^53. Anything else (two dots, 16 digits) goes to Number.
 */
function decimalAt(text: string, from: number, end: number): number {
  let n = 0;
  let digits = 0;
  let dot = -1;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      if (dot >= 0) return localeNumber(text.slice(from, end));
      dot = i;
    } else if (c < 48 || c > 57) {
      return localeNumber(text.slice(from, end));
    } else {
      n = n * 10 + (c - 48);
      digits++;
    }
  }
  if (digits === 0 || digits > 15) return localeNumber(text.slice(from, end));
  return dot < 0 ? n : n / POWERS_OF_TEN[end - dot - 1]!;
}

/**
 * A number as a JVM prints it in any locale: `1234.56`, `1234,56` (a decimal comma), `1,234.56`,
 * `1.234,56`, `1'234.56` (grouping). HotSpot prints cpu= and elapsed= with two decimals, so the last
 * separator is the decimal one unless exactly three digits follow it (then it groups thousands). NaN
 * when it is not a number at all.
 */
function localeNumber(text: string): number {
  // Digits and dots only: as Number reads them (`1.5.6` is not a number).
  if (!/[,'\u00a0]/.test(text)) return Number(text);
  if (!/^\d[\d.,'\u00a0]*$/.test(text)) return NaN;
  const last = Math.max(text.lastIndexOf('.'), text.lastIndexOf(','));
  // Three digits after the last separator: it groups thousands, and there is no fraction.
  const fractional = last >= 0 && text.length - last - 1 !== 3;
  const whole = fractional ? text.slice(0, last) : text;
  const groups = whole.split(/[.,'\u00a0]/);
  if (groups.some((g, k) => g.length === 0 || (k > 0 && g.length !== 3))) return NaN;
  return Number(fractional ? `${groups.join('')}.${text.slice(last + 1)}` : groups.join(''));
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * One of the words HotSpot prints after `nid=` for nearly every thread, then optionally the stack
 * address, then spaces to the end; sticky, tried from where the words start.
 */
const KNOWN_STATE_WORDS_TAIL = /(?:runnable|waiting on condition|in Object\.wait\(\)|waiting for monitor entry|sleeping|parking)(?: +\[0x[0-9a-fA-F]+\])? *$/y;

/**
 * stateWords for the common words, as a constant (no copy cut, nothing to intern); undefined for
 * anything else. The first letters tell the words apart.
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

/** What String.prototype.trim removes: ECMAScript's white space and line terminators. */
function isTrimmed(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The end of `line` before `end` without the white space it ends with, not going below `from`. */
function trimmedEnd(line: string, from: number, end: number): number {
  let e = end;
  while (e > from && isTrimmed(line.charCodeAt(e - 1))) e--;
  return e;
}

function hexEnd(line: string, from: number): number {
  let p = from;
  for (let c = line.charCodeAt(p); (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70); c = line.charCodeAt(++p));
  return p;
}

/**
 * The state words from `from` to the end of the line, without the stack address (`[0x..]`) and the
 * white space around it; null when anything else follows (another bracket, a `key=value`).
 */
function stateWords(line: string, from: number): string | null {
  let end = trimmedEnd(line, from, line.length);
  if (line.charCodeAt(end - 1) === 93 /* ] */) {
    const open = line.lastIndexOf('[', end - 1);
    if (open >= from) {
      if (!line.startsWith('0x', open + 1) || end - 1 === open + 3 || hexEnd(line, open + 3) !== end - 1) return null;
      end = trimmedEnd(line, from, open);
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
  return commonHotspotHeader(name, tail, 0);
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
  const cpu = / cpu=([\d.,']+)ms/.exec(rest);
  if (cpu) h.cpuMs = localeNumber(cpu[1]!);
  const el = / elapsed=([\d.,']+)s/.exec(rest);
  if (el) h.elapsedS = localeNumber(el[1]!);
  const tid = /(?:^| )tid=(0x[0-9a-fA-F]+|\d+)/.exec(rest);
  if (tid) h.address = tid[1]!.toLowerCase();
  const nid = / ?nid=(0x[0-9a-fA-F]+|\d+)/.exec(rest);
  let stateText: string;
  if (nid) {
    h.nativeId = toHex(nid[1]!);
    stateText = rest.slice(nid.index + nid[0].length);
  } else if (tid) {
    stateText = rest.slice(tid.index + tid[0].length);
  } else {
    // VM threads of some versions: `"VM Thread" os_prio=0 cpu=.. elapsed=.. runnable`.
    stateText = withoutKeyValues(rest);
  }
  stateText = stateText
    .replace(/\[[0-9a-fA-Fx.]*\]\s*$/, '')
    .replace(/\b(?:lwp_id|allocated|defined_classes)=\S+/g, '')
    .trim();
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
  const m = /(?:^| )Id=(\d+) (?:in )?([A-Z_]+)/.exec(tail);
  if (!m) return h;
  h.javaId = m[1]!;
  const state = javaStateNamed(m[2]!);
  if (state !== undefined) h.state = state;
  h.headerState = m[2]!;
  let rest = tail.slice(m.index + m[0].length);
  const owner = / owned by "([^"]*)" Id=(\d+)/.exec(rest);
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
  const m = /^id=(\d+) in ([A-Z_]+)/.exec(tail);
  const h: ThreadHeader = { name, format: 'jmx-legacy', daemon: false, virtual: false };
  if (!m) return h;
  h.javaId = m[1]!;
  const state = javaStateNamed(m[2]!);
  if (state !== undefined) h.state = state;
  h.headerState = m[2]!;
  const rest = tail.slice(m[0].length);
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
  const flagsText = withoutKeyValues(tail).trim();
  const flags = flagsText
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f.length > 0);
  h.headerState = flags.join(', ');
  h.daemon = flags.includes('daemon');
  if (flags.includes('blocked')) h.state = 'BLOCKED';
  else if (flags.includes('sleeping')) h.state = 'TIMED_WAITING';
  else if (flags.includes('parked')) {
    h.state = 'WAITING';
    h.stateDetail = 'parking';
  } else if (flags.includes('waiting')) h.state = 'WAITING';
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
