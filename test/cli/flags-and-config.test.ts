/**
 * Flags a script relies on, and the config file: clear errors, and a config that is never applied
 * silently. The CLI runs in-process; a run in another working directory (where the config is looked
 * for) runs the built CLI there.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, test } from 'vitest';

import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { type CliRun, runBuiltCli, runCli, scratchDir } from '../helpers.js';

const root = resolve(import.meta.dirname, '../..');
const DUMP = join(root, 'fixtures/threads/deadlock/dump-1.txt');

async function run(args: string[], cwd = root): Promise<CliRun> {
  const env = { NO_COLOR: '1', FORCE_COLOR: '' };
  return cwd === root ? runCli(args, env) : runBuiltCli(args, { cwd, env });
}

describe('flags', { timeout: 60_000 }, () => {
  test('no command: the help on stderr and exit 2; --help and help: exit 0 on stdout', async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^Usage: dumpsleuth/);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dumpsleuth/);
  });

  test('-j and --top that are not whole numbers name what was given', async () => {
    for (const [args, flag] of [
      [['batch', '-j', 'abc', DUMP], '-j'],
      [['batch', '-j', '0', DUMP], '-j'],
      [['histogram', '--top', 'lots', DUMP], '--top'],
      [['histogram', '--top', '2.5', DUMP], '--top'],
    ] as const) {
      const r = await run([...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${flag} must be a whole number`);
      expect(r.stderr).toContain(`got "${args[2]}"`);
      expect(r.stderr).not.toContain('NaN');
    }
  });
});

describe('the config file', { timeout: 60_000 }, () => {
  test('a missing --config file says so, not "fix the JSON"', async () => {
    const r = await run(['analyze', '-c', 'missing.json', DUMP]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot read config missing\.json: no such file\n {2}check the path/);
  });

  test('a config that is not JSON says so', async () => {
    const dir = scratchDir('cfg');
    writeFileSync(join(dir, 'bad.json'), '{ "rules": ');
    const r = await run(['analyze', '-c', join(dir, 'bad.json'), DUMP]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not valid JSON.*\n {2}fix the JSON/);
  });

  test('./dumpsleuth.config.json picked up by itself is named in every format, and in batch', async () => {
    const dir = scratchDir('cfg');
    writeFileSync(join(dir, 'dumpsleuth.config.json'), JSON.stringify({ rules: { deadlock: 'warning' } }));
    const said = /dumpsleuth\.config\.json, found in the working directory and applied/;
    for (const format of REPORT_FORMATS) {
      const out = (await run(['analyze', '-f', format, '--fail-on', 'never', DUMP], dir)).stdout;
      if (format !== 'json') {
        expect(out, format).toMatch(said);
        continue;
      }
      // JSON names it as data; and it was applied: the deadlock is a warning now.
      const json = JSON.parse(out);
      expect(json.config).toEqual({ path: 'dumpsleuth.config.json', chosen: 'working-directory' });
      expect(json.findings.find((f: { rule: string }) => f.rule === 'deadlock').severity).toBe('warning');
    }
    expect((await run(['batch', '--fail-on', 'never', DUMP], dir)).stderr).toMatch(said);
  });

  test('without a config file, no report mentions one; with --config, it is named as given', async () => {
    const dir = scratchDir('cfg');
    expect(JSON.parse((await run(['analyze', '-f', 'json', '--fail-on', 'never', DUMP], dir)).stdout).config).toBeUndefined();
    expect((await run(['analyze', '--fail-on', 'never', DUMP], dir)).stdout).not.toMatch(/Config:/);
    writeFileSync(join(dir, 'mine.json'), '{}');
    expect(JSON.parse((await run(['analyze', '-f', 'json', '--fail-on', 'never', '-c', join(dir, 'mine.json'), DUMP], dir)).stdout).config).toEqual({
      path: join(dir, 'mine.json'),
      chosen: 'flag',
    });
  });
});

describe('help as a user reads it (issue 48)', () => {
  test('defaults are printed as typed, never quoted; the help\'s word "analyse" is a command too', async () => {
    const batch = await runCli(['batch', '--help']);
    expect(batch.stdout).toMatch(/\(default: error\)/);
    expect(batch.stdout).not.toMatch(/\(default: "/);
    for (const command of ['histogram', 'memory', 'capture']) expect((await runCli([command, '--help'])).stdout, command).not.toMatch(/\(default: "/);
    const analyse = await runCli(['analyse', '--format', 'json', '--fail-on', 'never', 'fixtures/threads/deadlock/dump-1.txt']);
    expect(analyse.code).toBe(0);
    expect(JSON.parse(analyse.stdout).findings.some((f: { rule: string }) => f.rule === 'deadlock')).toBe(true);
  });
});
