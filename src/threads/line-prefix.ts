/**
 * Thread dumps inside logs that put a prefix on every line: what collects a JVM's stdout (a container
 * runtime, kubectl, docker compose, journald, a service wrapper, sbt, Maven, a logging pattern that
 * repeats its prefix on every line of an event) writes `<prefix><line>` for each line of `kill -3`'s
 * output. The prefix is learned from its shape, not from a list: the text before the marks every dump
 * is made of (the `Full thread dump` banner, a thread's `"name"` header, its `java.lang.Thread.State:`
 * line, its `at` frames) is the prefix, and with every digit run made one placeholder, the same shape
 * recurs on every line of the dump (the time in it changes, its shape does not). Lines of that shape
 * are the dump's, stripped; lines of another shape (another stream, another container, another
 * process) are not the dump's. Two formats are more than a prefix and are read as what they are: the
 * CRI log of Kubernetes nodes (a record's `P` flag: the line goes on in the next record) and Docker's
 * json-file log (one JSON object per line, the line in its `log` field).
 */

/** Where the dump's own text starts on a line of a prefixed log: the marks a dump's lines begin with. */
const DUMP_MARKS: ReadonlyArray<{ readonly mark: string; readonly before: string }> = [
  { mark: 'Full thread dump ', before: '' },
  { mark: 'java.lang.Thread.State: ', before: '   ' },
  { mark: 'at ', before: '\t' },
];

/** No writer puts more than this before a line; text further in is not a prefix. */
const MAX_PREFIX = 160;

/** Marks only a thread dump has (an exception's stack trace has frames too). */
const THREAD_MARKS = ['Full thread dump ', 'java.lang.Thread.State: ', ' prio=', ' nid='];

/** A header's mark: `"name" ` then HotSpot's fields. */
const HEADER_FIELDS = [' prio=', ' tid=', ' nid=', ' daemon '];

export interface LinePrefix {
  /** How the prefix is read back: a digit run for each `0`, every other character as it is. */
  readonly shape: string;
  /** One prefix as the file has it, for the input line. */
  readonly example: string;
  /** What wrote it, when its shape is one dumpsleuth knows (else undefined). */
  readonly writer: string | undefined;
  readonly kind: 'prefix' | 'cri' | 'docker-json';
  /** For the CRI and json-file logs: the stream the dump is in (the others are not read). */
  readonly stream?: string | undefined;
}

/** The prefix of `line` before a dump mark, or undefined when no mark is on it past its start. */
function prefixBeforeMark(line: string): string | undefined {
  for (const { mark, before } of DUMP_MARKS) {
    const at = line.indexOf(before + mark);
    if (at > 0) return at <= MAX_PREFIX ? line.slice(0, at) : undefined;
  }
  // A thread header: the prefix ends at the quote that opens the name, on a line with HotSpot's fields.
  if (HEADER_FIELDS.some((f) => line.includes(f))) {
    const quote = line.indexOf('"');
    if (quote > 0 && quote <= MAX_PREFIX && line.indexOf('"', quote + 1) > quote) return line.slice(0, quote);
  }
  return undefined;
}

/** Whether a line shows a dump's mark behind something else (a prefix), or is a record of a log format that wraps lines. */
export function carriesDumpMark(line: string): boolean {
  return prefixBeforeMark(line) !== undefined || (line.startsWith('{"log":"') && line.includes('Thread'));
}

/** A prefix's shape: each run of digits one `0`, so that times and counters in it compare equal. */
export function shapeOf(prefix: string): string {
  let out = '';
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    if (!digit) out += prefix[i];
    else if (out.length === 0 || !(i > 0 && isDigit(prefix.charCodeAt(i - 1)))) out += '0';
  }
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * The content after `shape` at the start of `line`, or undefined when the line does not start with a
 * prefix of that shape. Linear in the line: each `0` takes one digit run, every other character
 * itself. A line that is the prefix alone with its trailing blanks cut (an empty line of the dump) is
 * the empty content.
 */
