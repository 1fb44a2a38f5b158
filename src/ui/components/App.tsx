/**
 * The UI: tabs, the current screen's windowed list, the selected row's detail, a status line. One
 * input router turns keys into commands from the keymap and commands into reducer actions.
 */
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import { useEffect, useReducer, useState } from 'react';

import { keyNames } from '../keys.js';
import { fit, layoutFor, tabLabels } from '../state/layout.js';
import { currentRows, initialState, reduce, type UiAction, type UiState } from '../state/ui-state.js';
import { windowOffset } from '../state/window.js';
import { detailOf, type UiData } from '../view-data.js';
import { DetailPane } from './DetailPane.js';
import { HelpOverlay } from './HelpOverlay.js';
import { ListView } from './ListView.js';

/** `onQuit` gets the exit code: 0 for q, 130 for Ctrl-C (an interrupt, as the README says). */
export function App({ data, onQuit }: { readonly data: UiData; readonly onQuit?: (code: number) => void }) {
  const { stdout } = useStdout();
  const [size, setSize] = useState({ columns: stdout.columns, rows: stdout.rows });
  const [state, dispatch] = useReducer(
    (s: UiState, a: UiAction) => reduce(data, s, a),
    undefined,
    () => initialState(data, layoutFor(size.columns, size.rows).listHeight),
  );
  const rows = currentRows(data, state);
  // The list as tall as its rows up to its share, the detail the rest (see layoutFor).
  const layout = layoutFor(size.columns, size.rows, rows.length);
  const { exit } = useApp();

  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns, rows: stdout.rows });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  useEffect(() => {
    if (state.listHeight !== layout.listHeight) dispatch({ type: 'resize', listHeight: layout.listHeight });
  }, [layout.listHeight, state.listHeight]);
  useEffect(() => {
    if (state.quit) {
      onQuit?.(state.interrupted ? 130 : 0);
      exit();
    }
  }, [state.quit, state.interrupted, exit, onQuit]);

  // One router: every key goes through the reducer, which knows the mode (search, help, list, detail).
  useInput((input, key) => {
    for (const name of keyNames(input, key)) dispatch({ type: 'key', name });
  });

  const screen = data.screens[state.screen]!;
  const pos = state.positions[state.screen]!;
  const row = rows[pos.cursor];
  // The overview, memory, calls and growth screens count no rows worth a number (their rows are of many kinds).
  const specs = data.screens.map((s) => ({
    title: s.title,
    ...(s.rows.length > 0 && s.id !== 'overview' && s.id !== 'memory' && s.id !== 'calls' && s.id !== 'growth' ? { count: s.count ?? s.rows.length } : {}),
  }));
  // The title needs a few columns of its own ("shutdow…"), so the tabs get the rest.
  const tabs = tabLabels(specs, layout.width - 10, (i) => data.screens[i]!.id === 'findings', state.screen);
  // The tabs first; the title gets what room is left on the line.
  const tabsWidth = tabs.reduce((n, t) => n + t.length + 1, 1);
  const title = fit(data.title, Math.max(0, layout.width - tabsWidth - 3)) + (layout.width - tabsWidth > 6 ? '  ' : '');
  const status =
    state.mode === 'search'
      ? `/${state.typing}▏  filtering as you type; Enter keeps the filter, Esc clears it`
      : `${rows.length === 0 ? 0 : pos.cursor + 1}/${rows.length}${pos.query ? `  filter "${pos.query}"` : ''}` +
        `  ${state.focus === 'detail' ? 'Enter follows the link, Esc back' : 'Enter opens'}  ? keys  q quit`;
  return (
    <Box flexDirection="column" width={layout.width}>
      <Text wrap="truncate-end">
        <Text bold>{title}</Text>
        {tabs.map((t, i) => (
          <Text key={t} inverse={i === state.screen} bold={i === state.screen}>
            {i === state.screen ? ` ${t} ` : ` ${t}`}
          </Text>
        ))}
      </Text>
      {state.mode === 'help' ? (
        <HelpOverlay height={layout.listHeight + layout.detailHeight + 1} />
      ) : (
        <>
          <ListView
            rows={rows}
            cursor={pos.cursor}
            // The window for this frame's list height: the state's catches up a render later (see the resize effect).
            offset={windowOffset(pos.cursor, pos.offset, layout.listHeight, rows.length)}
            height={layout.listHeight}
            width={layout.width}
            focused={state.focus === 'list'}
            empty={screen.empty}
            expanded={pos.expanded}
          />
          <Text dimColor>{'─'.repeat(layout.width - 1)}</Text>
          <DetailPane
            lines={row !== undefined ? detailOf(row) : []}
            height={layout.detailHeight}
            width={layout.width}
            selectedLink={state.focus === 'detail' ? state.detailLink : -1}
          />
        </>
      )}
      <Text dimColor>{fit(status, layout.width - 1)}</Text>
    </Box>
  );
}
