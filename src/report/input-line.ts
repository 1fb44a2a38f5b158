/**
 * What every output says about one input, as parts each format joins and escapes itself: the
 * format, and then, for a log, what was found in it (2 hung-thread reports, 3 top -H samples), for
 * a dump, its dumps and threads, with a heap's size and the lines that were not understood.
 */
import { countText } from '../model/count-text.js';
import type { InputSummary } from '../model/model.js';
import { heapSizeText } from './heap-size-text.js';

const plural = (n: number, one: string, many = `${one}s`) => `${countText(n)} ${n === 1 ? one : many}`;

/** What kind of input it is, in the words every format uses: `threads hotspot`, `heap hprof`, `log`, `top -H`. */
export function inputKindText(i: InputSummary): string {
  // A log's format is its kind already ("log log" said nothing twice).
  if (i.kind === 'log') return i.format;
  return `${i.kind} ${i.format}`;
}

/** The parts after the path: facts first, then what was left unread (`dim` parts). */
export function inputLineParts(i: InputSummary): Array<{ readonly text: string; readonly dim?: boolean }> {
  const parts: Array<{ text: string; dim?: boolean }> = [];
  if (i.kind === 'log') {
    if (i.found !== undefined && i.found.length > 0) parts.push(...i.found.map((text) => ({ text })));
    else parts.push({ text: 'read, nothing known in it' });
  } else {
    parts.push({ text: plural(i.dumps, 'dump') }, { text: plural(i.threads, 'thread') });
    if (i.linePrefix !== undefined) parts.push({ text: i.linePrefix });
  }
  if (i.heap !== undefined) parts.push({ text: heapSizeText(i.heap) });
  if (i.unparsedLines > 0) parts.push({ text: plural(i.unparsedLines, 'unparsed line'), dim: true });
  if (i.kind !== 'log' && i.outsideLines > 0) parts.push({ text: `${plural(i.outsideLines, 'line')} outside dumps`, dim: true });
  return parts;
}
