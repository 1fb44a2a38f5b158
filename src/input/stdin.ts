/**
 * Standard input as a file. A heap dump is read with random access (HPROF records point back and
 * forth), which a pipe cannot give, so `-` is copied to a temporary file first, and what is read
 * from it is named `-` as the user gave it. The copy is removed when the process ends.
 */
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

import { temporaryDirectory } from '../cleanup.js';
import { InputError, UserError } from '../errors.js';

interface SpooledStdin {
  /** The temporary file holding what stdin carried. */
  readonly file: string;
}

/** What was copied, by the path given (`-` for stdin): a pipe can be read only once. */
const spooled = new Map<string, Promise<SpooledStdin>>();

/** Copies stdin, or a named pipe, to a temporary file, once per process. */
function spool(path: string): Promise<SpooledStdin> {
  let s = spooled.get(path);
  if (s === undefined) {
    s = copyToTemporaryFile(path === '-' ? process.stdin : createReadStream(path));
    spooled.set(path, s);
  }
  return s;
}

async function copyToTemporaryFile(stdin: NodeJS.ReadableStream): Promise<SpooledStdin> {
  // Removed at exit and on INT, TERM and HUP (a closed terminal), which end the run.
  const dir = temporaryDirectory('dumpsleuth-stdin-', 'a copy of standard input');
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

/** Errors about the temporary copy name it as the user did (`-`, or the pipe's path). */
function asStdinError(e: unknown, file: string, path: string): unknown {
  if (e instanceof UserError && e.message.includes(file)) {
    return new (e.constructor as new (message: string, remedy: string) => UserError)(renamed(e.message, file, path), e.remedy);
  }
  return e;
}

/**
 * Runs `read` on the file that holds `path`'s bytes: the path itself, or stdin's copy for `-`
 * (errors then name `-`). Returns the file read, so callers can rename what mentions it.
 */
export async function readInputFile<T>(path: string, read: (file: string) => Promise<T>): Promise<{ value: T; file: string }> {
  const kind = await kindOfPath(path);
  if (kind === 'file') return { value: await read(path), file: path };
  const { file } = await spool(path);
  try {
    return { value: await read(file), file };
  } catch (e) {
    throw asStdinError(e, file, path);
  }
}

/**
 * What a path is: a file (read where it is), or a pipe (stdin, a named pipe, `<(zcat x)`), read once
 * into a temporary file. A device (a terminal, `/dev/urandom`) or a socket has no end to read to and
 * is refused at once; so is a terminal on stdin, which would wait for typing.
 */
async function kindOfPath(path: string): Promise<'file' | 'pipe'> {
  if (path === '-') {
    if (process.stdin.isTTY === true)
      throw new InputError(
        'standard input is a terminal, with no dump piped into it',
        'pipe a dump in (`jstack <pid> | dumpsleuth analyze -`), or give a file',
      );
    return 'pipe';
  }
  const st = await stat(path).catch(() => undefined);
  if (st === undefined || st.isFile() || st.isDirectory()) return 'file';
  if (st.isFIFO()) return 'pipe';
  const what = st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'a socket';
  throw new InputError(`${path} is ${what}, not a file: it has no end to read to`, 'give a file, or pipe what it holds into `-`');
}

/** `text` with every mention of `file` replaced by `name`. */
export function renamed(text: string, file: string, name: string): string {
  return file === name ? text : text.split(file).join(name);
}
