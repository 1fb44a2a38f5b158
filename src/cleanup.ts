/**
 * Temporary files and folders the process made (a report being written, stdin's copy), removed when
 * it ends: at exit, and on SIGINT, SIGTERM and SIGHUP, which then end it with 130, 143 and 129 (128 +
 * the signal's number, as shells report them). One registry per process, because signals are.
 */
import { rmSync } from 'node:fs';

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
