/**
 * The UI's state and its reducer: which screen, where the cursor is on each, whether the detail pane
 * has the focus, search, help. Pure: commands in, state out; rows are looked up in the data given.
 */
import { type Command, commandFor } from '../keys.js';
import { detailOf, type UiData, type UiLink, type UiRow } from '../view-data.js';
import { clamp, windowOffset } from './window.js';

interface ScreenPosition {
  readonly cursor: number;
  readonly offset: number;
  readonly query: string;
  /** Keys of the tree rows shown expanded (screens without a tree leave it empty). */
  readonly expanded: ReadonlySet<string>;
}

export interface UiState {
  readonly screen: number;
  readonly positions: readonly ScreenPosition[];
  readonly focus: 'list' | 'detail';
  /** Index of the selected line among the detail pane's links. */
  readonly detailLink: number;
  readonly mode: 'normal' | 'search' | 'help';
  /** Text typed after `/`, before Enter. */
  readonly typing: string;
  /** Rows the list can show (the terminal's height minus the chrome). */
  readonly listHeight: number;
  /** Where Esc goes back to after following a link. */
  readonly history: ReadonlyArray<{ readonly screen: number; readonly key: string }>;
  readonly quit: boolean;
  /** Quit by Ctrl-C: an interrupt, which ends the run with 130 as SIGINT does (q ends it with 0). */
  readonly interrupted: boolean;
}

export type UiAction =
  | { readonly type: 'key'; readonly name: string }
  | { readonly type: 'command'; readonly command: Command }
  | { readonly type: 'type'; readonly text: string }
  | { readonly type: 'resize'; readonly listHeight: number };

export function initialState(data: UiData, listHeight: number): UiState {
  return {
    screen: 0,
    positions: data.screens.map((screen) => ({
      cursor: 0,
      offset: 0,
      query: '',
      expanded: new Set(screen.rows.filter((r) => r.tree?.open === true).map((r) => r.key)),
    })),
    focus: 'list',
    detailLink: 0,
    mode: 'normal',
    typing: '',
    listHeight: Math.max(1, listHeight),
    history: [],
    quit: false,
    interrupted: false,
  };
}

// Filtering 20k rows per key press is cheap, but not every frame: remember the last answer per row list.
const filterCache = new WeakMap<readonly UiRow[], { query: string; expanded: ReadonlySet<string> | undefined; rows: readonly UiRow[] }>();

/**
 * The rows of a screen that show: those that match its search; with no search, the rows of a tree
 * whose parents are all expanded (rows outside a tree always show).
 */
export function visibleRows(rows: readonly UiRow[], query: string, expanded?: ReadonlySet<string>): readonly UiRow[] {
  const cached = filterCache.get(rows);
  if (cached !== undefined && cached.query === query && cached.expanded === expanded) return cached.rows;
  let out: readonly UiRow[];
  if (query.length > 0) {
    const q = query.toLowerCase();
    out = rows.filter((r) => r.search.includes(q));
  } else if (expanded !== undefined && rows.some((r) => r.tree?.parent !== undefined)) {
    const shown = new Set<string>();
    out = rows.filter((r) => {
      const parent = r.tree?.parent;
      const show = parent === undefined || (shown.has(parent) && expanded.has(parent));
      if (show) shown.add(r.key);
      return show;
    });
  } else out = rows;
  filterCache.set(rows, { query, expanded, rows: out });
  return out;
}

export function currentRows(data: UiData, s: UiState): readonly UiRow[] {
  const screen = data.screens[s.screen];
  const pos = s.positions[s.screen]!;
  return screen === undefined ? [] : visibleRows(screen.rows, pos.query, pos.expanded);
}

export function currentRow(data: UiData, s: UiState): UiRow | undefined {
  return currentRows(data, s)[s.positions[s.screen]!.cursor];
}

/** The links of the selected row's detail, in order. */
function detailLinks(row: UiRow | undefined): UiLink[] {
  return row === undefined ? [] : detailOf(row).flatMap((l) => (l.link ? [l.link] : []));
}

export function reduce(data: UiData, s: UiState, a: UiAction): UiState {
  switch (a.type) {
    case 'key':
      return pressKey(data, s, a.name);
    case 'resize':
      return withCursor(data, { ...s, listHeight: Math.max(1, a.listHeight) }, s.positions[s.screen]!.cursor);
    case 'type':
      if (s.mode !== 'search') return s;
      return typed(data, s, s.typing + a.text);
    case 'command':
      return command(data, s, a.command);
  }
}

