/**
 * Where a command's result goes: a file given with `-o` (checked before any input is read, written
 * under a temporary name and renamed, so a failure never leaves half a report), or stdout, where a
 * reader that goes away (`| head`, quitting `less`) ends the run quietly.
 */
import { constants, type Stats } from 'node:fs';
import { access, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

import { UsageError, UserError } from '../errors.js';
import { stripControl } from '../report/sanitize.js';

/** Report formats a file name implies, by extension. */
const FORMAT_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.json': 'json',
  '.ndjson': 'json',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'text',
  '.text': 'text',
  '.log': 'text',
};

/** The format an output file's extension implies, among those a command writes; undefined when it implies none. */
function formatOfPath(path: string, formats: readonly string[]): string | undefined {
  const f = FORMAT_BY_EXTENSION[extname(path.replace(/\.gz$/i, '')).toLowerCase()];
  return f !== undefined && formats.includes(f) ? f : undefined;
}

/**
 * The format to write: `-f` when given, else what `-o`'s extension implies, else text. A note says
 * when `-f` and the extension disagree (the file gets what `-f` asked for).
 */
export function chooseFormat(flag: string | undefined, output: string | undefined, formats: readonly string[]): { format: string; note?: string } {
  const implied = output === undefined ? undefined : formatOfPath(output, formats);
  if (flag === undefined) return { format: implied ?? 'text' };
  if (implied !== undefined && implied !== flag) {
    return { format: flag, note: `writing ${flag} to ${stripControl(output!)}, as --format says, though its extension suggests ${implied}` };
  }
  return { format: flag };
}

/**
 * Fails early, before the inputs are read, when a report could not be written to `path`: its folder
 * is missing or not writable, or the path is a directory or a file that cannot be replaced.
 */
export async function checkOutputPath(path: string): Promise<void> {
  const shown = stripControl(path);
  if (path.length === 0) throw new UsageError('-o needs a file name', 'for example -o report.html');
  const folder = dirname(path);
  let folderStat: Stats;
  try {
    folderStat = await stat(folder);
  } catch {
    throw new UsageError(`cannot write ${shown}: the folder ${stripControl(folder)} does not exist`, 'create it first, or write the report elsewhere');
  }
  if (!folderStat.isDirectory()) throw new UsageError(`cannot write ${shown}: ${stripControl(folder)} is not a folder`, 'give a path inside a folder');
  let existing: Stats | undefined;
  try {
    existing = await stat(path);
  } catch {
    existing = undefined;
  }
  if (existing?.isDirectory() === true)
    throw new UsageError(`cannot write ${shown}: it is a directory`, `give a file name, such as ${join(shown, 'report.txt')}`);
  // The report is written next to the target and renamed over it, so the folder must be writable.
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${shown}: no permission to write in ${stripControl(folder)}`, 'write the report to a folder you can write to');
  }
  if (existing !== undefined) {
    try {
      await access(path, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write ${shown}: the file exists and is read-only`, 'remove it, or write the report elsewhere');
    }
  }
}

/** A temporary name next to `path`, in the same folder so the final rename stays on one file system. */
function temporaryNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.part`);
}

/**
 * Writes `produce`'s output to a temporary file beside `path` and renames it over `path` only when
 * it succeeded; on failure the temporary file is removed and the error says what happened.
 */
export async function writeFileWhole(path: string, produce: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = temporaryNameFor(path);
  try {
    await produce(temporary);
    await rename(temporary, path);
  } catch (e) {
    await unlink(temporary).catch(() => undefined);
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(
      `could not write ${stripControl(path)}: ${code === 'ENOSPC' ? 'the disk is full' : stripControl((e as Error).message)}`,
      'nothing was written; free space or choose another place, and run again',
    );
  }
}

/** Writes a whole text report to `path` (see writeFileWhole). */
export function writeReportFile(path: string, text: string): Promise<void> {
  return writeFileWhole(path, (temporary) => writeFile(temporary, text));
}

/**
 * Writes to stdout and resolves once the text is handed to the system. A closed pipe (EPIPE) is
 * the reader saying it has enough: it resolves too, and the rest of the text is dropped.
 */
export function writeToStdout(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if ((stream as { destroyed?: boolean }).destroyed === true) return resolve();
    stream.write(text, (e) => {
      if (e === null || e === undefined || isClosedPipe(e)) resolve();
      else reject(e);
    });
  });
}

export function isClosedPipe(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}
