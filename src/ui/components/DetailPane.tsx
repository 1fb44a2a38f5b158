/** The selected row's detail: wrapped lines, scrolled so the selected link stays in view. */
import { Box, Text } from 'ink';

import { wrap } from '../state/layout.js';
import type { UiDetailLine } from '../view-data.js';
import { toneProps } from './tone.js';

export interface DetailPaneProps {
  readonly lines: readonly UiDetailLine[];
  readonly height: number;
  readonly width: number;
  /** Index (among link lines) of the selected link when the pane has the focus, else -1. */
  readonly selectedLink: number;
}

export function DetailPane({ lines, height, width, selectedLink }: DetailPaneProps) {
  const pieces: Array<{ text: string; line: UiDetailLine; selected: boolean }> = [];
  let link = -1;
  let selectedAt = 0;
  for (const line of lines) {
    if (line.link) link++;
    const selected = line.link !== undefined && link === selectedLink;
    if (selected) selectedAt = pieces.length;
    // The selected link is marked by a character as well as by its style: without colour (NO_COLOR) styles are not drawn.
    wrap(line.text, width - 1).forEach((text, k) => pieces.push({ text: selected && k === 0 ? `›${text.slice(1)}` : text, line, selected }));
  }
  const start = selectedAt >= height ? selectedAt - Math.floor(height / 2) : 0;
  // More below than fits: the last line says so, and how to see it (the pane scrolls with its links).
  const below = pieces.length - (start + height);
  const shown = below > 0 ? pieces.slice(start, start + height - 1) : pieces.slice(start, start + height);
  return (
    <Box flexDirection="column" height={height}>
      {shown.map((p, i) => (
        <Text key={i} {...toneProps(p.line.tone)} underline={p.line.link !== undefined && !p.selected} inverse={p.selected} wrap="truncate-end">
          {p.text}
        </Text>
      ))}
      {below > 0 ? (
        <Text dimColor wrap="truncate-end">
          {`… ${below + 1} more lines${link >= 0 ? ' (Enter, then ↓, walks the links)' : ''}`}
        </Text>
      ) : null}
    </Box>
  );
}
