/**
 * What a file's head is made of, from its content, never from its name: the first bytes and the first
 * ~64 KB of text. Binary data, a JSON document, or text; which input format it holds is the
 * registry's to say (formats.ts), each format's `detect` reading this once-prepared head.
 */
export interface InputHead {
  /** The first bytes, decompressed when the file is gzip. */
  readonly bytes: Buffer;
  /** `bytes` decoded. */
  readonly text: string;
  /** The first 32 bytes as Latin-1, for binary signatures. */
  readonly ascii: string;
  readonly form: 'binary' | 'json' | 'text';
  /** For binary data that is no input format: what it is, in a sentence's words (`a zip archive`). */
  readonly binary?: string;
  /** An HPROF cut within its header: nothing of it can be read. */
  readonly cutHprof?: true;
  /** For JSON: the document from its first character (a BOM and HTTP headers taken off). */
  readonly json?: string;
}

/** A run of NULs at least this long is a hole, not binary data. */
const SPARSE_HOLE_MIN = 64;

/** `JAVA PROFILE 1.0.2`, its NUL, the id size (4 bytes) and the time (8 bytes). */
const HPROF_HEADER_MIN = 19 + 4 + 8;

/** An HPROF heap dump's magic, with its version. */
export const HPROF_MAGIC = /^JAVA PROFILE (1\.0\.\d)/;

export function inputHead(bytes: Buffer, text: string): InputHead {
  const ascii = bytes.subarray(0, 32).toString('latin1');
  const base = { bytes, text, ascii };
  if (HPROF_MAGIC.test(ascii)) return { ...base, form: 'binary' };
  const binary = binaryKind(bytes, ascii, text);
  if (binary !== undefined) return { ...base, form: 'binary', ...binary };
  const body = stripHttpHeaders(text.replace(/^\uFEFF/, '')).trimStart();
  // A log line may start with `[`; JSON here is an object, or an array of objects/arrays.
  // Docker's json-file log is a JSON object a line, each holding a line of output: text (see threads/line-prefix.ts).
  if ((body.startsWith('{') || /^\[\s*[{[\]]/.test(body)) && !isJsonLinesLog(body)) return { ...base, form: 'json', json: body };
  return { ...base, form: 'text' };
}

/** What binary data the head is, when it is binary and no input format; undefined for text. */
function binaryKind(headBytes: Buffer, ascii: string, headText: string): { binary: string; cutHprof?: true } | undefined {
  if (ascii.slice(2).startsWith('portable heap dump'))
    return { binary: 'an IBM Portable Heap Dump (PHD, from an OpenJ9/IBM JVM); dumpsleuth reads HotSpot HPROF heap dumps' };
  if (ascii.startsWith('PK\u0003\u0004')) return { binary: 'a zip archive' };
  if (ascii.startsWith('\u0089PNG\r\n\u001a\n')) return { binary: 'a PNG image' };
  if (ascii.startsWith('\u00ff\u00d8\u00ff')) return { binary: 'a JPEG image' };
  if (ascii.startsWith('GIF8')) return { binary: 'a GIF image' };
  // The magic alone, or part of it: an HPROF cut within its header, of which nothing can be read.
  if (headBytes.length < HPROF_HEADER_MIN && headBytes.length >= 4 && 'JAVA PROFILE 1.0.'.startsWith(ascii.slice(0, 17)))
    return { binary: `an HPROF heap dump cut within its header (${headBytes.length} bytes)`, cutHprof: true };
  if (ascii.startsWith('\u007fELF')) return { binary: 'an executable (ELF)' };
  if (ascii.startsWith('%PDF')) return { binary: 'a PDF document' };
  if (ascii.startsWith('BZh')) return { binary: 'bzip2-compressed data' };
  if (ascii.startsWith('\u00fd7zXZ')) return { binary: 'xz-compressed data' };
  // Control characters say binary data; a long run of NULs does not: it is the hole of a sparse file
  // (a log truncated in place while its writer goes on), which the text reader drops, and says so.
  let controls = 0;
  let textChars = 0;
  let nulRun = 0;
  const n = Math.min(headText.length, 8192);
  for (let i = 0; i <= n; i++) {
    const c = i < n ? headText.charCodeAt(i) : -1;
    if (c === 0) {
      nulRun++;
      continue;
    }
    if (nulRun > 0 && nulRun < SPARSE_HOLE_MIN) {
      controls += nulRun;
      textChars += nulRun;
    }
    nulRun = 0;
    if (c < 0) break;
    textChars++;
    if (c < 9 || c === 0xfffd) controls++;
  }
  if (textChars > 0 && controls > textChars * 0.1) return { binary: 'binary data' };
  return undefined;
}

/** Whether the first lines are each a one-line JSON object with a `log` string (Docker's json-file log). */
function isJsonLinesLog(body: string): boolean {
  const lines = body.split('\n', 6).filter((l) => l.trim() !== '');
  return lines.length >= 2 && lines.slice(0, 5).every((l) => l.startsWith('{"log":"') && l.trimEnd().endsWith('}'));
}

function stripHttpHeaders(text: string): string {
  if (!/^HTTP\/\d(?:\.\d)? \d{3}/.test(text)) return text;
  const m = /\r?\n\r?\n/.exec(text);
  return m ? text.slice(m.index + m[0].length) : text;
}

/**
 * Whether a line opens like an application log's line: a date, a bracketed date or level, a
 * WebLogic `<2024/...`. A log line may start with `[` (WebSphere's `[10/1/24 12:00:00:000 UTC]`,
 * `[INFO]`): dated lines are logs first.
 */
export function looksLikeLogLine(line: string): boolean {
  return /^\d{4}-\d{2}-\d{2}|^\[\d|^<\d{4}\/|^\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\]/.test(line.trim());
}

/** One line saying what a non-dump looked like, for the error message. */
export function describeText(headText: string): string {
  // NUL characters are dropped when the text is read: a file of them alone is a hole, not a line.
  if (headText.includes('\u0000') && headText.replaceAll('\u0000', '').trim() === '')
    return 'NUL bytes only (the hole of a sparse file, or a file written over with zeros)';
  const lines = headText.split(/\r?\n/).filter((l) => l.replaceAll('\u0000', '').trim().length > 0);
  const first = lines[0]?.trim() ?? '';
  if (lines.length === 0) return headText.length === 0 ? 'an empty file' : 'a file of blank lines';
  if (/^top - \d/.test(first) || /^[ \t]*PID[ \t]+USER[ \t]+PR/m.test(headText)) return '`top` output (per-thread CPU), not a thread dump';
  if (/^[ \t]*num[ \t]+#instances[ \t]+#bytes[ \t]+class name/m.test(headText)) return 'a class histogram (jmap -histo), not a thread dump';
  if (looksLikeLogLine(first)) return `a log file with no thread dump in it (first line: "${clip(first)}")`;
  if (/^\s*(?:\{\s*(?:"|\}|$)|\[\s*(?:[{["\]\d-]|$))/.test(first)) return 'JSON that is neither a jcmd nor a Spring Boot actuator thread dump';
  return `text with no thread dump in it (first line: "${clip(first)}")`;
}

/** C0 and C1 control characters: a quoted first line must not move the terminal's cursor. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

function clip(s: string): string {
  const clean = s.replace(CONTROL_CHARACTERS, '');
  return clean.length > 80 ? clean.slice(0, 77) + '...' : clean;
}
