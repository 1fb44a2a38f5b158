/**
 * Loads one input file into the model: open, sniff, route to the right parser.
 * A file that is not a thread dump raises an InputError saying what it looked like.
 */
import { InputError } from '../errors.js';
import { checkHeapRoom } from '../input/memory-guard.js';
import { forEachLine, nulsDroppedWarning, type OpenedInput, openInput, type TextEncodingName, TruncatedInputError } from '../input/open.js';
import { describeText, sniff, type SniffedKind } from '../input/sniff.js';
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

const ACCEPTED_INPUTS =
  'accepted: jstack / jcmd Thread.print / kill -3 output (also inside logs), VisualVM, ThreadInfo (Arthas, Dubbo_JStack.log), ' +
  'JRockit, IBM/OpenJ9 javacore, jcmd Thread.dump_to_file JSON, Spring Boot /actuator/threaddump JSON; plain, UTF-16 or gzip';

/** `readFrom`: the file holding stdin's bytes when `path` is `-` and stdin was copied (see stdin.ts). */
export async function loadThreadInput(
  path: string,
  onProgress?: ProgressListener,
  maxGunzipBytes?: number,
  readFrom?: string,
  sniffed?: SniffedKind,
): Promise<LoadedThreadInput> {
  const opened = await openInput(path, onProgress, maxGunzipBytes, readFrom);
  const { headText } = opened;
  // Sniffed again only when the caller did not identify the file (a test, a bench).
  const kind = sniffed ?? sniff(opened.headBytes, headText);
  const base = { kind: 'threads' as const, path, gzip: opened.gzip, encoding: opened.encoding };
  switch (kind.kind) {
    case 'hprof':
      throw new InputError(
        `${path} is an HPROF heap dump (JAVA PROFILE ${kind.version}); analyze reads thread dumps in this version`,
        'use `dumpsleuth histogram` or `dumpsleuth extract` for the heap dump, and pass analyze the jstack output of the same JVM',
      );
    case 'v8-heapsnapshot':
      throw new InputError(`${path} is a V8 .heapsnapshot (Node.js/Chrome), not a Java thread dump`, ACCEPTED_INPUTS);
    case 'binary':
      throw new InputError(`${path} is ${kind.description}, not a thread dump or a heap dump`, ACCEPTED_INPUTS);
    case 'json-other':
      throw new InputError(`${path} is ${describeText(headText)}`, ACCEPTED_INPUTS);
    case 'json-threads': {
      // Loaded here: stream-json takes long to import, and text dumps never need it.
      const { parseJsonThreadDump } = await import('../threads/json-parser.js');
      const file = await parseJsonThreadDump(path, kind.format, opened.text(), headText);
      if (file.dumps[0]!.threads.length === 0 && file.warnings.length > 0) {
        throw new InputError(`${path}: ${file.warnings[0]}`, 'check that the file is complete');
      }
      return { ...base, format: kind.format, file };
    }
    case 'javacore': {
      const parser = new JavacoreParser(path);
      let cut = 0;
      const read = await feed(opened, async (chunks) => void (cut = await forEachLine(chunks, (l) => parser.push(l))), parser);
      const file = requireDumps(cut > 0 ? withCut(read, linesCutWarning(cut)) : read, headText, path);
      return { ...base, format: 'ibm-javacore', file };
    }
    case 'text': {
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
      const file = requireDumps(read.file, headText, path);
      return {
        ...base,
        format: [...new Set(file.dumps.map((d) => d.format))].join('+'),
        file,
        ...(read.logLines.matched > 0 ? { logEvents: read.logLines.events() } : {}),
      };
    }
  }
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

function requireDumps(file: ThreadDumpFile, headText: string, path: string): ThreadDumpFile {
  if (file.dumps.length > 0) return file;
  // Why reading stopped early (a cut or bomb-like gzip stream) is part of the answer: it is the last warning.
  const stopped = file.warnings.find((w) => w.startsWith(`${path}: `));
  throw new InputError(`${path} is ${describeText(headText)}${stopped !== undefined ? ` (${stopped.slice(path.length + 2)})` : ''}`, ACCEPTED_INPUTS);
}
