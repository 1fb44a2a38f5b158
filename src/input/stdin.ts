/**
 * Standard input as a file. A heap dump is read with random access (HPROF records point back and
 * forth), which a pipe cannot give, so `-` is copied to a temporary file first, and what is read
 * from it is named `-` as the user gave it. The copy is removed when the process ends.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

import { removeAtExit } from '../cleanup.js';
import { UserError } from '../errors.js';

interface SpooledStdin {
  /** The temporary file holding what stdin carried. */
  readonly file: string;
}

let spooled: Promise<SpooledStdin> | undefined;

/** Copies stdin to a temporary file, once per process (stdin can be read only once). */
function spoolStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<SpooledStdin> {
  spooled ??= copyToTemporaryFile(stdin);
  return spooled;
}

async function copyToTemporaryFile(stdin: NodeJS.ReadableStream): Promise<SpooledStdin> {
  const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-stdin-'));
  // Removed at exit and on INT, TERM and HUP (a closed terminal), which end the run.
  removeAtExit(dir);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const file = join(dir, 'stdin');
  try {
    await pipeline(stdin, createWriteStream(file));
  } catch (e) {
    remove();
    throw new UserError(
      `could not copy standard input to a temporary file in ${tmpdir()}: ${(e as Error).message}`,
      'free space there (or set TMPDIR to a roomier place), or pass the file by name',
    );
  }
  return { file };
}

/** Errors about the temporary copy name it as the user did: `-`. */
function asStdinError(e: unknown, file: string): unknown {
  if (e instanceof UserError && e.message.includes(file)) {
    return new (e.constructor as new (message: string, remedy: string) => UserError)(renamed(e.message, file, '-'), e.remedy);
  }
  return e;
}

/**
 * Runs `read` on the file that holds `path`'s bytes: the path itself, or stdin's copy for `-`
 * (errors then name `-`). Returns the file read, so callers can rename what mentions it.
 */
export async function readInputFile<T>(path: string, read: (file: string) => Promise<T>): Promise<{ value: T; file: string }> {
  if (path !== '-') return { value: await read(path), file: path };
  const { file } = await spoolStdin();
  try {
    return { value: await read(file), file };
  } catch (e) {
    throw asStdinError(e, file);
  }
}

/** `text` with every mention of `file` replaced by `name`. */
export function renamed(text: string, file: string, name: string): string {
  return file === name ? text : text.split(file).join(name);
}