export function afterShape(line: string, shape: string): string | undefined {
  let i = 0;
  for (let s = 0; s < shape.length; s++) {
    const want = shape[s]!;
    if (want === '0') {
      if (i >= line.length || !isDigit(line.charCodeAt(i))) return undefined;
      while (i < line.length && isDigit(line.charCodeAt(i))) i++;
      continue;
    }
    if (i >= line.length) return shape.slice(s).trim() === '' ? '' : undefined;
    if (line[i] !== want) return undefined;
    i++;
  }
  return line.slice(i);
}

/** A CRI record: `<RFC 3339 time> <stream> <F|P> <content>` (the kubelet's node log). */
const CRI_RECORD = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) (stdout|stderr) ([FP]) ?/;

/** Known writers by the shape of their prefix, to name in the input line. Shapes as shapeOf makes them. */
const KNOWN_WRITERS: ReadonlyArray<{ readonly shape: RegExp; readonly writer: string }> = [
  { shape: /^0-0-0T0:0:0(?:\.0)?Z $/, writer: 'kubectl logs --timestamps' },
  { shape: /^[\w.-]+[-_]0 +\| (?:0-0-0T0:0:0(?:\.0)?Z )?$/, writer: 'docker compose logs' },
  { shape: /^[A-Z][a-z]{2} +0 0:0:0 \S+ [\w./-]+(?:\[0\])?: $/, writer: 'journald / syslog' },
  { shape: /^0-0-0T0:0:0(?:[+-]0)? \S+ [\w./-]+(?:\[0\])?: $/, writer: 'journald (short-iso)' },
  { shape: /^[A-Z]+ *\| jvm 0 *\| (?:0\/0\/0 0:0:0(?:\.0)? \| )?$/, writer: 'a service wrapper (Tanuki style)' },
  { shape: /^\[(?:info|warn|error|debug)\] $/, writer: 'sbt' },
  { shape: /^\[(?:INFO|WARNING|WARN|ERROR|DEBUG)\] $/, writer: 'Maven' },
];

/**
 * The prefix on the dump lines among `lines` (a file's head, or the lines of a first reading that
 * found no dump), or undefined when dump lines there carry none. At least three lines must show the
 * same prefix shape, and it must be the shape of most of them.
 */
export function learnLinePrefix(lines: readonly string[]): LinePrefix | undefined {
  const docker = learnDockerJson(lines);
  if (docker !== undefined) return docker;
  const counts = new Map<string, { n: number; example: string; streams: Map<string, number> }>();
  let marked = 0;
  for (const line of lines) {
    const cri = CRI_RECORD.exec(line);
    const content = cri !== null ? line.slice(cri[0].length) : line;
    const prefix = cri !== null ? (prefixBeforeMark(content) ?? (isDumpMark(content) ? '' : undefined)) : prefixBeforeMark(line);
    if (prefix === undefined) continue;
    marked++;
    // A CRI record's own prefix is read as a record; what is left before the mark is a prefix of its own only when there is one.
    const key = cri !== null ? `cri:${shapeOf(prefix)}` : shapeOf(prefix);
    let c = counts.get(key);
    if (c === undefined) counts.set(key, (c = { n: 0, example: cri !== null ? line.slice(0, cri[0].length) + prefix : prefix, streams: new Map() }));
    c.n++;
    if (cri !== null) c.streams.set(cri[1]!, (c.streams.get(cri[1]!) ?? 0) + 1);
  }
  let best: [string, { n: number; example: string; streams: Map<string, number> }] | undefined;
  for (const entry of counts) if (best === undefined || entry[1].n > best[1].n) best = entry;
  if (best === undefined || best[1].n < 3 || best[1].n * 2 < marked) return undefined;
  // Frames alone are an exception's as much as a dump's (a logging pattern prefixes each line of a stack
  // trace too): a thread's state line, header or the banner must be behind the prefix as well.
  if (!lines.some((l) => THREAD_MARKS.some((m) => l.includes(m)) && prefixBeforeMark(l) !== undefined)) return undefined;
  const [key, { example, streams }] = best;
  if (key.startsWith('cri:')) {
    const stream = [...streams].sort((a, b) => b[1] - a[1])[0]![0];
    return { kind: 'cri', shape: key.slice(4), example, writer: 'the CRI log of a Kubernetes node', stream };
  }
  if (key.trim() === '') return undefined;
  return { kind: 'prefix', shape: key, example, writer: KNOWN_WRITERS.find((w) => w.shape.test(key))?.writer };
}

