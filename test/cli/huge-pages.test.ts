/**
 * A command given a big heap runs again with glibc's huge pages (src/huge-pages.ts): when it does,
 * and that the process it starts is the command as the user ran it (streams, exit code, signals).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { hugePagesEnvironment, type HugePagesHost, thisHost } from '../../src/huge-pages.js';
import { BUILT_CLI, scratchDir } from '../helpers.js';

const dir = scratchDir('huge-pages');
/** An HPROF header (its magic, an id size of 8, a time): what says a file is a heap dump. */
const HPROF_HEADER = Buffer.concat([Buffer.from('JAVA PROFILE 1.0.2\0', 'latin1'), Buffer.from([0, 0, 0, 8]), Buffer.alloc(8)]);
/** A sparse file of that size starting with `head`: its size and first bytes are what is looked at, the disk holds nothing more. */
function sparse(path: string, bytes: number, head: Buffer | string = HPROF_HEADER): string {
  writeFileSync(path, head);
  truncateSync(path, bytes);
  return path;
}
const BIG = sparse(join(dir, 'big.hprof'), 64 * 1024 * 1024);
const SMALL = sparse(join(dir, 'small.hprof'), 64 * 1024 * 1024 - 1);
// A gzip stream of a heap dump's start (the rest of the file, zeros, is never read).
const BIG_GZIP = sparse(join(dir, 'big.hprof.gz'), 80 * 1024 * 1024, gzipSync(Buffer.concat([HPROF_HEADER, Buffer.alloc(4096, 1)])));
const THREADS_HEAD = '2026-12-07 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n';
const BIG_THREADS = sparse(join(dir, 'threads.txt'), 150 * 1024 * 1024, THREADS_HEAD);
const BIG_ZEROS = sparse(join(dir, 'zeros.bin'), 64 * 1024 * 1024, '');
mkdirSync(join(dir, 'fleet/incident-1'), { recursive: true });
sparse(join(dir, 'fleet/incident-1/heap.hprof'), 100 * 1024 * 1024);
mkdirSync(join(dir, 'deeper/fleet/incident-1'), { recursive: true });
sparse(join(dir, 'deeper/fleet/incident-1/heap.hprof'), 100 * 1024 * 1024);

const linux: HugePagesHost = {
  platform: 'linux',
  env: { PATH: '/usr/bin' },
  transparentHugePages: 'always [madvise] never\n',
  glibc: '2.36',
};
const on = (host: Partial<HugePagesHost>) => () => ({ ...linux, ...host });

