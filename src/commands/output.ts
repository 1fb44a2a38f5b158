/**
 * Where a command's result goes: a file given with `-o` (checked before any input is read, written
 * under a temporary name and renamed, so a failure never leaves half a report), or stdout, where a
 * reader that goes away (`| head`, quitting `less`) ends the run quietly.
 */
import { constants, createReadStream, createWriteStream, type Stats } from 'node:fs';
import { access, copyFile, lstat, readlink, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';

import { removeAtExit } from '../cleanup.js';
import { UsageError, UserError } from '../errors.js';
import { RENDERERS, REPORT_FORMATS, type ReportFormat } from '../report/renderers.js';
import { stripControl } from '../report/sanitize.js';

/** The report format each extension implies, from the renderer registry (an extension belongs to one format). */
const FORMAT_BY_EXTENSION: ReadonlyMap<string, ReportFormat> = new Map(REPORT_FORMATS.flatMap((f) => RENDERERS[f].extensions.map((e) => [e, f] as const)));

/** The format an output file's extension implies, among those a command writes; undefined when it implies none. */
function formatOfPath<F extends string>(path: string, formats: readonly F[]): F | undefined {
  const implied = FORMAT_BY_EXTENSION.get(extname(path.replace(/\.gz$/i, '')).toLowerCase());
  return formats.find((f) => f === implied);
}

/**
 * The format to write: `-f` when given, else what `-o`'s extension implies, else text. A note says
 * when `-f` and the extension disagree (the file gets what `-f` asked for).
 */
export function chooseFormat<F extends string>(flag: F | undefined, output: string | undefined, formats: readonly F[]): { format: F | 'text'; note?: string } {
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
  // A device or a FIFO (`-o /dev/stdout`, a named pipe) is written through, so only it must be writable.
  if (existing !== undefined && !existing.isFile()) {
    try {
      await access(path, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write ${shown}: no permission to write to it`, 'write the report somewhere you can write to');
    }
    return;
  }
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

/** A temporary name in `folder` (beside the target, so the final rename stays on one file system). */
function temporaryNameIn(folder: string, path: string): string {
  return join(folder, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.part`);
}

/**
 * What writing to `path` means. A symbolic link is followed: its target is the file replaced (a
 * dangling link's target is created). A regular file, or none, is replaced whole by a rename; one
 * with other names (hard links) is overwritten in place once the report is complete, so every name
 * shows it. Anything else (a device, a FIFO) is written through, never replaced.
 */
async function targetOf(path: string): Promise<{ readonly file: string; readonly how: 'rename' | 'overwrite' | 'through' }> {
  let file = path;
  const link = await lstat(path).catch(() => undefined);
  if (link?.isSymbolicLink() === true) {
    file = await realpath(path).catch(async () => resolve(dirname(path), await readlink(path)));
  }
  const st = await stat(file).catch(() => undefined);
  if (st === undefined) return { file, how: 'rename' };
  if (!st.isFile()) return { file, how: 'through' };
  return { file, how: st.nlink > 1 ? 'overwrite' : 'rename' };
}

/**
 * Writes `produce`'s output to a temporary file and puts it in place only when it succeeded (see
 * targetOf); on failure, or when a signal ends the run, the temporary file is removed, an old report
 * stays as it was, and the error says what happened.
 */
export async function writeFileWhole(path: string, produce: (temporary: string) => Promise<void>): Promise<void> {
  const target = await targetOf(path);
  const temporary = temporaryNameIn(target.how === 'through' ? tmpdir() : dirname(target.file), target.file);
  const forget = removeAtExit(temporary);
  try {
    await produce(temporary);
    if (target.how === 'rename') await rename(temporary, target.file);
    else if (target.how === 'overwrite') await copyFile(temporary, target.file);
    else await pipeline(createReadStream(temporary), createWriteStream(target.file, { flags: 'w' }));
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (target.how === 'through' && (e as NodeJS.ErrnoException).path === temporary) {
      // A device or pipe is written from a whole copy in TMPDIR: the copy is what failed.
      const cause = code === 'ENOENT' ? 'no such folder' : stripControl((e as Error).message);
      throw new UserError(
        `could not write ${stripControl(path)}: its copy could not be made in ${tmpdir()} (${cause})`,
        'nothing was written; set TMPDIR to a folder that exists, can be written to and has room, and run again',
      );
    }
    const why =
      code === 'ENOSPC'
        ? 'the disk is full'
        : code === 'EACCES' || code === 'EPERM'
          ? 'no permission'
          : code === 'EPIPE'
            ? 'its reader went away'
            : code === 'EFBIG'
              ? 'the file grew past the largest this process may write (ulimit -f)'
              : stripControl((e as Error).message);
    throw new UserError(`could not write ${stripControl(path)}: ${why}`, 'nothing was written; free space or choose another place, and run again');
  } finally {
    await unlink(temporary).catch(() => undefined);
    forget();
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
    const failed = (e: unknown) => {
      if (isClosedPipe(e)) return resolve();
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOSPC' ? 'the disk is full' : code === 'EACCES' || code === 'EPERM' ? 'no permission' : stripControl((e as Error).message);
      reject(new UserError(`could not write the report to standard output: ${why}`, 'free space where it goes, or write the report with -o elsewhere'));
    };
    try {
      // Stdout redirected to a file writes synchronously, and throws there.
      stream.write(text, (e) => (e === null || e === undefined ? resolve() : failed(e)));
    } catch (e) {
      failed(e);
    }
  });
}

export function isClosedPipe(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}
