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
