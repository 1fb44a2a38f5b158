/**
 * The keymap as data: key names to named commands. One table, so the help overlay lists exactly what
 * the keys do, and tests drive commands without a terminal.
 */

export type Command =
  | 'cursor.up'
  | 'cursor.down'
  | 'page.up'
  | 'page.down'
  | 'cursor.first'
  | 'cursor.last'
  | 'open'
  | 'back'
  | 'search'
  | 'help'
  | 'quit'
  | 'screen.next'
  | 'screen.previous'
  | 'tree.expand'
  | 'tree.collapse'
  | `screen.${number}`;

export interface KeyBinding {
  readonly keys: readonly string[];
  readonly command: Command;
  readonly help: string;
}

export const KEYMAP: readonly KeyBinding[] = [
  { keys: ['up', 'k'], command: 'cursor.up', help: 'move up' },
  { keys: ['down', 'j'], command: 'cursor.down', help: 'move down' },
  { keys: ['pageup'], command: 'page.up', help: 'page up' },
  { keys: ['pagedown', 'space'], command: 'page.down', help: 'page down' },
  { keys: ['g', 'home'], command: 'cursor.first', help: 'first row' },
  { keys: ['G', 'end'], command: 'cursor.last', help: 'last row' },
  { keys: ['enter'], command: 'open', help: 'open: details, then follow a link (evidence thread, cause)' },
  { keys: ['escape', 'backspace'], command: 'back', help: 'back' },
  { keys: ['/'], command: 'search', help: 'filter by names and frames as you type (Enter keeps the filter, Esc clears it)' },
  { keys: ['?'], command: 'help', help: 'this help' },
  { keys: ['q'], command: 'quit', help: 'quit' },
  { keys: ['tab', 'right', 'l'], command: 'screen.next', help: 'next screen' },
  { keys: ['shift-tab', 'left', 'h'], command: 'screen.previous', help: 'previous screen' },
  { keys: ['+', '='], command: 'tree.expand', help: 'expand the tree row (Threads, Memory and Calls screens)' },
  { keys: ['-'], command: 'tree.collapse', help: 'collapse it, or go up to its parent' },
  // 0 is the tenth screen (Growth, when heap dumps are compared).
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'].map((n) => ({ keys: [n], command: `screen.${(Number(n) + 9) % 10}` as Command, help: `screen ${n}` })),
];

const BY_KEY = new Map<string, Command>(KEYMAP.flatMap((b) => b.keys.map((k) => [k, b.command] as const)));

export function commandFor(key: string): Command | undefined {
  return BY_KEY.get(key);
}

/** What Ink's useInput reports about a key, reduced to the fields we read. */
export interface InkKey {
  readonly upArrow?: boolean;
  readonly downArrow?: boolean;
  readonly leftArrow?: boolean;
  readonly rightArrow?: boolean;
  readonly pageUp?: boolean;
  readonly pageDown?: boolean;
  readonly return?: boolean;
  readonly escape?: boolean;
  readonly backspace?: boolean;
  readonly delete?: boolean;
  readonly tab?: boolean;
  readonly shift?: boolean;
  readonly ctrl?: boolean;
  readonly home?: boolean;
  readonly end?: boolean;
}

/**
 * Key names for one useInput call. Several characters can arrive in one call (fast typing, a paste,
 * keys sent in one chunk): each is its own key.
 */
export function keyNames(input: string, key: InkKey): string[] {
  if (key.upArrow) return ['up'];
  if (key.downArrow) return ['down'];
  if (key.leftArrow) return ['left'];
  if (key.rightArrow) return ['right'];
  if (key.pageUp) return ['pageup'];
  if (key.pageDown) return ['pagedown'];
  if (key.home) return ['home'];
  if (key.end) return ['end'];
  if (key.return) return ['enter'];
  if (key.escape) return ['escape'];
  if (key.backspace || key.delete) return ['backspace'];
  if (key.tab) return [key.shift ? 'shift-tab' : 'tab'];
  if (key.ctrl && input === 'c') return ['ctrl-c'];
  return [...input].map((c) => (c === ' ' ? 'space' : c === '\r' ? 'enter' : c));
}
