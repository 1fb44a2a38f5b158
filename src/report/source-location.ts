/** `file:line`, or the file alone when the source has no lines (JSON thread dumps, threads read from a heap dump). */
export function sourceAt(source: string, line: number): string {
  return line > 0 ? `${source}:${line}` : source;
}

/**
 * Names for the input files once the report's header has given their full paths: each file's own
 * name when no other input has the same one, else its path. Evidence then reads `#2 threads-3.txt:187`
 * rather than repeating a long folder on every line.
 */
export function shortSourceNames(paths: readonly string[]): (path: string) => string {
  const nameOf = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
  const uses = new Map<string, number>();
  for (const p of new Set(paths)) uses.set(nameOf(p), (uses.get(nameOf(p)) ?? 0) + 1);
  return (p) => (uses.get(nameOf(p)) === 1 && nameOf(p) !== '' ? nameOf(p) : p);
}
