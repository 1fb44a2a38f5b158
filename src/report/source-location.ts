/** `file:line`, or the file alone when the source has no lines (JSON thread dumps, threads read from a heap dump). */
export function sourceAt(source: string, line: number): string {
  return line > 0 ? `${source}:${line}` : source;
}
