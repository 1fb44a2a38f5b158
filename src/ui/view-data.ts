/**
 * What the terminal UI draws: screens of one-line rows, each with a detail pane, and links between
 * them (a finding's evidence thread, its cause). Plain strings, already stripped of control sequences,
 * so the UI only draws, and the data can cross from the worker thread that builds it.
 */

export type ScreenId = 'overview' | 'findings' | 'threads' | 'executors' | 'counters' | 'locks' | 'series';

export type Tone = 'critical' | 'error' | 'warning' | 'info' | 'dim' | 'alert' | 'ok' | 'title';

export interface UiLink {
  readonly screen: ScreenId;
  readonly key: string;
}

export interface UiDetailLine {
  readonly text: string;
  readonly tone?: Tone;
  /** Enter on this line follows the link. */
  readonly link?: UiLink;
}

export interface UiRow {
  readonly key: string;
  readonly text: string;
  readonly tone?: Tone;
  /** Lower-case text `/` searches: names and frames. */
  readonly search: string;
  readonly detail: readonly UiDetailLine[];
}

export interface UiScreen {
  readonly id: ScreenId;
  readonly title: string;
  readonly rows: readonly UiRow[];
  /** Shown when there are no rows. */
  readonly empty: string;
}

export interface UiData {
  readonly title: string;
  readonly screens: readonly UiScreen[];
}
