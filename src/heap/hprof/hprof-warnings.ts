/** Messages shared by every HPROF pass. */
import type { FeedSummary } from './byte-source.js';
import { formatBytes } from '../../input/open.js';

export function truncationWarning(fed: FeedSummary): string {
  const offset = fed.truncatedAt ?? fed.streamBytes;
  const { gzip } = fed;
  if (fed.stoppedAtLimit !== undefined) {
    return `reading stopped at ${formatBytes(fed.stoppedAtLimit)} of decompressed data (the --max-gunzip-size limit; raise it to read on); everything before it was read`;
  }
  const unread = gzip ? '' : `, the ${fed.fileBytes - offset} bytes from there to the end of the file unread`;
  return (
    `the heap dump ends in the middle of a record at byte ${offset}${gzip ? ' of the decompressed stream' : ''} ` +
    `(truncated: the JVM may have died while dumping, or the copy is incomplete); everything before it was read${unread}`
  );
}
