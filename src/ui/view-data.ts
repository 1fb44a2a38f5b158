/**
 * What the terminal UI draws: screens of one-line rows, each with a detail pane, and links between
 * them (a finding's evidence thread, its cause). Plain strings, already stripped of control sequences,
 * so the UI only draws, and the data can cross from the worker thread that builds it.
 */

type ScreenId = 'overview' | 'findings' | 'threads' | 'executors' | 'counters' | 'locks' | 'series' | 'memory' | 'calls' | 'growth';

export type Tone = 'critical' | 'error' | 'warning' | 'info' | 'dim' | 'alert' | 'ok' | 'title';

export interface UiLink {
  readonly screen: ScreenId;
  readonly key: string;
}

export interface UiDetailLine {
  readonly text: string;
  readonly tone?: Tone | undefined;
  /** Enter on this line follows the link. */
  readonly link?: UiLink;
}

export interface UiRow {
  readonly key: string;
  readonly text: string;
  readonly tone?: Tone | undefined;
  /** Lower-case text `/` searches: names and frames. */
  readonly search: string;
  readonly detail: readonly UiDetailLine[];
  /**
   * Lines drawn after `detail` that several rows share (the stack of an identical-stack group): one
   * array for all of them, so 200,000 threads in a few hundred stacks cross from the worker as a few
   * hundred stacks, not 200,000.
   */
  readonly more?: readonly UiDetailLine[];
  /** A row of a tree (the dominator tree): it shows only while its parent is expanded, unless a search is on. */
  readonly tree?: UiTreePlace | undefined;
}

interface UiTreePlace {
  readonly depth: number;
  /** The key of the parent row; absent at the top level. */
  readonly parent?: string;
  /** Rows directly under it. */
  readonly children: number;
  /** Expanded when the screen first shows. */
  readonly open?: boolean;
}

export interface UiScreen {
  readonly id: ScreenId;
  readonly title: string;
  readonly rows: readonly UiRow[];
  /** Shown when there are no rows. */
  readonly empty: string;
  /** What the screen's tab counts, when not its rows (the Threads screen: threads, not a row a dump). */
  readonly count?: number;
}

/** Everything the detail pane of a row shows. */
export function detailOf(row: UiRow): readonly UiDetailLine[] {
  return row.more === undefined ? row.detail : [...row.detail, ...row.more];
}

export interface UiData {
  readonly title: string;
  readonly screens: readonly UiScreen[];
}
