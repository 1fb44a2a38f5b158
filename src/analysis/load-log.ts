/**
 * A file whose format reads as thread dumps or as a log (input/formats.ts): its role, from its head,
 * says which reader reads it first. A text file can still turn out to be the other: a log may hold a
 * thread dump past its head (kill -3 output deep in catalina.out), which its reading sees by the
 * dump's marks; a head with a dump's marks may hold no dump after all. Then the other reader reads
 * it, decided by what the first reading found, never by catching its error.
 */
import type { InputError } from '../errors.js';
import { carriesThreadDumpMark } from '../input/formats.js';
import type { IdentifiedInput } from '../input/identify.js';
import { forEachLine, openInput, TruncatedInputError } from '../input/open.js';
import { looksLikeLogLine } from '../input/sniff.js';
import { type LoadedLog, LogReader } from '../logs/log-reader.js';
import { linesCutWarning } from '../model/line-carry.js';
import type { ProgressListener } from '../model/progress.js';
import { type LoadedThreadInput, noDumpError, readThreadInput } from './load-threads.js';

export type ThreadsOrLog = { readonly kind: 'threads'; readonly input: LoadedThreadInput } | { readonly kind: 'log'; readonly log: LoadedLog };

/**
 * A file of role `threads` or `log`, read by its role's reader (then by the other's, when it turns out
 * to be the other). `keepUnknownLog`: a log with nothing known in it is still the incident's (it came
 * with other inputs, or in the incident's directory); given alone, it is an error.
 */
export async function loadThreadsOrLog(
  input: IdentifiedInput & { readonly format: { readonly role: 'threads' | 'log' } },
  onProgress: ProgressListener | undefined,
  maxGunzipBytes: number | undefined,
  keepUnknownLog: boolean,
): Promise<ThreadsOrLog> {
  const { path: name, file } = input;
  const readThreads = () => readThreadInput(name, onProgress, maxGunzipBytes, file, input);
  if (input.format.role === 'threads') {
    const threads = await readThreads();
    if ('input' in threads) return { kind: 'threads', input: threads.input };
    // A head with a dump's marks and no dump behind them: the text may still be a log.
    const log = await readLog(name, file, maxGunzipBytes, false);
    return logOr(log.value(keepUnknownLog), threads.noDump);
  }
  // Other JSON is read for known lines only: no thread dump parser reads it.
  const text = input.form === 'text';
  const log = await readLog(name, file, maxGunzipBytes, text);
  if (log.dumpMarks > 0) {
    const threads = await readThreads();
    if ('input' in threads) return { kind: 'threads', input: threads.input };
    return logOr(log.value(keepUnknownLog), threads.noDump);
  }
  // What the thread dump reader would have said of it: what it looks like, and why its reading stopped early.
  return logOr(log.value(keepUnknownLog), noDumpError(name, input.looksLike, text ? log.truncated : undefined));
}

function logOr(log: LoadedLog | undefined, error: InputError): ThreadsOrLog {
  if (log === undefined) throw error;
  return { kind: 'log', log };
}

/** A log read whole: its reader's result, why its reading stopped early, and how many of its lines carry a thread dump's mark. */
async function readLog(
  path: string,
  file: string,
  maxGunzipBytes: number | undefined,
  watchForDumps: boolean,
): Promise<{ value: (keepUnknown: boolean) => LoadedLog | undefined; truncated: string | undefined; dumpMarks: number }> {
  const opened = await openInput(path, undefined, maxGunzipBytes, file);
  const reader = new LogReader(path);
  const warnings: string[] = [];
  let cut: string | undefined;
  let truncated: string | undefined;
  let dumpMarks = 0;
  try {
    const long = await forEachLine(opened.text(), (line) => {
      reader.push(line);
      if (watchForDumps && dumpMarks === 0 && carriesThreadDumpMark(line)) dumpMarks++;
    });
    if (long > 0) warnings.push((cut = linesCutWarning(long)));
  } catch (e) {
    if (!(e instanceof TruncatedInputError)) throw e;
    warnings.push((cut = truncated = e.message));
  }
  const reading = { gzip: opened.gzip, encoding: opened.encoding, warnings, ...(cut !== undefined ? { cut } : {}) };
  // An application's log, as its first line shows, is kept with nothing known in it when the caller keeps such logs.
  const logShaped = reader.firstLine !== undefined && looksLikeLogLine(reader.firstLine);
  return { value: (keepUnknown) => reader.finish(reading, keepUnknown && logShaped), truncated, dumpMarks };
}
