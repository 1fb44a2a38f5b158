/** Escaping for the HTML report and its pictures. */
import { stripControl } from './sanitize.js';

/** Text from a dump, inert in HTML (element content and quoted attributes). */
export function esc(s: string): string {
  return stripControl(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
