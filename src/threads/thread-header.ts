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
const HASH = 35;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** The end of the run of characters from `from` that `accept` takes. */
function runEnd(line: string, from: number, accept: (c: number) => boolean): number {
  let p = from;
  while (p < line.length && accept(line.charCodeAt(p))) p++;
  return p;
}
const isDigitCode = (c: number) => c >= 48 && c <= 57;
const isHexCode = (c: number) => isDigitCode(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isDecimalCode = (c: number) => isDigitCode(c) || c === 46;

/**
 * The header nearly every HotSpot thread has, read with indexes instead of patterns: a big dump has
 * one per thread, and this runs several times faster than findNameEnd plus COMMON_HOTSPOT_HEAD.
 * It takes only the exact layout (one space after the name, fields in HotSpot's order) and returns
 * null for anything else, which parseAnyThreadHeader then reads; where it answers, the answer is the
 * same (a test holds the two equal on every header of the corpus and the fixtures).
 */
export function scanCommonHotspotHeader(line: string): ThreadHeader | null {
  const nameEnd = line.indexOf('"', 1);
  if (nameEnd < 0 || line.charCodeAt(nameEnd + 1) !== SPACE) return null;
  let p = nameEnd + 2;
  let javaId: string | undefined;
  if (line.charCodeAt(p) === HASH) {
    const idEnd = runEnd(line, p + 1, isDigitCode);
    if (idEnd === p + 1 || line.charCodeAt(idEnd) !== SPACE) return null;
    javaId = line.slice(p + 1, idEnd);
    p = idEnd + 1;
    if (line.charCodeAt(p) === OPEN_BRACKET) {
      const osEnd = runEnd(line, p + 1, isDigitCode);
      if (osEnd === p + 1 || line.charCodeAt(osEnd) !== CLOSE_BRACKET || line.charCodeAt(osEnd + 1) !== SPACE) return null;
      p = osEnd + 2;
    }
  }
  const daemon = line.startsWith('daemon ', p);
  if (daemon) p += 7;
  if (!line.startsWith('prio=', p)) return null;
  const prioEnd = runEnd(line, p + 5, isDigitCode);
  if (prioEnd === p + 5 || line.charCodeAt(prioEnd) !== SPACE) return null;
  const priority = Number(line.slice(p + 5, prioEnd));
  p = prioEnd + 1;
  if (line.startsWith('os_prio=', p)) {
    const from = line.charCodeAt(p + 8) === 45 /* - */ ? p + 9 : p + 8;
    const osPrioEnd = runEnd(line, from, isDigitCode);
    if (osPrioEnd === from || line.charCodeAt(osPrioEnd) !== SPACE) return null;
    p = osPrioEnd + 1;
  }
  let cpuMs: number | undefined;
  if (line.startsWith('cpu=', p)) {
    const cpuEnd = runEnd(line, p + 4, isDecimalCode);
    if (cpuEnd === p + 4 || !line.startsWith('ms ', cpuEnd)) return null;
    cpuMs = Number(line.slice(p + 4, cpuEnd));
    p = cpuEnd + 3;
  }
  let elapsedS: number | undefined;
  if (line.startsWith('elapsed=', p)) {
    const elapsedEnd = runEnd(line, p + 8, isDecimalCode);
    if (elapsedEnd === p + 8 || !line.startsWith('s ', elapsedEnd)) return null;
    elapsedS = Number(line.slice(p + 8, elapsedEnd));
    p = elapsedEnd + 2;
  }
  if (!line.startsWith('tid=0x', p)) return null;
  const tidEnd = runEnd(line, p + 6, isHexCode);
  if (tidEnd === p + 6 || !line.startsWith(' nid=', tidEnd)) return null;
  const address = line.slice(p + 4, tidEnd).toLowerCase();
  p = tidEnd + 5;
  let nidEnd: number;
  if (line.startsWith('0x', p)) {
    nidEnd = runEnd(line, p + 2, isHexCode);
    if (nidEnd === p + 2) return null;
  } else {
    nidEnd = runEnd(line, p, isDigitCode);
    if (nidEnd === p) return null;
  }
  const nativeId = toHex(line.slice(p, nidEnd));
  const stateText = hotspotStateWords(line.slice(nidEnd));
  if (stateText === null) return null;
  const h: ThreadHeader = { name: line.slice(1, nameEnd), format: 'hotspot', daemon, virtual: false };
  if (javaId !== undefined) h.javaId = javaId;
  h.priority = priority;
  if (cpuMs !== undefined) h.cpuMs = cpuMs;
  if (elapsedS !== undefined) h.elapsedS = elapsedS;
  h.address = address;
  h.nativeId = nativeId;
  if (stateText.length > 0) {
    h.headerState = stateText;
    const state = stateFromHotspotWords(stateText);
    if (state !== undefined) h.state = state;
  }
  return h;
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
  const s = v.trim().toLowerCase();
  if (s.startsWith('0x')) return '0x' + s.slice(2).replace(/^0+(?=.)/, '');
  if (/^\d+$/.test(s)) return '0x' + Number(s).toString(16);
  return s;
}
