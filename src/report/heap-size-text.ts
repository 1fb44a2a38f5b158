/** How every renderer words a heap dump's size, so the text, Markdown, HTML and UI agree. */
import type { HeapSize } from '../model/model.js';
import { approximateBytes } from '../model/bytes.js';

export { approximateBytes };

/** `heap 48,213 objects of 1,024 classes, 3.1 MiB shallow`. */
export function heapSizeText(h: HeapSize): string {
  return `heap ${h.objects.toLocaleString('en-US')} objects of ${h.classes.toLocaleString('en-US')} classes, ${approximateBytes(h.shallowBytes)} shallow`;
}
