/** Windowing for one-line rows: which slice of a long list is on screen. Pure, so 20k rows cost nothing to scroll. */

/** The first visible row after moving the cursor, keeping the cursor on screen and the window full. */
export function windowOffset(cursor: number, offset: number, height: number, count: number): number {
  if (count <= height || height <= 0) return 0;
  let o = offset;
  if (cursor < o) o = cursor;
  if (cursor >= o + height) o = cursor - height + 1;
  return Math.max(0, Math.min(o, count - height));
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** Where a scrollbar thumb sits (row index within the window) for a window of `height` over `count` rows. */
export function scrollThumb(offset: number, height: number, count: number): { start: number; size: number } | null {
  if (count <= height || height <= 0) return null;
  const size = Math.max(1, Math.round((height * height) / count));
  const start = Math.round(((height - size) * offset) / (count - height));
  return { start, size };
}
