/**
 * A log line quoted in a report, shortened so it keeps what it says. Log lines put their cause last
 * (Dubbo's `..., cause: The service using threads greater than <dubbo:service executes="32" />
 * limited.`, an exception's message after its class), behind long URLs with their parameters: the
 * parameters go first, then the middle of the line, never its end.
 */
import { replaceAt, urlStarts } from '../model/text-scan.js';

/** A URL's query string, when it is long: `dubbo://host:20880/Svc?anyhost=true&...` → `dubbo://host:20880/Svc?…`. */
const LONG_QUERY = /([a-z][\w+.-]*:\/\/[^\s?,;"']+)\?[^\s,;"']{24,}/iy;

export function quoteLogLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const shorter = replaceAt(text, urlStarts(text), LONG_QUERY, (m) => `${m[1]}?…`);
  if (shorter.length <= max) return shorter;
  // Head and tail: where it was logged from, and what it says happened.
  const tail = Math.floor(max * 0.55);
  const head = max - tail - 3;
  return `${shorter.slice(0, head)} … ${shorter.slice(shorter.length - tail)}`;
}
