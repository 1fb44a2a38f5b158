/**
 * The CLI contract: formats, exit codes, colours, stdin, errors without stack traces. Runs the CLI
 * in-process (src/cli/main.ts); stdin needs a process of its own, so that one runs the built CLI.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

import { type CliRun, runBuiltCli, runCli } from '../helpers.js';

async function run(args: string[], opts: { input?: Buffer | string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const env = { NO_COLOR: '', FORCE_COLOR: '', ...opts.env };
  return opts.input !== undefined ? runBuiltCli(args, { input: opts.input, env }) : runCli(args, env);
}

describe('dumpsleuth analyze', { timeout: 60_000 }, () => {
  test('a deadlock exits 1 by default and 0 with --fail-on never', async () => {
    expect((await run(['analyze', 'fixtures/threads/deadlock/dump-1.txt'])).code).toBe(1);
    expect((await run(['analyze', '--fail-on', 'never', 'fixtures/threads/deadlock/dump-1.txt'])).code).toBe(0);
  });

  test('a warning is below the default threshold, at or above --fail-on warning', async () => {
    expect((await run(['analyze', 'fixtures/threads/contention'])).code).toBe(0);
    expect((await run(['analyze', '--fail-on', 'warning', 'fixtures/threads/contention'])).code).toBe(1);
  });

  test('json has the dumpsleuth.report/1 shape', async () => {
    const r = await run(['analyze', '--format', 'json', 'fixtures/threads/deadlock/dump-1.txt']);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema).toBe('dumpsleuth.report/1');
    expect(doc.inputs[0]).toMatchObject({ path: 'fixtures/threads/deadlock/dump-1.txt', kind: 'threads', format: 'hotspot', dumps: 1, unparsedLines: 0 });
    expect(Object.keys(doc.model)).toEqual(expect.arrayContaining(['executors', 'counters', 'connectionPools', 'locks', 'shutdown']));
    const f = doc.findings.find((x: any) => x.rule === 'deadlock');
    expect(Object.keys(f)).toEqual(
      expect.arrayContaining(['id', 'rule', 'severity', 'subject', 'title', 'message', 'facts', 'evidence', 'causedBy', 'remedy']),
    );
  });

  test('stdin with -', async () => {
    const r = await run(['analyze', '--format', 'json', '-'], { input: readFileSync('fixtures/threads/deadlock/dump-1.txt') });
    expect(JSON.parse(r.stdout).inputs[0].threads).toBe(30);
  });

  test('something that is not a dump: exit 2, one clear line, no stack trace', async () => {
    const r = await run(['analyze', 'package.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: package\.json is JSON that is neither/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('errors outrank findings', async () => {
    expect((await run(['analyze', 'fixtures/threads/deadlock/dump-1.txt', 'package.json'])).code).toBe(2);
  });

  test('usage errors exit 2', async () => {
    expect((await run(['analyze'])).code).toBe(2);
    expect((await run(['analyze', '--bogus', 'x'])).code).toBe(2);
    expect((await run(['analyze', '--fail-on', 'sometimes', 'fixtures/threads/deadlock'])).code).toBe(2);
    expect((await run(['analyze', 'no/such/file'])).code).toBe(2);
  });

  test('colour: FORCE_COLOR colours, NO_COLOR and --no-color do not', async () => {
    const forced = await run(['analyze', 'fixtures/threads/deadlock/dump-1.txt'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\u001b\[/);
    expect((await run(['analyze', 'fixtures/threads/deadlock/dump-1.txt'], { env: { NO_COLOR: '1' } })).stdout).not.toMatch(/\u001b\[/);
    expect((await run(['analyze', '--no-color', 'fixtures/threads/deadlock/dump-1.txt'], { env: { FORCE_COLOR: '1' } })).stdout).not.toMatch(/\u001b\[/);
  });

  test('config: severity overrides and bad configs', async () => {
    const dir = 'test/cli/configs';
    const r = await run(['analyze', '--format', 'json', '--config', `${dir}/deadlock-warning.json`, 'fixtures/threads/deadlock/dump-1.txt']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).findings.every((f: any) => f.rule !== 'deadlock' || f.severity === 'warning')).toBe(true);
    const bad = await run(['analyze', '--config', `${dir}/unknown-rule.json`, 'fixtures/threads/deadlock/dump-1.txt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/rules\.no-such-rule: unknown rule id/);
  });

  test('rules lists every rule id', async () => {
    const r = await run(['rules']);
    for (const id of ['deadlock', 'lock-contention', 'stuck-threads', 'executor-saturated']) expect(r.stdout).toContain(id);
  });
});
