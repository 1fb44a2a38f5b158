/** The UI's reducer, keymap and window maths, without Ink. */
import { describe, expect, it } from 'vitest';

import { commandFor, keyNames } from '../../src/ui/keys.js';
import { layoutFor, tabLabels, wrap } from '../../src/ui/state/layout.js';
import { currentRow, currentRows, initialState, reduce, type UiState, visibleRows } from '../../src/ui/state/ui-state.js';
import { scrollThumb, windowOffset } from '../../src/ui/state/window.js';
import type { UiData, UiRow } from '../../src/ui/view-data.js';

const row = (key: string, text: string, detail: UiRow['detail'] = []): UiRow => ({ key, text, search: text.toLowerCase(), detail });

function data(threads = 20_000): UiData {
  return {
    title: 't',
    screens: [
      {
        id: 'findings',
        title: 'Findings',
        empty: '',
        rows: [
          row('f1', 'leak', [
            { text: 'msg' },
            { text: '→ t5', link: { screen: 'threads', key: 'k5' } },
            { text: '→ t9', link: { screen: 'threads', key: 'k9' } },
          ]),
        ],
      },
      { id: 'threads', title: 'Threads', empty: '', rows: Array.from({ length: threads }, (_, i) => row(`k${i}`, `worker-${i} ${i % 2 ? 'odd' : 'even'}`)) },
    ],
  };
}

const press = (d: UiData, s: UiState, ...keys: string[]) => keys.reduce((acc, k) => reduce(d, acc, { type: 'key', name: k }), s);

