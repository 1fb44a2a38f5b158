/**
 * How every part of dumpsleuth writes a count: `1,785`, thousands grouped by commas (what
 * toLocaleString('en-US') writes for an integer), without ICU: the first toLocaleString of a process
 * loads its locale data, which costs more than the rest of the report of a small incident.
 */
export function countText(n: number): string {
  // Integers below 1e21 are written with all their digits; anything else as JavaScript writes it.
  if (!Number.isInteger(n) || Math.abs(n) >= 1e21) return String(n);
  const digits = String(Math.abs(n));
  let head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (; head < digits.length; head += 3) out += `,${digits.slice(head, head + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/**
 * A part of a whole as a percentage to one decimal place, never rounded up to 100.0% when it is not
 * all of it: 99.97% of the heap reads 99.9%, so a reader never takes a part for the whole.
 */
export function shareText(part: number, whole: number): string {
  if (whole <= 0) return '0.0%';
  const text = ((part / whole) * 100).toFixed(1);
  return `${text === '100.0' && part < whole ? '99.9' : text}%`;
}

/** A count and what it counts, in the singular for one: `1 dump`, `3 dumps`, `1,200 objects`. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${countText(n)} ${n === 1 ? one : many}`;
}
