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
