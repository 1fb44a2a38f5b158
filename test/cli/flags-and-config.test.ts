/** Flags a script relies on, and the config file: clear errors, and a config that is never applied silently. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tsx = import.meta.resolve('tsx');
const DUMP = join(root, 'fixtures/threads/deadlock/dump-1.txt');

function run(args: string[], cwd = root) {
  const r = spawnSync(process.execPath, ['--import', tsx, join(root, 'src/cli.ts'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('flags', { timeout: 60_000 }, () => {
  test('no command: the help on stderr and exit 2; --help and help: exit 0 on stdout', () => {
    const none = run([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^Usage: dumpsleuth/);
    const help = run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dumpsleuth/);
  });

  test('-j and --top that are not whole numbers name what was given', () => {
    for (const [args, flag] of [
      [['batch', '-j', 'abc', DUMP], '-j'],
      [['batch', '-j', '0', DUMP], '-j'],
      [['histogram', '--top', 'lots', DUMP], '--top'],
      [['histogram', '--top', '2.5', DUMP], '--top'],
    ] as const) {
      const r = run([...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${flag} must be a whole number`);
      expect(r.stderr).toContain(`got "${args[2]}"`);
      expect(r.stderr).not.toContain('NaN');
    }
  });
});

describe('the config file', { timeout: 60_000 }, () => {
  test('a missing --config file says so, not "fix the JSON"', () => {
    const r = run(['analyze', '-c', 'missing.json', DUMP]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot read config missing\.json: no such file\n {2}check the path/);
  });

  test('a config that is not JSON says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-cfg-'));
    writeFileSync(join(dir, 'bad.json'), '{ "rules": ');
    const r = run(['analyze', '-c', join(dir, 'bad.json'), DUMP]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not valid JSON.*\n {2}fix the JSON/);
  });

  test('./dumpsleuth.config.json picked up by itself is named in every format, and in batch', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-cfg-'));
    writeFileSync(join(dir, 'dumpsleuth.config.json'), JSON.stringify({ rules: { deadlock: 'warning' } }));
    const said = /dumpsleuth\.config\.json, found in the working directory and applied/;
    const text = run(['analyze', '--fail-on', 'never', DUMP], dir);
    expect(text.stdout).toMatch(said);
    // It was applied: the deadlock is a warning now.
    const json = JSON.parse(run(['analyze', '-f', 'json', '--fail-on', 'never', DUMP], dir).stdout);
    expect(json.config).toEqual({ path: 'dumpsleuth.config.json', chosen: 'working-directory' });
    expect(json.findings.find((f: { rule: string }) => f.rule === 'deadlock').severity).toBe('warning');
    expect(run(['analyze', '-f', 'markdown', '--fail-on', 'never', DUMP], dir).stdout).toMatch(said);
    expect(run(['analyze', '-f', 'html', '--fail-on', 'never', DUMP], dir).stdout).toMatch(said);
    expect(run(['batch', '--fail-on', 'never', DUMP], dir).stderr).toMatch(said);
  });

  test('without a config file, no report mentions one; with --config, it is named as given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-cfg-'));
    expect(JSON.parse(run(['analyze', '-f', 'json', '--fail-on', 'never', DUMP], dir).stdout).config).toBeUndefined();
    expect(run(['analyze', '--fail-on', 'never', DUMP], dir).stdout).not.toMatch(/Config:/);
    writeFileSync(join(dir, 'mine.json'), '{}');
    expect(JSON.parse(run(['analyze', '-f', 'json', '--fail-on', 'never', '-c', join(dir, 'mine.json'), DUMP], dir).stdout).config).toEqual({ path: join(dir, 'mine.json'), chosen: 'flag' });
  });
});
