/** How every renderer words a heap dump's size, so the text, Markdown, HTML and UI agree. */
import type { HeapSize } from '../model/model.js';

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

/** `heap 48,213 objects of 1,024 classes, 3.1 MiB shallow`. */
export function heapSizeText(h: HeapSize): string {
  return `heap ${h.objects.toLocaleString('en-US')} objects of ${h.classes.toLocaleString('en-US')} classes, ${approximateBytes(h.shallowBytes)} shallow`;
}
