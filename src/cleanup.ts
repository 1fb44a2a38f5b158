/**
 * Temporary files and folders the process made (a report being written, stdin's copy), removed when
 * it ends: at exit, and on SIGINT, SIGTERM and SIGHUP, which then end it with 130, 143 and 129 (128 +
 * the signal's number, as shells report them). One registry per process, because signals are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { UserError } from './errors.js';

const pending = new Set<string>();
let installed = false;

const EXIT_CODES = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const;

function removeAll(): void {
  for (const p of pending) rmSync(p, { recursive: true, force: true });
  pending.clear();
}

/** Removes `path` when the process ends, unless the returned function is called first (the file was kept or removed). */
export function removeAtExit(path: string): () => void {
  if (!installed) {
    installed = true;
    process.once('exit', removeAll);
    for (const [signal, code] of EXIT_CODES)
      process.once(signal, () => {
        removeAll();
        process.exit(code);
      });
  }
  pending.add(path);
  return () => void pending.delete(path);
}

/**
 * A new folder in the temporary directory (TMPDIR), removed at exit like any registered path; a
 * TMPDIR that does not exist or cannot be written to is the user's to fix, and said so in one line.
 */
export function temporaryDirectory(prefix: string, forWhat: string): string {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), prefix));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' || code === 'EPERM' ? 'it may not be written to' : (e as Error).message;
    throw new UserError(
      `cannot make a temporary folder in ${tmpdir()} for ${forWhat}: ${why}`,
      'set TMPDIR to a folder that exists and can be written to, or pass the file by name',
    );
  }
  removeAtExit(dir);
  return dir;
}