describe('window maths', () => {
  it('keeps the cursor on screen and the window full', () => {
    expect(windowOffset(0, 0, 10, 100)).toBe(0);
    expect(windowOffset(9, 0, 10, 100)).toBe(0);
    expect(windowOffset(10, 0, 10, 100)).toBe(1);
    expect(windowOffset(99, 0, 10, 100)).toBe(90);
    expect(windowOffset(50, 60, 10, 100)).toBe(50);
    expect(windowOffset(5, 3, 10, 8)).toBe(0);
  });
  it('sizes and places the scrollbar thumb', () => {
    expect(scrollThumb(0, 10, 5)).toBeNull();
    expect(scrollThumb(0, 10, 100)).toEqual({ start: 0, size: 1 });
    expect(scrollThumb(90, 10, 100)).toEqual({ start: 9, size: 1 });
    expect(scrollThumb(0, 10, 20)).toEqual({ start: 0, size: 5 });
  });
  it('splits the screen and wraps long lines at spaces', () => {
    expect(layoutFor(100, 30)).toEqual({ listHeight: 14, detailHeight: 12, width: 100 });
    expect(layoutFor(undefined, undefined).width).toBe(100);
    // A short list takes its rows (at least 3) and the detail the rest; a long one keeps its share.
    expect(layoutFor(100, 30, 2)).toEqual({ listHeight: 3, detailHeight: 23, width: 100 });
    expect(layoutFor(100, 30, 9)).toEqual({ listHeight: 9, detailHeight: 17, width: 100 });
    expect(layoutFor(100, 30, 500)).toEqual(layoutFor(100, 30));
    expect(wrap('aaa bbb ccc', 7)).toEqual(['aaa bbb', '    ccc']);
    expect(wrap('x'.repeat(10), 4)).toEqual(['xxxx', 'xxxx', 'xx']);
  });
  it("drops the tabs' counts that do not fit, the findings' last", () => {
    const tabs = [{ title: 'Findings', count: 12 }, { title: 'Threads', count: 20_000 }, { title: 'Memory' }];
    const findings = (i: number) => i === 0;
    expect(tabLabels(tabs, 80, findings)).toEqual(['1 Findings (12)', '2 Threads (20000)', '3 Memory']);
    expect(tabLabels(tabs, 40, findings)).toEqual(['1 Findings (12)', '2 Threads', '3 Memory']);
    expect(tabLabels(tabs, 32, findings)).toEqual(['1 Findings', '2 Threads', '3 Memory']);
    // Narrower still: the selected tab keeps its title, the others their number (their key).
    expect(tabLabels(tabs, 20, findings, 1)).toEqual(['1', '2 Threads', '3']);
    // The UI's nine screens at 80 columns (the App gives the tabs all but 10 of them): all fit, each with its key.
    const nine = ['Overview', 'Findings', 'Threads', 'Pools', 'Counters', 'Locks', 'Series', 'Memory', 'Calls'].map((title) => ({ title, count: 12 }));
    const at80 = tabLabels(nine, 70, findings, 7);
    expect(at80.reduce((n, l) => n + l.length + 1, 1)).toBeLessThanOrEqual(70);
    expect(at80.map((l) => l.split(' ')[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(at80[7]).toBe('8 Memory');
    // At 100 columns every title shows.
    expect(tabLabels(nine, 90, findings, 0).every((l) => l.includes(' '))).toBe(true);
  });
});

describe('keys', () => {
  it('maps names to commands and splits characters sent in one chunk', () => {
    expect(commandFor('j')).toBe('cursor.down');
    expect(commandFor('G')).toBe('cursor.last');
    expect(commandFor('3')).toBe('screen.2');
    expect(keyNames('jjk', {})).toEqual(['j', 'j', 'k']);
    expect(keyNames('', { downArrow: true })).toEqual(['down']);
    expect(keyNames('', { tab: true, shift: true })).toEqual(['shift-tab']);
    expect(keyNames('c', { ctrl: true })).toEqual(['ctrl-c']);
  });
});

describe('reducer', () => {
  const d = data();
  const start = reduce(d, initialState(d, 10), { type: 'key', name: '2' });

  it('moves, pages and jumps on 20k rows, keeping the window on the cursor', () => {
    let s = press(d, start, 'j', 'j', 'j');
    expect(s.positions[1]).toMatchObject({ cursor: 3, offset: 0 });
    s = press(d, s, 'pagedown');
    expect(s.positions[1]).toMatchObject({ cursor: 13, offset: 4 });
    s = press(d, s, 'G');
    expect(s.positions[1]).toMatchObject({ cursor: 19_999, offset: 19_990 });
    s = press(d, s, 'g', 'k');
    expect(s.positions[1]).toMatchObject({ cursor: 0, offset: 0 });
  });

  it('searches as you type, keeps the filter on Enter, clears it on Esc', () => {
    let s = press(d, start, '/', '1', '9', '9', '9', '9');
    expect(s.mode).toBe('search');
    expect(s.typing).toBe('19999');
    // The list is filtered with each key, before Enter: only the matching row, the cursor on it.
    expect(s.positions[1]!.query).toBe('19999');
    expect(currentRows(d, s).map((r) => r.key)).toEqual(['k19999']);
    expect(currentRow(d, s)?.key).toBe('k19999');
    s = press(d, s, 'backspace');
    expect(currentRows(d, s).map((r) => r.key)).toEqual(expect.arrayContaining(['k1999', 'k19990', 'k19999']));
    expect(currentRows(d, s).length).toBe(12); // 1999, 11999 and 19990 to 19999
    s = press(d, s, 'enter');
    expect(s.mode).toBe('normal');
    expect(s.positions[1]!.query).toBe('1999');
    expect(visibleRows(d.screens[1]!.rows, '1999').map((r) => r.key)).toContain('k1999');
    expect(currentRow(d, s)?.key).toBe('k1999');
    s = press(d, s, '/', 'escape');
    expect(s.positions[1]!.query).toBe('');
  });

  it('Esc in the list clears a kept filter, staying on the selected row', () => {
    let s = press(d, start, '/', '1', '9', '9', '9', '9', 'enter');
    expect(s.positions[1]!.query).toBe('19999');
    expect(currentRow(d, s)?.key).toBe('k19999');
    s = press(d, s, 'escape');
    expect(s.positions[1]!.query).toBe('');
    expect(currentRow(d, s)?.key).toBe('k19999');
    expect(currentRows(d, s).length).toBe(20_000);
  });

  it('opens a detail, follows a link to its row, and comes back', () => {
    let s = press(d, initialState(d, 10), 'enter');
    expect(s.focus).toBe('detail');
    s = press(d, s, 'j', 'enter');
    expect(s.screen).toBe(1);
    expect(currentRow(d, s)?.key).toBe('k9');
    expect(s.positions[1]!.offset).toBe(0);
    s = press(d, s, 'escape');
    expect(s.screen).toBe(0);
    expect(s.focus).toBe('detail');
    s = press(d, s, 'escape');
    expect(s.focus).toBe('list');
  });

  it('follows a link into a filtered screen by clearing its filter', () => {
    let s = press(d, start, '/', 'o', 'd', 'd', 'enter');
    // worker-5 is odd: the filter keeps it.
    s = press(d, s, '1', 'enter', 'enter');
    expect(currentRow(d, s)?.key).toBe('k5');
    expect(s.positions[1]!.query).toBe('odd');
    s = press(d, s, '/', 'backspace', 'backspace', 'backspace', 'e', 'v', 'e', 'n', 'enter');
    // worker-9 is not even: following the link clears the filter rather than going nowhere.
    s = press(d, s, '1', 'enter', 'j', 'enter');
    expect(currentRow(d, s)?.key).toBe('k9');
    expect(s.positions[1]!.query).toBe('');
  });

  it('help is an overlay; q quits except while typing a search', () => {
    let s = press(d, start, '?');
    expect(s.mode).toBe('help');
    s = press(d, s, 'j');
    expect(s.mode).toBe('help');
    s = press(d, s, 'escape');
    expect(s.mode).toBe('normal');
    expect(press(d, s, '/', 'q').quit).toBe(false);
    expect(press(d, s, 'q').quit).toBe(true);
    expect(press(d, s, 'ctrl-c').quit).toBe(true);
    // Ctrl-C is an interrupt (exit 130), q is not (exit 0).
    expect(press(d, s, 'ctrl-c').interrupted).toBe(true);
    expect(press(d, s, 'q').interrupted).toBe(false);
  });

  it('tab cycles screens and numbers jump', () => {
    expect(press(d, start, 'tab').screen).toBe(0);
    expect(press(d, start, 'shift-tab').screen).toBe(0);
    expect(press(d, start, '9').screen).toBe(1);
  });

  it('resizing keeps the cursor visible', () => {
    let s = press(d, start, 'G');
    s = reduce(d, s, { type: 'resize', listHeight: 4 });
    expect(s.positions[1]).toMatchObject({ cursor: 19_999, offset: 19_996 });
  });
});

describe('tree rows (the Memory screen)', () => {
  // root ─ a ─ a1
  //      └ b        top-2 (a leaf); root starts expanded, a does not.
  const treeRow = (key: string, depth: number, children: number, parent?: string, open?: boolean): UiRow => ({
    ...row(key, key),
    tree: { depth, children, ...(parent !== undefined ? { parent } : {}), ...(open ? { open } : {}) },
  });
  const d: UiData = {
    title: 't',
    screens: [
      { id: 'findings', title: 'Findings', empty: '', rows: [row('f1', 'leak', [{ text: '→ a1', link: { screen: 'memory', key: 'a1' } }])] },
      {
        id: 'memory',
        title: 'Memory',
        empty: '',
        rows: [
          row('head', 'heap'),
          treeRow('root', 0, 2, undefined, true),
          treeRow('a', 1, 1, 'root'),
          treeRow('a1', 2, 0, 'a'),
          treeRow('b', 1, 0, 'root'),
          treeRow('top-2', 0, 0),
        ],
      },
    ],
  };
  const keys = (s: UiState) => visibleRows(d.screens[1]!.rows, s.positions[1]!.query, s.positions[1]!.expanded).map((r) => r.key);
  const start = press(d, initialState(d, 10), '2');

  it('shows the rows whose parents are expanded, starting from the rows marked open', () => {
    expect(keys(start)).toEqual(['head', 'root', 'a', 'b', 'top-2']);
  });

  it('+ expands, - collapses, and - on a row that is not expanded climbs to its parent and collapses it', () => {
    let s = press(d, start, 'j', 'j', '+');
    expect(keys(s)).toEqual(['head', 'root', 'a', 'a1', 'b', 'top-2']);
    s = press(d, s, 'j');
    expect(currentRow(d, s)?.key).toBe('a1');
    s = press(d, s, '-');
    expect(currentRow(d, s)?.key).toBe('a');
    expect(keys(s)).toEqual(['head', 'root', 'a', 'b', 'top-2']);
    s = press(d, s, '-');
    expect(currentRow(d, s)?.key).toBe('root');
    expect(keys(s)).toEqual(['head', 'root', 'top-2']);
    // A leaf at the top and a row outside the tree have nothing to do.
    expect(press(d, s, 'j', '+').positions[1]!.expanded).toBe(press(d, s, 'j').positions[1]!.expanded);
    expect(press(d, s, 'k', '-')).toEqual(press(d, s, 'k'));
  });

  it('a search shows matching rows wherever they sit in the tree', () => {
    const s = press(d, start, '/', 'a', '1', 'enter');
    expect(currentRow(d, s)?.key).toBe('a1');
  });

  it('following a link to a collapsed row expands its parents', () => {
    const collapsed = press(d, start, 'j', '-', '1');
    expect(keys(collapsed)).toEqual(['head', 'root', 'top-2']);
    const s = press(d, collapsed, 'enter', 'enter');
    expect(s.screen).toBe(1);
    expect(currentRow(d, s)?.key).toBe('a1');
    expect(keys(s)).toEqual(['head', 'root', 'a', 'a1', 'b', 'top-2']);
  });
});

describe('hostile strings', () => {
  it('thread names and frames with terminal escapes reach the UI inert', async () => {
    const { TextDumpParser } = await import('../../src/threads/text-parser.js');
    const { buildModel } = await import('../../src/reconstruct/build-model.js');
    const { buildUiData } = await import('../../src/ui/build-view.js');
    // Hand-written: a format edge case (a name carrying CSI, OSC 8 and BEL), not a JVM's output.
    const p = new TextDumpParser('hostile.txt');
    const text = [
      'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):',
      '',
      '"\u001b[2J\u001b]8;;http://x\u0007click\u001b]8;;\u0007-1" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition  [0x3]',
      '   java.lang.Thread.State: WAITING (parking)',
      '\tat evil.\u001b[31mRed.run(Red.java:1)',
      '',
    ];
    for (const l of text) p.push(l);
    const model = buildModel([{ path: 'hostile.txt', format: 'hotspot', gzip: false, encoding: 'utf-8', file: p.finish() }]);
    const data = buildUiData(model, [], 'hostile');
    // What the UI reads of every row (thread rows make their strings when read).
    const { detailOf } = await import('../../src/ui/view-data.js');
    const all = JSON.stringify(data.screens.map((sc) => sc.rows.map((r) => ({ key: r.key, text: r.text, search: r.search, detail: detailOf(r) }))));
    expect(all).toContain('click');
    expect(all).not.toMatch(/\\u001b|\\u0007/);
    expect(data.screens.find((s) => s.id === 'threads')!.rows[0]!.text).toContain('click');
  });
});
