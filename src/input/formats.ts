/**
 * The input formats dumpsleuth reads, one entry each: what it is (`kind`), what it is read as
 * (`role`: the analysis routes on it), how its content is recognised from a file's head (`detect`,
 * never the file's name) and how it is named to the user. `identify` asks the registry once per file,
 * and every later step (loading, batch, the heap commands) goes by that one answer. Which parser reads
 * a kind is the analysis layer's to say (analysis/load-threads.ts, analysis/heap-file.ts): this layer
 * only recognises.
 */
import { describeText, HPROF_MAGIC, type InputHead } from './sniff.js';

/** What a format is read as: thread dumps, a heap dump, or a log's known lines (and `top -H` samples). */
export type InputRole = 'threads' | 'heap' | 'log';

export interface InputFormat {
  readonly kind: string;
  readonly role: InputRole;
  /** Whether a Java process wrote it, so `analyze` reads it (a V8 snapshot is a heap dump of another runtime). */
  readonly java: boolean;
  /** Its files as the "accepted:" line of an error names them; undefined for what is no format of its own (other text, other JSON). */
  readonly accepted?: string;
  /** Whether the head is this format's. Entries are asked in their order; the first that says yes is the file's format. */
  readonly detect: (head: InputHead) => boolean;
  /** What the file is, in a sentence's words (`an HPROF heap dump (JAVA PROFILE 1.0.2)`), for errors. */
  readonly describe: (head: InputHead) => string;
}

