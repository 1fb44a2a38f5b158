/** A windowed list: only the rows on screen are drawn, with a cursor and a scrollbar. */
import { Box, Text } from 'ink';

import { fit } from '../state/layout.js';
import { scrollThumb } from '../state/window.js';
import type { UiRow } from '../view-data.js';
import { toneProps } from './tone.js';

export interface ListViewProps {
  readonly rows: readonly UiRow[];
  readonly cursor: number;
  readonly offset: number;
  readonly height: number;
  readonly width: number;
  readonly focused: boolean;
  readonly empty: string;
  /** Tree rows shown expanded (their marker is ▾). */
  readonly expanded?: ReadonlySet<string>;
}

/** A tree row's indentation and marker: ▸ collapsed, ▾ expanded, blank for a leaf. */
function treePrefix(row: UiRow, expanded: ReadonlySet<string> | undefined): string {
  if (row.tree === undefined) return '';
  const marker = row.tree.children === 0 ? ' ' : expanded?.has(row.key) ? '▾' : '▸';
  return `${'  '.repeat(row.tree.depth)}${marker} `;
}

export function ListView({ rows, cursor, offset, height, width, focused, empty, expanded }: ListViewProps) {
  if (rows.length === 0) {
    return (
      <Box height={height}>
        <Text dimColor>{fit(empty, width)}</Text>
      </Box>
    );
  }
  const thumb = scrollThumb(offset, height, rows.length);
  const shown = rows.slice(offset, offset + height);
  return (
    <Box flexDirection="column" height={height}>
      {shown.map((row, i) => {
        const selected = offset + i === cursor;
        const bar = thumb === null ? ' ' : i >= thumb.start && i < thumb.start + thumb.size ? '┃' : '│';
        const text = fit(`${selected ? '›' : ' '} ${treePrefix(row, expanded)}${row.text}`, width - 2);
        return (
          <Box key={row.key}>
            <Text {...toneProps(row.tone)} inverse={selected && focused} wrap="truncate-end">
              {text.padEnd(width - 2)}
            </Text>
            <Text dimColor> {bar}</Text>
          </Box>
        );
      })}
    </Box>
  );
}
