/** The readings of an option's text that several options share: a whole number, a size in bytes. */
import { UsageError } from '../errors.js';
import { parseByteSize } from '../model/bytes.js';
import { stripControl } from '../report/sanitize.js';

/** A whole number of at least `min`, or a usage error naming `flag` with an `example` of a good one. */
export function wholeNumber(flag: string, text: string, min: number, example: string): number {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${flag} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${stripControl(text)}"`, example);
  return n;
}

/** A size such as 512m, 16g or 1t, in bytes. */
export function byteSize(flag: string, text: string): number {
  const bytes = parseByteSize(text);
  if (bytes === undefined) throw new UsageError(`${flag} ${stripControl(text)} is not a size`, 'give a size such as 512m, 16g or 1t');
  return bytes;
}