/** dumpsleuth's own JSON heap snapshot opens with its format id. */
const HEAP_SNAPSHOT_HEAD = /^\s*\{\s*"format"\s*:\s*"dumpsleuth\.heap\/\d+"/;

/** The sections and thread lines only an IBM/OpenJ9 javacore has. */
const JAVACORE_HEAD = /^(?:0SECTION|1TISIGINFO|1TIDATETIME|1XMTHDINFO|3XMTHREADINFO)\b/m;

const asText = (head: InputHead) => describeText(head.text);

/**
 * Every input format, in the order they are asked: the more particular before the more general (a
 * dumpsleuth snapshot is JSON, a javacore is text; other text and other JSON are read as logs, last).
 * The `accepted` lines of errors list each role's formats in this order.
 */
export const INPUT_FORMATS = [
  {
    kind: 'hprof',
    role: 'heap',
    java: true,
    accepted: 'HPROF heap dumps (jmap, -XX:+HeapDumpOnOutOfMemoryError, actuator /heapdump; plain or gzip)',
    detect: (head) => HPROF_MAGIC.test(head.ascii),
    describe: (head) => `an HPROF heap dump (JAVA PROFILE ${HPROF_MAGIC.exec(head.ascii)?.[1] ?? '?'})`,
  },
  {
    kind: 'dumpsleuth-heap',
    role: 'heap',
    java: true,
    accepted: 'dumpsleuth heap snapshots (dumpsleuth extract)',
    detect: (head) => head.form !== 'binary' && HEAP_SNAPSHOT_HEAD.test(head.text),
    describe: () => 'a dumpsleuth heap snapshot',
  },
  {
    kind: 'thread-dump-text',
    role: 'threads',
    java: true,
    accepted: 'jstack / jcmd Thread.print / kill -3 output (also inside logs), VisualVM, ThreadInfo (Arthas, Dubbo_JStack.log), JRockit',
    detect: (head) => head.form === 'text' && !JAVACORE_HEAD.test(head.text) && headCarriesThreadDump(head.text),
    describe: asText,
  },
  {
    kind: 'ibm-javacore',
    role: 'threads',
    java: true,
    accepted: 'IBM/OpenJ9 javacore',
    detect: (head) => head.form === 'text' && JAVACORE_HEAD.test(head.text),
    describe: asText,
  },
  {
    kind: 'jcmd-json',
    role: 'threads',
    java: true,
    accepted: 'jcmd Thread.dump_to_file JSON',
    detect: (head) => head.json !== undefined && /"threadDump"\s*:/.test(head.json),
    describe: () => 'a jcmd Thread.dump_to_file JSON thread dump',
  },
  {
    kind: 'actuator-json',
    role: 'threads',
    java: true,
    accepted: 'Spring Boot /actuator/threaddump JSON',
    // `{"threads": [{"threadName": ...`; other JSON may mention both keys anywhere.
    detect: (head) => head.json !== undefined && /^\{\s*"threads"\s*:\s*\[/.test(head.json) && /"threadName"\s*:/.test(head.json),
    describe: () => 'a Spring Boot actuator JSON thread dump',
  },
  {
    kind: 'v8-heapsnapshot',
    role: 'heap',
    java: false,
    accepted: 'V8 .heapsnapshot files',
    // It opens with its `snapshot` header, which holds `meta`; writers order the header's keys as they like (AliNode puts `title` and `uid` first).
    detect: (head) => head.json !== undefined && /^\{\s*"snapshot"\s*:\s*\{/.test(head.json) && /"meta"\s*:\s*\{/.test(head.json),
    describe: () => 'a V8 .heapsnapshot (Node.js/Chrome)',
  },
  {
    // Any other text: an application's log (its known lines, `top -H` output). A log may still hold a
    // thread dump past its head (kill -3 output deep in catalina.out); its reading watches for one.
    kind: 'text-log',
    role: 'log',
    java: true,
    detect: (head) => head.form === 'text',
    describe: asText,
  },
  {
    // Any other JSON: read for known log lines (an export of log records), else refused.
    kind: 'json-log',
    role: 'log',
    java: true,
    detect: (head) => head.form === 'json',
    describe: asText,
  },
] as const satisfies readonly InputFormat[];

export type KnownInputFormat = (typeof INPUT_FORMATS)[number];

/** The format of a head; undefined for binary data that is no format (a zip, an image, a PHD). */
export function formatOfHead(head: InputHead): KnownInputFormat | undefined {
  return INPUT_FORMATS.find((f) => (f as InputFormat).detect(head));
}

/** `accepted: …`, the formats of a role as errors list them. */
export function acceptedInputs(role: InputRole, suffix = ''): string {
  const names = INPUT_FORMATS.filter((f) => f.role === role && 'accepted' in f).map((f) => (f as InputFormat).accepted);
  return `accepted: ${names.join(', ')}${suffix}`;
}

/** No writer puts more than this before a line of a dump (a container runtime's, journald's prefix); text further in is not a prefix. */
const MAX_PREFIX = 160;

/**
 * A header's fields right after the thread's quoted name: HotSpot's `#12 `, `daemon prio=`, `prio=5`,
 * ThreadInfo's `Id=12`, VisualVM's `- Thread t@12`, the JMX form's `id=12 in`, JRockit's `id=12 idx=`.
 */
const HEADER_AFTER_NAME = /^" (?:#\d|\[\d|daemon prio=|prio=\d|os_prio=|tid=0x|nid=0x|Id=\d|- Thread t@\d|id=\d+ (?:in |idx=))/;

/** What may stand right before a dump's line: nothing, a prefix's blank, or the backslash of a quote escaped in Docker's JSON log. */
function opensLine(line: string, at: number): boolean {
  if (at === 0) return true;
  const c = line[at - 1]!;
  return c === ' ' || c === '\t' || c === '\\';
}

/**
 * Whether a line is one only a thread dump writes, behind a prefix of at most MAX_PREFIX characters:
 * the `Full thread dump …:` banner (JRockit's `===== FULL THREAD DUMP`), a `java.lang.Thread.State:`
 * line, or a thread's header (its quoted name, then a header's fields). An exception's stack trace has
 * frames, not these; prose and scripts that quote them have them inside quotes or a table.
 */
export function carriesThreadDumpMark(line: string): boolean {
  const banner = line.indexOf('Full thread dump');
  if (banner >= 0 && banner <= MAX_PREFIX && opensLine(line, banner) && line.trimEnd().endsWith(':')) return true;
  const jrockit = line.indexOf('===== FULL THREAD DUMP');
  if (jrockit >= 0 && jrockit <= MAX_PREFIX && opensLine(line, jrockit) && line.trimEnd().endsWith('=')) return true;
  const state = line.indexOf('java.lang.Thread.State: ');
  if (state >= 0 && state <= MAX_PREFIX + 3 && opensLine(line, state) && /^[A-Z]/.test(line.slice(state + 24, state + 25))) return true;
  const quote = line.indexOf('"');
  if (quote < 0 || quote > MAX_PREFIX || !opensLine(line, quote)) return false;
  // The name's closing quote: the first quote followed by a header's fields (a name may hold quotes).
  for (let end = line.indexOf('"', quote + 1); end > 0; end = line.indexOf('"', end + 1)) {
    if (HEADER_AFTER_NAME.test(line.slice(end, end + 24))) return true;
  }
  return false;
}

/** Whether any line of a head's text carries a thread dump's mark. */
function headCarriesThreadDump(text: string): boolean {
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    if (carriesThreadDumpMark(text.slice(start, end))) return true;
    start = end + 1;
  }
  return false;
}

/** Whether files of a format are dumps `analyze` reads by themselves: a Java process's thread dumps or heap dump (not a log, not another runtime's heap). */
export function isDumpFormat(format: InputFormat | undefined): boolean {
  return format !== undefined && format.java && format.role !== 'log';
}
