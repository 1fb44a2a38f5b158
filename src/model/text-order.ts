/**
 * Text order by UTF-16 code units: the same on every machine and locale, and free to start
 * (the first localeCompare of a process loads ICU's collation data, a cost out of all proportion
 * to sorting a dozen findings).
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
