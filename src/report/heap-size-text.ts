/** How every renderer words a heap dump's size, so the text, Markdown, HTML and UI agree. */
import { approximateBytes } from '../model/bytes.js';
import { countText } from '../model/count-text.js';
import type { HeapSize } from '../model/model.js';

export { approximateBytes };

/** `heap 48,213 objects of 1,024 classes, 3.1 MiB shallow`. */
export function heapSizeText(h: HeapSize): string {
  return `heap ${countText(h.objects)} objects of ${countText(h.classes)} classes, ${approximateBytes(h.shallowBytes)} shallow`;
}
