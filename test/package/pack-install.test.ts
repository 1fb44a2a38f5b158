/**
 * What a user gets from `npm pack` / `npm i -g`: the tarball is packed from this checkout, installed
 * into a temporary prefix, and the installed `dumpsleuth` is run from another directory.
 * Needs the build (`npm run build`; `npm pack` runs it through `prepack`) and the npm registry or
 * npm's cache for the dependencies.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { afterAll, describe, expect, test } from 'vitest';

import { scratchDir } from '../helpers.js';

const root = resolve(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/cli.js'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string>; license: string };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!built) console.warn('test/package: skipped, dist/ is not built (run `npm run build`)');

describe.skipIf(!built)('the packed tarball', { timeout: 300_000 }, () => {
  const work = scratchDir('pack');
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let tarball = '';
  let files: string[] = [];

  test('packs the built program, the schema the README links and the licence, and no source maps', () => {
    const r = spawnSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [info] = JSON.parse(r.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(work, info!.filename);
    files = info!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['dist/cli.js', 'docs/report.schema.json', 'LICENSE', 'README.md', 'package.json']));
    for (const link of readFileSync(join(root, 'README.md'), 'utf8').matchAll(/\]\(((?:docs|dist)\/[^)#]+)\)/g)) expect(files).toContain(link[1]);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => /^(src|test|fixtures|bench)\//.test(f))).toEqual([]);
    // The programs only, each one bundled file (scripts/bundle-cli.mjs, bundle-ui.mjs): tsc's modules are for the benches and tests.
    expect(files.filter((f) => f.startsWith('dist/')).sort()).toEqual([
      'dist/batch/batch-worker.js',
      'dist/cli.js',
      'dist/heap/hprof/histogram-worker.js',
      'dist/heap/memory/memory-worker.js',
      'dist/ui/screen.bundle.js',
    ]);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toContain(`${pkg.license} License`);
  });

  test('packing builds the program (prepack); installing the tarball runs no script', () => {
    expect(pkg.scripts['prepack']).toMatch(/npm run build/);
    // npm warns of (and asks to allow) a package's install scripts: the tarball has none.
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook], hook).toBeUndefined();
  });

  test('installed globally into a prefix, it runs from another directory', () => {
    expect(tarball).not.toBe('');
    const prefix = join(work, 'prefix');
    const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: work,
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/install script|allowScripts/i);
    const bin = process.platform === 'win32' ? join(prefix, 'dumpsleuth.cmd') : join(prefix, 'bin', 'dumpsleuth');
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    const version = spawnSync(bin, ['--version'], { cwd: elsewhere, encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(pkg.version);
    const incident = join(root, 'fixtures/incidents/http-pool-starvation');
    const analyze = spawnSync(bin, ['analyze', '--fail-on', 'never', '--format', 'json', incident], { cwd: elsewhere, encoding: 'utf8' });
    expect(analyze.status, analyze.stderr).toBe(0);
    const report = JSON.parse(analyze.stdout) as { schema: string; findings: Array<{ rule: string }> };
    expect(report.schema).toBe('dumpsleuth.report/1');
    expect(report.findings.map((f) => f.rule)).toContain('connection-pool-starvation');
    // batch starts its worker from the installed files; the bundles need no package but chalk.
    const batch = spawnSync(bin, ['batch', '--no-progress', '--fail-on', 'never', '-j', '2', incident, join(root, 'fixtures/incidents/shutdown-ordering')], {
      cwd: elsewhere,
      encoding: 'utf8',
    });
    expect(batch.status, batch.stderr).toBe(0);
    // One JSON line per incident on stdout (the table goes to stderr), each analysed by a worker.
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(lines.map((l) => l.status)).toEqual(['ok', 'ok']);
    const installed = process.platform === 'win32' ? join(prefix, 'node_modules', 'dumpsleuth') : join(prefix, 'lib', 'node_modules', 'dumpsleuth');
    expect(readdirSync(join(installed, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['chalk']);
  });
});
