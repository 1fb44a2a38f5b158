/**
 * Reads one file of thread dumps into the model: opened, and routed by its input format
 * (input/formats.ts) to the parser of that kind. A file that is not a thread dump raises an
 * InputError saying what it looked like.
 */
import { InputError } from '../errors.js';
import { acceptedInputs } from '../input/formats.js';
import { formatOf, type HeadFormat } from '../input/identify.js';
import { checkHeapRoom } from '../input/memory-guard.js';
import { forEachLine, nulsDroppedWarning, type OpenedInput, openInput, type TextEncodingName, TruncatedInputError } from '../input/open.js';
import { KnownLineCollector } from '../logs/known-lines.js';
import { linesCutWarning } from '../model/line-carry.js';
import type { LogEventModel } from '../model/model.js';
import type { ProgressListener } from '../model/progress.js';
import type { ThreadDumpFile } from '../model/thread-dump.js';
import { JavacoreParser } from '../threads/javacore-parser.js';
import { carriesDumpMark, describeLinePrefix, learnLinePrefix, type LinePrefix, PrefixedLines } from '../threads/line-prefix.js';
import { TextDumpParser } from '../threads/text-parser.js';

export interface LoadedThreadInput {
  readonly kind: 'threads';
  readonly path: string;
  readonly format: string;
  readonly gzip: boolean;
  readonly encoding: TextEncodingName;
  readonly file: ThreadDumpFile;
  /** Known log events in the lines around and between the dumps (kill -3 output inside catalina.out). */
  readonly logEvents?: LogEventModel[];
}

const ACCEPTED_INPUTS = acceptedInputs('threads', '; plain, UTF-16 or gzip');

/** A file of thread dumps read whole: its dumps, or, when it held none, the error that says what it looked like. */
export type ThreadRead = { readonly input: LoadedThreadInput } | { readonly noDump: InputError };

/**
 * The thread dumps of a file; an InputError when it holds none or is no thread dump's format.
 * `readFrom`: the file holding stdin's bytes when `path` is `-` and stdin was copied (see stdin.ts).
 * `identified`: its format, as identify found it; found again from the head only when the caller did not identify the file (a test, a bench).
 */
export async function loadThreadInput(
  path: string,
  onProgress?: ProgressListener,
  maxGunzipBytes?: number,
  readFrom?: string,
  identified?: HeadFormat,
): Promise<LoadedThreadInput> {
  const read = await readThreadInput(path, onProgress, maxGunzipBytes, readFrom, identified);
  if ('noDump' in read) throw read.noDump;
  return read.input;
}

/** loadThreadInput, with a file that held no dump given back as its error rather than thrown (the caller may read it as a log). */
export async function readThreadInput(
  path: string,
  onProgress: ProgressListener | undefined,
  maxGunzipBytes: number | undefined,
  readFrom: string | undefined,
  identified: HeadFormat | undefined,
): Promise<ThreadRead> {
  const opened = await openInput(path, onProgress, maxGunzipBytes, readFrom);
  const { headText } = opened;
  const { format, looksLike } = identified ?? formatOf(opened.headBytes, headText);
  const base = { kind: 'threads' as const, path, gzip: opened.gzip, encoding: opened.encoding };
  if (format === undefined) {
    opened.close();
    throw refusedError({ path, looksLike });
  }
  if (format.role === 'heap') {
    opened.close();
    throw heapNotThreadsError(path, format.kind, looksLike);
  }
  switch (format.kind) {
    case 'json-log':
      opened.close();
      throw new InputError(`${path} is ${looksLike}`, ACCEPTED_INPUTS);
    case 'jcmd-json':
    case 'actuator-json': {
      // Loaded here: stream-json takes long to import, and text dumps never need it.
      const { parseJsonThreadDump } = await import('../threads/json-parser.js');
      const file = await parseJsonThreadDump(path, format.kind, opened.text(), headText);
      if (file.dumps[0]!.threads.length === 0 && file.warnings.length > 0) {
        throw new InputError(`${path}: ${file.warnings[0]}`, 'check that the file is complete');
      }
      return { input: { ...base, format: format.kind, file } };
    }
    case 'ibm-javacore': {
      const parser = new JavacoreParser(path);
      let cut = 0;
      const read = await feed(opened, async (chunks) => void (cut = await forEachLine(chunks, (l) => parser.push(l))), parser);
      const file = cut > 0 ? withCut(read, linesCutWarning(cut)) : read;
      return file.dumps.length > 0 ? { input: { ...base, format: 'ibm-javacore', file } } : { noDump: noDumpError(path, looksLike, file) };
    }
    // A log is read for thread dumps too: it may hold one past its head (kill -3 output deep in catalina.out).
    case 'thread-dump-text':
    case 'text-log': {
      // A log that prefixes every line (a container runtime, journald, a wrapper): seen in the head, or
      // only past it, when a first reading found no dump but dump lines behind one prefix shape.
      const inHead = learnLinePrefix(headText.split('\n'));
      const reopened = async () => openInput(path, onProgress, maxGunzipBytes, readFrom);
      let read = await readTextDumps(path, opened, inHead);
      if (read.file.dumps.length === 0) {
        // No dump behind the prefix the head showed: the file is read as it is after all.
        if (inHead !== undefined) read = await readTextDumps(path, await reopened(), undefined);
        const later = inHead === undefined ? learnLinePrefix(read.markedOtherLines) : undefined;
        if (later !== undefined) read = await readTextDumps(path, await reopened(), later);
      }
      const file = read.file;
      if (file.dumps.length === 0) return { noDump: noDumpError(path, looksLike, file) };
      return {
        input: {
          ...base,
          format: [...new Set(file.dumps.map((d) => d.format))].join('+'),
          file,
          ...(read.logLines.matched > 0 ? { logEvents: read.logLines.events() } : {}),
        },
      };
    }
  }
  // Every kind of role threads or log has its case above: a format added to the registry without one does not compile here.
  const unread: never = format;
  throw new Error(`no reader for ${(unread as { kind: string }).kind}`);
}

