/**
 * A thread named in a report: its name as the format quotes it, or `(no name)`. Virtual threads
 * usually have none, and a quoted empty name (`""`) reads as a fault of the report.
 */
const NO_NAME = '(no name)';

export function threadNameText(name: string, quote: (name: string) => string): string {
  return name === '' ? NO_NAME : quote(name);
}
