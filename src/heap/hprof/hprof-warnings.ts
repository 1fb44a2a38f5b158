/** Messages shared by every HPROF pass. */
import { formatBytes } from '../../model/bytes.js';
import type { FeedSummary } from './byte-source.js';

export function truncationWarning(fed: FeedSummary): string {
  const offset = fed.truncatedAt ?? fed.streamBytes;
  const { gzip } = fed;
  if (fed.stoppedAtLimit !== undefined) {
    return (
      `reading stopped at ${formatBytes(fed.stoppedAtLimit)} of decompressed data (the ` +
      '--max-gunzip-size limit; raise it to read on); everything before it was read'
    );
  }
  const cause =
    fed.resized === undefined
      ? '(truncated: the JVM may have died while dumping, or the copy is incomplete)'
      : fed.resized.to > fed.resized.from
        ? `(the file grew from ${fed.resized.from} to ${fed.resized.to} bytes while it was read: it is still being written; ` +
          'wait for jcmd or jmap to finish, then read it again)'
        : `(the file shrank from ${fed.resized.from} to ${fed.resized.to} bytes while it was read: it was cut or replaced meanwhile)`;
  const stream = gzip ? ' of the decompressed stream' : '';
  // The data read ends at `end`; the parser may have skipped past it over a record it did not need.
  const end = gzip ? fed.streamBytes : fed.fileBytes;
  if (offset > end) {
    const cutRecord = `in the middle of a record that needs ${offset - end} more bytes`;
    return `the heap dump ends at byte ${end}${stream}, ${cutRecord} ${cause}; everything before it was read`;
  }
  const unread = gzip || end === offset ? '' : `, the ${end - offset} bytes from there to the end of the file unread`;
  return `the heap dump ends in the middle of a record at byte ${offset}${stream} ${cause}; everything before it was read${unread}`;
}
