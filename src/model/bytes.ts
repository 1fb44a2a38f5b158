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