function command(data: UiData, s: UiState, c: Command): UiState {
  if (c === 'quit' && s.mode !== 'search') return { ...s, quit: true };
  if (s.mode === 'help') return c === 'help' || c === 'back' || c === 'open' ? { ...s, mode: 'normal' } : s;
  if (s.mode === 'search') return searchCommand(data, s, c);
  if (c === 'help') return { ...s, mode: 'help' };
  if (c === 'search') return { ...s, mode: 'search', typing: s.positions[s.screen]!.query };
  if (c.startsWith('screen.')) return switchScreen(data, s, c);
  if (s.focus === 'detail') return detailCommand(data, s, c);
  const pos = s.positions[s.screen]!;
  const count = currentRows(data, s).length;
  switch (c) {
    case 'cursor.up':
      return withCursor(data, s, pos.cursor - 1);
    case 'cursor.down':
      return withCursor(data, s, pos.cursor + 1);
    case 'page.up':
      return withCursor(data, s, pos.cursor - s.listHeight);
    case 'page.down':
      return withCursor(data, s, pos.cursor + s.listHeight);
    case 'cursor.first':
      return withCursor(data, s, 0);
    case 'cursor.last':
      return withCursor(data, s, count - 1);
    case 'open':
      return detailLinks(currentRow(data, s)).length > 0 ? { ...s, focus: 'detail', detailLink: 0 } : s;
    case 'back':
      // Esc first clears the screen's kept filter (keeping the selected row), then goes back.
      return pos.query !== '' ? clearFilter(data, s) : goBack(data, s);
    case 'tree.expand':
    case 'tree.collapse':
      return treeCommand(data, s, c);
    default:
      return s;
  }
}

/**
 * `+` expands the selected tree row; `-` collapses it, or, on a row that is not expanded, goes to its
 * parent and collapses that (as file trees do), so `-` pressed again and again climbs to the top.
 */
function treeCommand(data: UiData, s: UiState, c: 'tree.expand' | 'tree.collapse'): UiState {
  const row = currentRow(data, s);
  const pos = s.positions[s.screen]!;
  if (row?.tree === undefined) return s;
  const expanded = new Set(pos.expanded);
  let target = row.key;
  if (c === 'tree.expand') {
    if (row.tree.children === 0 || expanded.has(row.key)) return s;
    expanded.add(row.key);
  } else if (row.tree.children > 0 && expanded.has(row.key)) expanded.delete(row.key);
  else if (row.tree.parent !== undefined) {
    target = row.tree.parent;
    expanded.delete(target);
  } else return s;
  const next = { ...s, positions: replace(s.positions, s.screen, { ...pos, expanded }) };
  return withCursor(
    data,
    next,
    currentRows(data, next).findIndex((r) => r.key === target),
  );
}

function detailCommand(data: UiData, s: UiState, c: Command): UiState {
  const links = detailLinks(currentRow(data, s));
  switch (c) {
    case 'cursor.up':
      return { ...s, detailLink: clamp(s.detailLink - 1, 0, Math.max(0, links.length - 1)) };
    case 'cursor.down':
      return { ...s, detailLink: clamp(s.detailLink + 1, 0, Math.max(0, links.length - 1)) };
    case 'cursor.first':
      return { ...s, detailLink: 0 };
    case 'cursor.last':
      return { ...s, detailLink: Math.max(0, links.length - 1) };
    case 'open': {
      const link = links[s.detailLink];
      return link === undefined ? s : follow(data, s, link);
    }
    case 'back':
      return { ...s, focus: 'list' };
    default:
      return s;
  }
}

/** The search as typed so far, applied at once: the list shows what matches it, the cursor on the first. */
function typed(data: UiData, s: UiState, typing: string): UiState {
  const positions = replace(s.positions, s.screen, { ...s.positions[s.screen]!, cursor: 0, offset: 0, query: typing });
  return withCursor(data, { ...s, typing, positions }, 0);
}

function searchCommand(data: UiData, s: UiState, c: Command): UiState {
  if (c === 'open') {
    // Enter keeps the filter and puts the cursor on the first match.
    const positions = replace(s.positions, s.screen, { ...s.positions[s.screen]!, cursor: 0, offset: 0, query: s.typing });
    return { ...s, mode: 'normal', focus: 'list', positions };
  }
  if (c === 'back') {
    const positions = replace(s.positions, s.screen, { ...s.positions[s.screen]!, query: '' });
    return withCursor(data, { ...s, mode: 'normal', typing: '', positions }, 0);
  }
  return s;
}