/** The chunks of a text, with the heap's room checked after each (as the plain reading does). */
async function* guarded(chunks: AsyncIterable<string>, path: string): AsyncGenerator<string> {
  for await (const chunk of chunks) {
    yield chunk;
    checkHeapRoom(path);
  }
}

/** Lines outside any dump that carry a dump's marks behind a prefix, kept to learn the prefix from; at most this many. */
const MARKED_LINES_KEPT = 2000;

/** Reads a text input's dumps, through `prefix` when its lines carry one. */
async function readTextDumps(
  path: string,
  opened: OpenedInput,
  prefix: LinePrefix | undefined,
): Promise<{ file: ThreadDumpFile; logLines: KnownLineCollector; markedOtherLines: string[] }> {
  const logLines = new KnownLineCollector(path);
  const markedOtherLines: string[] = [];
  const parser = new TextDumpParser(path, (text, lineNo) => {
    logLines.push(text, lineNo);
    if (markedOtherLines.length < MARKED_LINES_KEPT && carriesDumpMark(text)) markedOtherLines.push(text);
  });
  if (prefix === undefined) {
    const pushAll = async (chunks: AsyncIterable<string>) => {
      for await (const chunk of chunks) {
        parser.pushText(chunk);
        checkHeapRoom(path);
      }
    };
    return { file: await feed(opened, pushAll, parser), logLines, markedOtherLines };
  }
  const lines = new PrefixedLines(
    prefix,
    (line) => parser.push(line),
    (raw) => parser.skipLine(raw),
  );
  let cut = 0;
  const read = await feed(
    opened,
    async (chunks) => {
      cut = await forEachLine(guarded(chunks, path), (line) => lines.push(line));
      lines.finish();
    },
    parser,
  );
  return { file: { ...(cut > 0 ? withCut(read, linesCutWarning(cut)) : read), linePrefix: describeLinePrefix(prefix) }, logLines, markedOtherLines };
}

/** Feeds all the text; a cut gzip stream ends the input early with a warning, keeping what was read. */
async function feed(
  opened: OpenedInput,
  consume: (chunks: AsyncIterable<string>) => Promise<void>,
  parser: { finish(): ThreadDumpFile },
): Promise<ThreadDumpFile> {
  let truncation: string | undefined;
  try {
    await consume(opened.text());
  } catch (e) {
    if (!(e instanceof TruncatedInputError)) throw e;
    truncation = e.message;
  }
  const file = parser.finish();
  const nuls = opened.mended.nulsDropped;
  const mended = nuls > 0 ? { ...file, warnings: [...file.warnings, nulsDroppedWarning(nuls)] } : file;
  return truncation === undefined ? mended : withCut(mended, truncation);
}

/** The file, with why it was not read whole: a warning, and its `cut` (the first reason, when there are two). */
function withCut(file: ThreadDumpFile, why: string): ThreadDumpFile {
  return { ...file, warnings: [...file.warnings, why], cut: file.cut ?? why };
}

/** What a heap dump given where thread dumps are read is said to be. */
function heapNotThreadsError(path: string, kind: string, looksLike: string): InputError {
  if (kind !== 'hprof') return new InputError(`${path} is ${looksLike}, not a Java thread dump`, ACCEPTED_INPUTS);
  return new InputError(
    `${path} is ${looksLike}; analyze reads thread dumps in this version`,
    'use `dumpsleuth histogram` or `dumpsleuth extract` for the heap dump, and pass analyze the jstack output of the same JVM',
  );
}

/** What a file of no input format (binary data: a zip, an image, a PHD) is said to be. */
export function refusedError(input: { readonly path: string; readonly looksLike: string }): InputError {
  return new InputError(`${input.path} is ${input.looksLike}, not a thread dump or a heap dump`, ACCEPTED_INPUTS);
}

/**
 * What a file with no thread dump in it is said to be (`notes.txt is text with no thread dump in it (first line: ...)`),
 * with why its reading stopped early, when it did (`stopped`: a cut or bomb-like gzip stream).
 */
export function noDumpError(path: string, looksLike: string, read: { readonly warnings: readonly string[] } | string | undefined): InputError {
  // Why reading stopped early is part of the answer: it is the warning that names the file.
  const stopped = typeof read === 'string' || read === undefined ? read : read.warnings.find((w) => w.startsWith(`${path}: `));
  return new InputError(`${path} is ${looksLike}${stopped !== undefined ? ` (${stopped.slice(path.length + 2)})` : ''}`, ACCEPTED_INPUTS);
}
