/** Small things the formats must get right: Markdown's `$` (GitHub math), and a selected link without colour. */
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';

import { mdText } from '../../src/report/markdown.js';
import { DetailPane } from '../../src/ui/components/DetailPane.js';

describe('escaping and marking', () => {
  test('Markdown escapes $, so Foo$Bar$Baz is not set as math', () => {
    expect(mdText('com.acme.Outer$Inner$1')).toBe('com.acme.Outer\\$Inner\\$1');
  });

  test('with colours off (NO_COLOR), the selected link of a detail is marked by a character', () => {
    const level = chalk.level;
    chalk.level = 0;
    try {
      const lines = [
        { text: 'evidence' },
        { text: '  → "worker-1"', link: { screen: 'threads' as const, key: 'a' } },
        { text: '  → "worker-2"', link: { screen: 'threads' as const, key: 'b' } },
      ];
      const frame = render(<DetailPane lines={lines} height={5} width={40} selectedLink={1} />).lastFrame() ?? '';
      expect(frame).toContain('› → "worker-2"');
      expect(frame).toContain('  → "worker-1"');
    } finally {
      chalk.level = level;
    }
  });
});