/**
 * One key, by name (see keys.ts). While a search is typed, keys are text (Backspace erases, Enter and
 * Esc end it); otherwise the keymap turns them into commands. Keys arrive one by one through here, so
 * several in one chunk see each other's effect.
 */
function pressKey(data: UiData, s: UiState, name: string): UiState {
  if (name === 'ctrl-c') return { ...s, quit: true, interrupted: true };
  if (s.mode === 'search') {
    if (name === 'backspace') return typed(data, s, s.typing.slice(0, -1));
    if (name === 'enter') return command(data, s, 'open');
    if (name === 'escape') return command(data, s, 'back');
    const text = name === 'space' ? ' ' : name.length === 1 ? name : '';
    return text === '' ? s : typed(data, s, s.typing + text);
  }
  const c = commandFor(name);
  return c === undefined ? s : command(data, s, c);
}

function switchScreen(data: UiData, s: UiState, c: Command): UiState {
  const n = data.screens.length;
  let target: number;
  if (c === 'screen.next') target = (s.screen + 1) % n;
  else if (c === 'screen.previous') target = (s.screen - 1 + n) % n;
  else target = Number(c.slice('screen.'.length));
  if (!(target >= 0 && target < n)) return s;
  return { ...s, screen: target, focus: 'list', detailLink: 0 };
}

/**
 * Jumps to the row a link names, clearing that screen's search if the row is filtered out, and
 * expanding its parents if it sits in a collapsed part of a tree.
 */
export function follow(data: UiData, s: UiState, link: UiLink): UiState {
  const target = data.screens.findIndex((x) => x.id === link.screen);
  if (target < 0) return s;
  const here = currentRow(data, s);
  const history = here ? [...s.history, { screen: s.screen, key: here.key }] : s.history;
  const all = data.screens[target]!.rows;
  let positions = s.positions;
  const shown = () => visibleRows(all, positions[target]!.query, positions[target]!.expanded);
  let index = shown().findIndex((r) => r.key === link.key);
  if (index < 0) {
    positions = replace(positions, target, { ...positions[target]!, query: '', expanded: withAncestors(all, positions[target]!.expanded, link.key) });
    index = shown().findIndex((r) => r.key === link.key);
  }
  if (index < 0) return s;
  return withCursor(data, { ...s, screen: target, positions, focus: 'list', detailLink: 0, history }, index);
}

/** `expanded` with every tree parent of the row `key` added (the same set when it has none to add). */
function withAncestors(rows: readonly UiRow[], expanded: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const out = new Set(expanded);
  for (let p = byKey.get(key)?.tree?.parent; p !== undefined; p = byKey.get(p)?.tree?.parent) out.add(p);
  return out.size === expanded.size ? expanded : out;
}

function clearFilter(data: UiData, s: UiState): UiState {
  const selected = currentRow(data, s)?.key;
  const pos = s.positions[s.screen]!;
  const next = { ...s, positions: replace(s.positions, s.screen, { ...pos, query: '' }) };
  return withCursor(
    data,
    next,
    Math.max(
      0,
      currentRows(data, next).findIndex((r) => r.key === selected),
    ),
  );
}

function goBack(data: UiData, s: UiState): UiState {
  const last = s.history[s.history.length - 1];
  if (last === undefined) return s;
  const rows = visibleRows(data.screens[last.screen]!.rows, s.positions[last.screen]!.query, s.positions[last.screen]!.expanded);
  const index = Math.max(
    0,
    rows.findIndex((r) => r.key === last.key),
  );
  return withCursor(data, { ...s, screen: last.screen, focus: 'detail', history: s.history.slice(0, -1) }, index);
}

function withCursor(data: UiData, s: UiState, cursor: number): UiState {
  const count = currentRows(data, s).length;
  const pos = s.positions[s.screen]!;
  const c = clamp(cursor, 0, Math.max(0, count - 1));
  const offset = windowOffset(c, pos.offset, s.listHeight, count);
  return { ...s, positions: replace(s.positions, s.screen, { ...pos, cursor: c, offset }) };
}

function replace<T>(list: readonly T[], i: number, v: T): T[] {
  const out = [...list];
  out[i] = v;
  return out;
}
