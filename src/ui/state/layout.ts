/** Screen geometry and text fitting for the UI, pure so it is tested without a terminal. */

export interface Layout {
  readonly listHeight: number;
  readonly detailHeight: number;
  readonly width: number;
}

/** Rows the list keeps however few it shows: a list of one row still reads as a list, with room to grow while filtering. */
const MIN_LIST_ROWS = 3;

/**
 * The list takes a bit more than half of the rows, or as many as it has when that is fewer, and the
 * detail the rest (a list of 2 findings left 20 rows empty while the detail said "… 6 more lines").
 * A tab line, a separator and a status line are fixed. `listRows`: the rows of the list shown.
 */
export function layoutFor(columns: number | undefined, rows: number | undefined, listRows = Number.POSITIVE_INFINITY): Layout {
  const width = Math.max(40, columns ?? 100);
  const height = Math.max(10, (rows ?? 30) - 1); // ink redraws the whole screen when output reaches the last row
  const body = height - 3;
  const listHeight = Math.max(MIN_LIST_ROWS, Math.min(listRows, Math.floor(body * 0.55)));
  return { listHeight, detailHeight: Math.max(2, body - listHeight), width };
}

/** Cuts a line to the width, marking the cut. */
export function fit(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, Math.max(0, width - 1)) + '…';
}

/** Wraps a line into pieces of at most `width` characters (at spaces where it can). */
export function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut <= width / 3) cut = width;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '    ');
  }
  out.push(rest);
  return out;
}

export interface TabSpec {
  readonly title: string;
  /** Rows counted in the tab (`Threads (60)`), when it has a count. */
  readonly count?: number;
}

/**
 * The tab labels that fit the width, each `N Title (count)` (N its key: 0 for the tenth): with every count when they fit, else
 * with the findings' count only (the one number a user looks for first), else with no count.
 */
export function tabLabels(tabs: readonly TabSpec[], width: number, keepCount: (i: number) => boolean, selected = 0): string[] {
  const label = (t: TabSpec, i: number, counts: 'all' | 'kept' | 'none') =>
    `${(i + 1) % 10} ${t.title}${t.count !== undefined && (counts === 'all' || (counts === 'kept' && keepCount(i))) ? ` (${t.count})` : ''}`;
  // Each tab is drawn with a space before it; the selected one with one after too.
  const widthOf = (labels: string[]) => labels.reduce((n, l) => n + l.length + 1, 1);
  for (const counts of ['all', 'kept', 'none'] as const) {
    const labels = tabs.map((t, i) => label(t, i, counts));
    if (widthOf(labels) <= width) return labels;
  }
  // Still too wide (80 columns hold 8 titles only just not): the other tabs keep their number, which is their key.
  return tabs.map((t, i) => (i === selected ? label(t, i, 'none') : String((i + 1) % 10)));
}
