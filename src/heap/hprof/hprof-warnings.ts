/** Messages shared by every HPROF pass. */

export function truncationWarning(offset: number, gzip: boolean): string {
  return (
    `the heap dump ends in the middle of a record at byte ${offset}${gzip ? ' of the decompressed stream' : ''} ` +
    '(truncated: the JVM may have died while dumping, or the copy is incomplete); everything before it was read'
  );
}
