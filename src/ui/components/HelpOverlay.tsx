/** The `?` overlay: the keymap, as the keymap says. */
import { Box, Text } from 'ink';

import { KEYMAP } from '../keys.js';

export function HelpOverlay({ height }: { readonly height: number }) {
  const isJump = (b: (typeof KEYMAP)[number]) => /^screen\.\d+$/.test(b.command);
  const shown = KEYMAP.filter((b) => !isJump(b) || b.command === 'screen.0');
  const jumps = KEYMAP.filter(isJump).length;
  const keysOf = (b: (typeof KEYMAP)[number]) => (isJump(b) ? (jumps > 9 ? '1-9, 0' : `1-${jumps}`) : b.keys.join(', '));
  // The widest key list sets the column, so no help text runs into its keys.
  const column = Math.max(...shown.map((b) => keysOf(b).length)) + 2;
  const lines = shown.map((b) => `  ${keysOf(b).padEnd(column)}${isJump(b) ? 'jump to a screen' : b.help}`);
  return (
    <Box flexDirection="column" height={height} borderStyle="round" paddingX={1}>
      <Text bold>Keys</Text>
      {lines.slice(0, Math.max(0, height - 3)).map((l) => (
        <Text key={l}>{l}</Text>
      ))}
    </Box>
  );
}
