/**
 * Loads one input file into the model: open, sniff, route to the right parser.
 * A file that is not a thread dump raises an InputError saying what it looked like.
 */
import type { ThreadDumpFile } from '../model/thread-dump.js';
import { InputError } from '../errors.js';
import { TextDumpParser } from '../threads/text-parser.js';
import { JavacoreParser } from '../threads/javacore-parser.js';
import { parseJsonThreadDump } from '../threads/json-parser.js';
import { forEachLine, openInput, TruncatedInputError, type OpenedInput, type ProgressListener, type TextEncodingName } from './open.js';
import { describeText, sniff } from './sniff.js';

export interface LoadedThreadInput {
  readonly kind: 'threads';
  readonly path: string;
  readonly format: string;
  readonly gzip: boolean;
  readonly encoding: TextEncodingName;
  readonly file: ThreadDumpFile;
}

export const ACCEPTED_INPUTS =
  'accepted: jstack / jcmd Thread.print / kill -3 output (also inside logs), VisualVM, ThreadInfo (Arthas, Dubbo_JStack.log), ' +
  'JRockit, IBM/OpenJ9 javacore, jcmd Thread.dump_to_file JSON, Spring Boot /actuator/threaddump JSON; plain, UTF-16 or gzip';

export async function loadThreadInput(path: string, onProgress?: ProgressListener): Promise<LoadedThreadInput> {
  const opened = await openInput(path, onProgress);
  const headText = decodeHead(opened);
  const kind = sniff(opened.headBytes, headText);
  const base = { kind: 'threads' as const, path, gzip: opened.gzip, encoding: opened.encoding };
  switch (kind.kind) {
    case 'hprof':
      throw new InputError(
        `${path} is an HPROF heap dump (JAVA PROFILE ${kind.version}); this version of dumpsleuth reads thread dumps only`,
        'pass the jstack / jcmd Thread.print output of the same JVM',
      );
    case 'v8-heapsnapshot':
      throw new InputError(`${path} is a V8 .heapsnapshot (Node.js/Chrome), not a Java thread dump`, ACCEPTED_INPUTS);
    case 'binary':
      throw new InputError(`${path} is ${kind.description}, not a thread dump`, ACCEPTED_INPUTS);
    case 'json-other':
      throw new InputError(`${path} is ${describeText(headText)}`, ACCEPTED_INPUTS);
    case 'json-threads': {
      const file = await withTruncation(async (warnings) => {
        const f = await parseJsonThreadDump(path, kind.format, opened.text(), headText);
        return { ...f, warnings: [...f.warnings, ...warnings] };
      }, path);
      return { ...base, format: kind.format, file };
    }
    case 'javacore': {
      const parser = new JavacoreParser(path);
      const file = await feedLines(opened, (l) => parser.push(l), () => parser.finish(), path);
      return { ...base, format: 'ibm-javacore', file: requireThreads(file, headText, path) };
    }
    case 'text': {
      const parser = new TextDumpParser(path);
      const file = await feedLines(opened, (l) => parser.push(l), () => parser.finish(), path);
      const checked = requireThreads(file, headText, path);
      return { ...base, format: summariseFormats(checked), file: checked };
    }
  }
}

function decodeHead(opened: OpenedInput): string {
  const bytes = opened.headBytes;
  if (opened.encoding === 'utf-16be') {
    const even = Buffer.from(bytes.subarray(0, bytes.length & ~1));
    even.swap16();
    return new TextDecoder('utf-16le').decode(even);
  }
  return new TextDecoder(opened.encoding).decode(bytes);
}

async function feedLines(
  opened: OpenedInput,
  onLine: (line: string) => void,
  finish: () => ThreadDumpFile,
  path: string,
): Promise<ThreadDumpFile> {
  const warnings: string[] = [];
  try {
    await forEachLine(opened.text(), onLine);
  } catch (e) {
    if (!(e instanceof TruncatedInputError)) throw e;
    warnings.push(e.message);
  }
  void path;
  const file = finish();
  return warnings.length > 0 ? { ...file, warnings: [...file.warnings, ...warnings] } : file;
}

async function withTruncation(run: (warnings: string[]) => Promise<ThreadDumpFile>, path: string): Promise<ThreadDumpFile> {
  try {
    return await run([]);
  } catch (e) {
    if (e instanceof TruncatedInputError) throw new InputError(e.message, 'the JSON is incomplete; take the dump again');
    const msg = (e as Error).message ?? String(e);
    throw new InputError(`${path}: the JSON thread dump could not be read (${msg.split('\n')[0]})`, 'check that the file is complete');
  }
}

function requireThreads(file: ThreadDumpFile, headText: string, path: string): ThreadDumpFile {
  const threads = file.dumps.reduce((n, d) => n + d.threads.length, 0);
  if (file.dumps.length === 0) throw new InputError(`${path} is ${describeText(headText)}`, ACCEPTED_INPUTS);
  void threads;
  return file;
}

function summariseFormats(file: ThreadDumpFile): string {
  const formats = [...new Set(file.dumps.map((d) => d.format))];
  return formats.join('+');
}