describe('whether a command runs again with huge pages', () => {
  test('memory, analyze and batch of a heap of 64 MiB or more, on Linux with glibc 2.35+ and huge pages on request', () => {
    expect(hugePagesEnvironment(['memory', BIG], on({}))).toEqual({ PATH: '/usr/bin', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
    expect(hugePagesEnvironment(['analyze', '--format', 'json', BIG], on({}))?.['GLIBC_TUNABLES']).toBe('glibc.malloc.hugetlb=1');
    expect(hugePagesEnvironment(['batch', join(dir, 'fleet')], on({ glibc: '2.35' }))).toBeDefined();
    expect(hugePagesEnvironment(['memory', BIG_GZIP], on({}))).toBeDefined();
    expect(hugePagesEnvironment(['memory', BIG], on({ env: { GLIBC_TUNABLES: 'glibc.malloc.check=3' } }))?.['GLIBC_TUNABLES']).toBe(
      'glibc.malloc.check=3:glibc.malloc.hugetlb=1',
    );
  });

  const not: Array<[string, string[], Partial<HugePagesHost>]> = [
    ['a heap under 64 MiB', ['memory', SMALL], {}],
    ['a big thread dump (nothing of a heap to place)', ['analyze', BIG_THREADS], {}],
    ['a big file that is no heap dump by its first bytes', ['analyze', BIG_ZEROS], {}],
    ['a file that is not there', ['memory', join(dir, 'missing.hprof')], {}],
    ['a big heap three folders down', ['batch', join(dir, 'deeper')], {}],
    ['the histogram (no big arrays to place)', ['histogram', BIG], {}],
    ['a path given as an option only', ['memory', `--output=${BIG}`], {}],
    ['macOS', ['memory', BIG], { platform: 'darwin' }],
    ['huge pages always (nothing to ask)', ['memory', BIG], { transparentHugePages: '[always] madvise never\n' }],
    ['huge pages never', ['memory', BIG], { transparentHugePages: 'always madvise [never]\n' }],
    ['no transparent huge pages at all', ['memory', BIG], { transparentHugePages: undefined }],
    ['glibc 2.34 (no such tunable)', ['memory', BIG], { glibc: '2.34' }],
    ['musl (no glibc)', ['memory', BIG], { glibc: undefined }],
    ['the tunable set already (the child itself)', ['memory', BIG], { env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' } }],
    ['DUMPSLEUTH_HUGE_PAGES=0', ['memory', BIG], { env: { DUMPSLEUTH_HUGE_PAGES: '0' } }],
  ];
  for (const [what, args, host] of not) {
    test(`not for ${what}`, () => {
      expect(hugePagesEnvironment(args, on(host))).toBeUndefined();
    });
  }
});

const built = join(process.cwd(), 'dist/huge-pages.js');

/** A parent that runs `child` again as the CLI would run itself, and exits with what runAgain resolves to. */
function parentOf(child: string): string {
  const parent = join(dir, `parent-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    parent,
    `import { runAgain } from ${JSON.stringify(pathToFileURL(built).href)};\n` +
      `process.exitCode = await runAgain(process.argv.slice(2), process.env, ${JSON.stringify(child)});\n`,
  );
  return parent;
}

/**
 * A child that says when it started and each signal it got, and exits 143 on SIGTERM at once (a
 * cleanup that took longer than the parent's second would see the signal passed on again: a loaded
 * machine must not make the test say so).
 */
function signalledChild(log: string): string {
  const child = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    child,
    `import { appendFileSync } from 'node:fs';\n` +
      `appendFileSync(${JSON.stringify(log)}, 'started\\n');\n` +
      `process.on('SIGTERM', () => { appendFileSync(${JSON.stringify(log)}, 'term\\n'); process.exit(143); });\n` +
      `setTimeout(() => process.exit(0), 20000);\n`,
  );
  return child;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const exited = (p: ReturnType<typeof spawn>) => new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));

describe.skipIf(!existsSync(built))('the process run again, through the build', { timeout: 60_000 }, () => {
  test('its exit code and streams are the command’s', () => {
    const child = join(dir, 'exit-3.mjs');
    writeFileSync(child, `process.stdout.write('out:' + process.argv.slice(2).join(',')); process.stderr.write('err'); process.exit(3);`);
    const r = spawnSync(process.execPath, [parentOf(child), 'a', 'b c'], { encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([3, 'out:a,b c', 'err']);
  });

  test('a child ended by a signal: 128 + its number', () => {
    const child = join(dir, 'killed.mjs');
    writeFileSync(child, `process.kill(process.pid, 'SIGKILL');`);
    expect(spawnSync(process.execPath, [parentOf(child)]).status).toBe(137);
  });

  test('a signal sent to it alone reaches the child, which cleans up and ends it', async () => {
    const log = join(dir, 'alone.log');
    const parent = spawn(process.execPath, [parentOf(signalledChild(log))], { stdio: 'ignore' });
    await until(() => existsSync(log));
    parent.kill('SIGTERM');
    expect(await exited(parent)).toBe(143);
    expect(readFileSync(log, 'utf8')).toBe('started\nterm\n');
  });

  test('a signal sent to the whole group (Ctrl-C, a hangup, a service stopped) reaches the child once', async () => {
    const log = join(dir, 'group.log');
    const parent = spawn(process.execPath, [parentOf(signalledChild(log))], { stdio: 'ignore', detached: true });
    await until(() => existsSync(log));
    process.kill(-parent.pid!, 'SIGTERM');
    expect(await exited(parent)).toBe(143);
    await new Promise((r) => setTimeout(r, 1300));
    expect(readFileSync(log, 'utf8')).toBe('started\nterm\n');
  });
});

const host = thisHost();
const qualifies = existsSync(BUILT_CLI) && hugePagesEnvironment(['memory', BIG]) !== undefined;
describe.skipIf(!qualifies)('on this machine (transparent huge pages on request, glibc 2.35+)', { timeout: 60_000 }, () => {
  test('memory of a 64 MiB file runs again with the tunable, and says what it would have said', () => {
    // Every node process of the run notes its tunables: the command's, then the one it started.
    const notes = join(dir, 'notes.txt');
    const preload = join(dir, 'note.cjs');
    writeFileSync(preload, `require('fs').appendFileSync(${JSON.stringify(notes)}, (process.env.GLIBC_TUNABLES ?? '-') + '\\n');`);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--require ${preload}` };
    delete env['GLIBC_TUNABLES'];
    const r = spawnSync(process.execPath, [BUILT_CLI, 'memory', BIG], { encoding: 'utf8', env });
    expect(readFileSync(notes, 'utf8')).toBe('-\nglibc.malloc.hugetlb=1\n');
    const without = spawnSync(process.execPath, [BUILT_CLI, 'memory', BIG], { encoding: 'utf8', env: { ...env, DUMPSLEUTH_HUGE_PAGES: '0' } });
    expect(r.status).toBe(2);
    expect([r.status, r.stdout, r.stderr]).toEqual([without.status, without.stdout, without.stderr]);
  });
});
if (!qualifies) {
  console.log(
    `huge-pages: not run again on this machine (${host.platform}, glibc ${host.glibc ?? 'none'}, ` +
      `transparent huge pages ${host.transparentHugePages?.trim() ?? 'absent'}${existsSync(BUILT_CLI) ? '' : ', no build'}): ` +
      "the command's own run is not tried",
  );
}
