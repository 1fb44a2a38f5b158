/** How every part of dumpsleuth words a byte count (findings, reports, the UI), so they agree. */

/** `1.5 GiB`, `312.0 KiB`, `900 bytes`: one decimal from KiB up. */
export function approximateBytes(n: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (n < 1024) return `${n} bytes`;
  let value = n / 1024;
  let u = 0;
  while (value >= 1024 && u < units.length - 1) {
    value /= 1024;
    u++;
  }
  return `${value.toFixed(1)} ${units[u]}`;
}

/** `16 GiB`, `512 MiB`: for messages. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (n >= 1024 && u < units.length - 1 && n % 1024 === 0) {
    n /= 1024;
    u++;
  }
  return `${n} ${units[u]}`;
}

/** `20g`, `512m`, `1.5t`, `1000000`: a size given on the command line, in bytes. */
export function parseByteSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(text.trim());
  if (!m) return undefined;
  const power = ' kmgt'.indexOf((m[2] || ' ').toLowerCase());
  const bytes = Math.round(Number(m[1]) * 1024 ** power);
  return bytes > 0 ? bytes : undefined;
}

/**
 * How far a gzip input may inflate before dumpsleuth stops reading it (`--max-gunzip-size`): a guard
 * against a small file that inflates without end (a damaged stream, or a gzip bomb).
 */
export const DEFAULT_MAX_GUNZIP_BYTES = 16 * 1024 ** 3;

/**
 * A decompression bomb is told from a real dump by how far it inflates. Dumps and logs inflate 3 to
 * 30 times (HPROF of live objects, text of repeated stacks); only data that is almost all one byte
 * or one short pattern, zeros or newlines, inflates hundreds of times (deflate's ceiling is about
 * 1,030). The more has been inflated, the lower the ratio that gives it away: a bomb is stopped
 * within its first tens of megabytes whatever its compression level, while a small file of padding
 * is still read. Judged only at the default limit: giving `--max-gunzip-size` says the input is
 * wanted whatever it inflates to. The text or records before the stop are still used.
 */
const BOMB_RATIOS: ReadonlyArray<{ readonly pastBytes: number; readonly ratio: number }> = [
  { pastBytes: 16 * 1024 ** 2, ratio: 500 },
  { pastBytes: 32 * 1024 ** 2, ratio: 200 },
  { pastBytes: 1024 ** 3, ratio: 100 },
];

/** When `inflated` bytes from `compressed` look like a bomb: the message, else undefined. */
export function inflationBomb(compressed: number, inflated: number): string | undefined {
  const ratio = inflated / Math.max(compressed, 1);
  if (!BOMB_RATIOS.some((t) => inflated >= t.pastBytes && ratio >= t.ratio)) return undefined;
  return (
    `reading stopped at ${approximateBytes(inflated)} decompressed from ${approximateBytes(compressed)}: the data inflates ${Math.round(ratio)}-fold, ` +
    `as only a decompression bomb or padding does (dumps inflate 3 to 30 times); pass --max-gunzip-size to read it all the same`
  );
}
