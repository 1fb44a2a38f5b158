/** The `?` overlay: the keymap, as the keymap says. */
import { Box, Text } from 'ink';
import { KEYMAP } from '../keys.js';

export function HelpOverlay({ height }: { readonly height: number }) {
  const lines = KEYMAP.filter((b) => !/^screen\.\d+$/.test(b.command) || b.command === 'screen.0').map((b) =>
    /^screen\.\d+$/.test(b.command) ? '  1-7               jump to a screen' : `  ${b.keys.join(', ').padEnd(18)}${b.help}`,
  );
  return (
    <Box flexDirection="column" height={height} borderStyle="round" paddingX={1}>
      <Text bold>Keys</Text>
      {lines.slice(0, Math.max(0, height - 3)).map((l) => (
        <Text key={l}>{l}</Text>
      ))}
    </Box>
  );
}
