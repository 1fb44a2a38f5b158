/**
 * Where reports go: -o checked before reading, written whole or not at all, format from the extension,
 * closed pipes. The CLI runs in-process; a closed pipe needs a process of its own (the built CLI).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { checkOutputPath, chooseFormat, writeFileWhole } from '../../src/commands/output.js';
import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { BUILT_CLI, runCli, scratchDir } from '../helpers.js';

const INCIDENT = 'fixtures/incidents/http-pool-starvation';
const HEAP = 'fixtures/incidents/active-count-leak/heap.hprof.gz';

const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { NO_COLOR: '', FORCE_COLOR: '', ...env });

const scratch = () => scratchDir('out');

describe('a bad -o is exit 2 with one line, before any input is read', { timeout: 60_000 }, () => {
  // A missing input after a bad -o: if the inputs were read first, the error would name the input.
  const cases: Array<[string, (dir: string) => string, RegExp]> = [
    ['a missing folder', (d) => join(d, 'no/such/report.txt'), /the folder .* does not exist/],
    ['a directory', (d) => d, /it is a directory/],
    ['a path under a file', (d) => (writeFileSync(join(d, 'f'), ''), join(d, 'f', 'x.txt')), /is not a folder/],
  ];
  for (const [what, path, message] of cases) {
    for (const command of [
      ['analyze', 'no/such/input'],
      ['histogram', 'no/such/heap'],
      ['extract', 'no/such/heap'],
    ]) {
      test(`${command[0]}: ${what}`, async () => {
        const r = await run([...command, '-o', path(scratch())]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trim().split('\n')).toHaveLength(2); // the error and its remedy
        expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
      });
    }
  }

  test.skipIf(process.getuid?.() === 0)('a folder without write permission', async () => {
    const d = scratch();
    chmodSync(d, 0o555);
    const r = await run(['analyze', 'no/such/input', '-o', join(d, 'r.txt')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no permission to write/);
  });

  test('checkOutputPath accepts a new file in a writable folder and an existing file', async () => {
    const d = scratch();
    await expect(checkOutputPath(join(d, 'new.txt'))).resolves.toBeUndefined();
    writeFileSync(join(d, 'old.txt'), 'x');
    await expect(checkOutputPath(join(d, 'old.txt'))).resolves.toBeUndefined();
  });
});

describe('a report is written whole or not at all', () => {
  test('a failure while writing leaves neither the report nor a temporary file', async () => {
    const d = scratch();
    const target = join(d, 'report.json');
    writeFileSync(target, 'the old report');
    await expect(
      writeFileWhole(target, async (temporary) => {
        writeFileSync(temporary, '{"half":');
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      }),
    ).rejects.toThrow(/could not write .*the disk is full/);
    expect(readdirSync(d)).toEqual(['report.json']);
    expect(readFileSync(target, 'utf8')).toBe('the old report');
  });

  test('success replaces the file and leaves no temporary file', async () => {
    const d = scratch();
    const target = join(d, 'report.json');
    await writeFileWhole(target, async (temporary) => writeFileSync(temporary, '{}'));
    expect(readdirSync(d)).toEqual(['report.json']);
  });
});

describe('the format follows the -o extension unless -f says otherwise', { timeout: 60_000 }, () => {
  test('chooseFormat', async () => {
    const all = REPORT_FORMATS;
    expect(chooseFormat(undefined, 'r.html', all)).toEqual({ format: 'html' });
    expect(chooseFormat(undefined, 'r.MD', all)).toEqual({ format: 'markdown' });
    expect(chooseFormat(undefined, 'r.json.gz', all)).toEqual({ format: 'json' });
    expect(chooseFormat(undefined, 'report', all)).toEqual({ format: 'text' });
    expect(chooseFormat(undefined, undefined, all)).toEqual({ format: 'text' });
    expect(chooseFormat('json', 'r.json', all)).toEqual({ format: 'json' });
    expect(chooseFormat('markdown', 'r.html', all).note).toMatch(/writing markdown to r\.html, as --format says, though its extension suggests html/);
    // histogram writes text and json only: .html implies nothing there.
    expect(chooseFormat(undefined, 'h.html', ['text', 'json'])).toEqual({ format: 'text' });
  });

  test('analyze -o report.html writes HTML; -o report.json JSON; a disagreement is a note', async () => {
    const d = scratch();
    expect((await run(['analyze', '--fail-on', 'never', '-o', join(d, 'r.html'), INCIDENT])).code).toBe(0);
    expect(readFileSync(join(d, 'r.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect((await run(['analyze', '--fail-on', 'never', '-o', join(d, 'r.json'), INCIDENT])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(d, 'r.json'), 'utf8')).schema).toBe('dumpsleuth.report/1');
    const r = await run(['analyze', '--fail-on', 'never', '-f', 'markdown', '-o', join(d, 'x.html'), INCIDENT]);
    expect(r.stderr).toMatch(/note: writing markdown to .*x\.html/);
    expect(readFileSync(join(d, 'x.html'), 'utf8')).toMatch(/^## dumpsleuth report/);
  });

  test('colour codes go into a file only with --color, never from FORCE_COLOR', async () => {
    const d = scratch();
    await run(['analyze', '--fail-on', 'never', '-o', join(d, 'plain.txt'), INCIDENT], { FORCE_COLOR: '1' });
    expect(readFileSync(join(d, 'plain.txt'), 'utf8')).not.toContain('\u001b[');
    await run(['analyze', '--fail-on', 'never', '--color', '-o', join(d, 'asked.txt'), INCIDENT]);
    expect(readFileSync(join(d, 'asked.txt'), 'utf8')).toContain('\u001b[');
  });

  test('histogram -o h.json writes JSON', async () => {
    const d = scratch();
    expect((await run(['histogram', '-o', join(d, 'h.json'), HEAP])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(d, 'h.json'), 'utf8')).schema).toBe('dumpsleuth.histogram/1');
    expect(existsSync(join(d, 'h.json'))).toBe(true);
  });
});

describe('a reader that closes the pipe ends the run quietly', { timeout: 60_000 }, () => {
  const piped = (args: string) => spawnSync('sh', ['-c', `${process.execPath} ${BUILT_CLI} ${args} | head -c 10 >/dev/null`], { encoding: 'utf8' });
  for (const args of [`analyze -f json --fail-on never ${INCIDENT}`, `histogram -f json --top 0 ${HEAP}`, `rules --format json`]) {
    test(args.split(' ')[0]!, () => {
      const r = piped(args);
      expect(r.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    });
  }
});
