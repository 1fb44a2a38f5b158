/**
 * The command line's options (src/cli/): each command's help as its golden file (a change to an option's
 * words shows in `git diff test/golden/`), and an option several commands take read alike by all of them.
 * The help runs in the built CLI (a process whose stdout is a pipe, so commander wraps at 80 columns).
 */
import { describe, expect, test } from 'vitest';

import { COMMANDS } from '../../src/cli/commands.js';
import { flagName } from '../../src/cli/option.js';
import { DUMP, MAX_GUNZIP_SIZE, MAX_MEMORY } from '../../src/cli/options.js';
import { runBuiltCli, runCli } from '../helpers.js';

describe('options', { timeout: 120_000 }, () => {
  test("every command's help, and the program's, is its golden file", async () => {
    const names = [[], ...COMMANDS.flatMap((c) => [[c.name], ...(c.alias !== undefined ? [[c.alias]] : [])])];
    const helps = names.map((name) => {
      const r = runBuiltCli([...name, '--help']);
      expect(r.code, name.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      return `$ dumpsleuth ${[...name, '--help'].join(' ')}\n${r.stdout}`;
    });
    await expect(helps.join('\n')).toMatchFileSnapshot('../golden/cli-help.txt');
  });

  test('an option several commands take is refused in the same words by each, and a good value passes', async () => {
    for (const [option, bad, good] of [
      [DUMP, '0', '2'],
      [MAX_GUNZIP_SIZE, 'lots', '1g'],
      [MAX_MEMORY, '12q', '512m'],
    ] as const) {
      const flag = flagName(option);
      const takers = COMMANDS.filter((c) => Object.values(c.options).some((o) => flagName(o) === flag));
      expect(takers.length, flag).toBeGreaterThan(1);
      const refusals = new Set<string>();
      for (const c of takers) {
        // A required option (extract's -o) given, so the run gets as far as reading the values.
        const required = Object.values(c.options).flatMap((o) => ('required' in o && o.required === true ? [flagName(o), 'out.json'] : []));
        const args = (value: string) => [c.name, ...required, flag, value, 'no-such-input'];
        const refused = await runCli(args(bad));
        expect(refused.code, `${c.name} ${flag} ${bad}`).toBe(2);
        refusals.add(refused.stderr);
        const passed = await runCli(args(good));
        expect(passed.stderr, `${c.name} ${flag} ${good}`).not.toContain(flag);
      }
      expect([...refusals], flag).toHaveLength(1);
      expect([...refusals][0]).toMatch(new RegExp(`^error: ${flag} .*\\n  .+\\n$`));
    }
  });
});
