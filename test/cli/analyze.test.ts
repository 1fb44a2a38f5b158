/** The CLI contract: formats, exit codes, colours, stdin, errors without stack traces. Runs src/cli.ts through tsx. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

function run(args: string[], opts: { input?: Buffer | string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    input: opts.input,
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...opts.env },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('dumpsleuth analyze', { timeout: 60_000 }, () => {
  test('a deadlock exits 1 by default and 0 with --fail-on never', () => {
    expect(run(['analyze', 'fixtures/threads/deadlock/dump-1.txt']).code).toBe(1);
    expect(run(['analyze', '--fail-on', 'never', 'fixtures/threads/deadlock/dump-1.txt']).code).toBe(0);
  });

  test('a warning is below the default threshold, at or above --fail-on warning', () => {
    expect(run(['analyze', 'fixtures/threads/contention']).code).toBe(0);
    expect(run(['analyze', '--fail-on', 'warning', 'fixtures/threads/contention']).code).toBe(1);
  });

  test('json has the dumpsleuth.report/1 shape', () => {
    const r = run(['analyze', '--format', 'json', 'fixtures/threads/deadlock/dump-1.txt']);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema).toBe('dumpsleuth.report/1');
    expect(doc.inputs[0]).toMatchObject({ path: 'fixtures/threads/deadlock/dump-1.txt', kind: 'threads', format: 'hotspot', dumps: 1, unparsedLines: 0 });
    expect(Object.keys(doc.model)).toEqual(expect.arrayContaining(['executors', 'counters', 'connectionPools', 'locks', 'shutdown']));
    const f = doc.findings.find((x: any) => x.rule === 'deadlock');
    expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'rule', 'severity', 'subject', 'title', 'message', 'facts', 'evidence', 'causedBy', 'remedy']));
  });

  test('stdin with -', () => {
    const r = run(['analyze', '--format', 'json', '-'], { input: readFileSync('fixtures/threads/deadlock/dump-1.txt') });
    expect(JSON.parse(r.stdout).inputs[0].threads).toBe(30);
  });

  test('something that is not a dump: exit 2, one clear line, no stack trace', () => {
    const r = run(['analyze', 'package.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: package\.json is JSON that is neither/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('errors outrank findings', () => {
    expect(run(['analyze', 'fixtures/threads/deadlock/dump-1.txt', 'package.json']).code).toBe(2);
  });

  test('usage errors exit 2', () => {
    expect(run(['analyze']).code).toBe(2);
    expect(run(['analyze', '--bogus', 'x']).code).toBe(2);
    expect(run(['analyze', '--fail-on', 'sometimes', 'fixtures/threads/deadlock']).code).toBe(2);
    expect(run(['analyze', 'no/such/file']).code).toBe(2);
  });

  test('colour: FORCE_COLOR colours, NO_COLOR and --no-color do not', () => {
    const forced = run(['analyze', 'fixtures/threads/deadlock/dump-1.txt'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\u001b\[/);
    expect(run(['analyze', 'fixtures/threads/deadlock/dump-1.txt'], { env: { NO_COLOR: '1' } }).stdout).not.toMatch(/\u001b\[/);
    expect(run(['analyze', '--no-color', 'fixtures/threads/deadlock/dump-1.txt'], { env: { FORCE_COLOR: '1' } }).stdout).not.toMatch(/\u001b\[/);
  });

  test('config: severity overrides and bad configs', () => {
    const dir = 'test/cli/configs';
    const r = run(['analyze', '--format', 'json', '--config', `${dir}/deadlock-warning.json`, 'fixtures/threads/deadlock/dump-1.txt']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).findings.every((f: any) => f.rule !== 'deadlock' || f.severity === 'warning')).toBe(true);
    const bad = run(['analyze', '--config', `${dir}/unknown-rule.json`, 'fixtures/threads/deadlock/dump-1.txt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/rules\.no-such-rule: unknown rule id/);
  });

  test('rules lists every rule id', () => {
    const r = run(['rules']);
    for (const id of ['deadlock', 'lock-contention', 'stuck-threads', 'executor-saturated']) expect(r.stdout).toContain(id);
  });
});