function isDumpMark(content: string): boolean {
  return content.startsWith('Full thread dump ') || content.startsWith('\tat ') || content.startsWith('   java.lang.Thread.State: ') || content.startsWith('"');
}

/** Docker's json-file log: every line a JSON object whose `log` holds a line of the container's output. */
function learnDockerJson(lines: readonly string[]): LinePrefix | undefined {
  const streams = new Map<string, number>();
  let records = 0;
  let marked = 0;
  for (const line of lines) {
    if (!line.startsWith('{"log":"')) continue;
    const record = dockerRecord(line);
    if (record === undefined) continue;
    records++;
    if (isDumpMark(record.log) || record.log.includes('java.lang.Thread.State: ')) {
      marked++;
      streams.set(record.stream, (streams.get(record.stream) ?? 0) + 1);
    }
  }
  if (marked < 3 || records * 2 < lines.filter((l) => l.trim() !== '').length) return undefined;
  const stream = [...streams].sort((a, b) => b[1] - a[1])[0]![0];
  return { kind: 'docker-json', shape: '', example: '{"log":"…","stream":"…","time":"…"}', writer: "Docker's json-file log", stream };
}

function dockerRecord(line: string): { log: string; stream: string } | undefined {
  try {
    const v = JSON.parse(line) as { log?: unknown; stream?: unknown };
    return typeof v.log === 'string' ? { log: v.log, stream: typeof v.stream === 'string' ? v.stream : 'stdout' } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the lines of a prefixed log back as the dump's own lines: `take(line)` hands on each line
 * of the dump's stream without its prefix (a record the writer split, joined first), and `other`
 * each line that is not the dump's, so that lines keep their numbers in the file.
 */
export class PrefixedLines {
  /** The start of a line the writer split across records (CRI `P`, a json-file `log` with no `\n`). */
  private partial: string | undefined;
  /** Lines of the file not of the dump's prefix or stream. */
  otherLines = 0;

  constructor(
    private readonly prefix: LinePrefix,
    private readonly take: (line: string) => void,
    private readonly other: (raw: string) => void,
  ) {}

  push(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    switch (this.prefix.kind) {
      case 'prefix': {
        const content = afterShape(line, this.prefix.shape);
        return content === undefined ? this.skip(raw) : this.take(content);
      }
      case 'cri': {
        const cri = CRI_RECORD.exec(line);
        if (cri === null || cri[1] !== this.prefix.stream) return this.skip(raw);
        const rest = line.slice(cri[0].length);
        const content = this.prefix.shape === '' ? rest : afterShape(rest, this.prefix.shape);
        if (content === undefined) return this.skip(raw);
        return this.joined(content, cri[2] === 'P');
      }
      case 'docker-json': {
        const record = line.startsWith('{') ? dockerRecord(line) : undefined;
        if (record === undefined || record.stream !== this.prefix.stream) return this.skip(raw);
        const ended = record.log.endsWith('\n');
        const content = ended ? record.log.slice(0, record.log.endsWith('\r\n') ? -2 : -1) : record.log;
        return this.joined(content, !ended);
      }
    }
  }

  /** Hands on what is left of a split line at the end. */
  finish(): void {
    if (this.partial !== undefined) this.take(this.partial);
    this.partial = undefined;
  }

  private joined(content: string, continues: boolean): void {
    const whole = this.partial === undefined ? content : this.partial + content;
    if (continues) {
      this.partial = whole;
      // The record's line is numbered, as the file numbers it, while its rest is still to come.
      this.other('');
      this.otherLines--;
      return;
    }
    this.partial = undefined;
    this.take(whole);
  }

  private skip(raw: string): void {
    this.otherLines++;
    this.other(raw);
  }
}

/** How the input line names a stripped prefix: the writer when known, and the prefix as the file has it. */
export function describeLinePrefix(prefix: LinePrefix): string {
  const stream = prefix.stream !== undefined ? ` (its ${prefix.stream} only)` : '';
  return `${prefix.writer ?? 'a prefix'} \`${prefix.example.trimEnd()}\` stripped from every line${stream}`;
}
