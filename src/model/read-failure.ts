/**
 * Why a file could not be read, in words for the message that names it (`cannot read x: no such
 * file`): the common causes by their error code, anything else by the system's own message.
 */
export function readFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
}

/**
 * A reader's message without the file name it starts with (`a.txt.gz: gzip data ends early` reads
 * `gzip data ends early`), for a place that names the file already; `x is a directory` reads `it is a
 * directory`. Any other message is returned whole.
 */
export function withoutFileName(path: string, message: string): string {
  if (message.startsWith(`${path}: `)) return message.slice(path.length + 2);
  return message.startsWith(`${path} `) ? `it ${message.slice(path.length + 1)}` : message;
}
