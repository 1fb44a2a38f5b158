/**
 * The built programs (scripts/bundle-cli.mjs): dist/cli.js and the two workers it starts are each one
 * file. Each must load nothing of the build or node_modules beside it but chalk (shared with the UI
 * bundle) and, from the CLI, the UI on demand; and every URL a bundled module makes from its own
 * import.meta.url, and every URL it builds from that (a worker's file, package.json), must name a file the build has. Needs a build;
 * without one it says it skipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const dist = new URL('../../dist/', import.meta.url);
const programs = ['cli.js', 'heap/memory/memory-worker.js', 'batch/batch-worker.js'];
const built = programs.every((p) => existsSync(new URL(p, dist)));
if (!built) console.log('cli-bundle.test: skipped, no build (run npm run build)');

/**
 * Every module a file loads at run time: static imports (esbuild writes them at the start of a line),
 * dynamic imports and require()s. (A bare `from "` would also match the bundle's message texts.)
 */
const loadedBy = (text: string) =>
  [...text.matchAll(/(?:^import\b[^;\n]*?\bfrom\s*|^import\s+|\bimport\s*\(\s*|\b(?:__)?require\s*\(\s*)["']([^"']+)["']/gm)].map((m) => m[1]!);
const outside = (text: string) => [...new Set(loadedBy(text).filter((m) => !m.startsWith('node:') && !builtinModules.includes(m)))].sort();

describe.skipIf(!built)('the bundled programs', () => {
  const texts = new Map(programs.map((p) => [p, built ? readFileSync(new URL(p, dist), 'utf8') : '']));

  it('the CLI loads only chalk and, on demand, the UI from outside itself', () => {
    expect(loadedBy(texts.get('cli.js')!).length).toBeGreaterThan(0);
    expect(outside(texts.get('cli.js')!)).toEqual(['./ui/screen.bundle.js', './ui/screen.js', 'chalk']);
  });

  it('the workers load nothing from outside but chalk', () => {
    for (const p of programs.slice(1))
      expect(
        outside(texts.get(p)!).filter((m) => m !== 'chalk'),
        p,
      ).toEqual([]);
  });

  it("each module's own URL is made from the bundle's, and names a file of the build", () => {
    for (const [p, text] of texts) {
      const own = [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)\.href/g)].map((m) => m[1]!);
      // The CLI finds package.json and both workers from its modules' URLs; a worker finds nothing.
      if (p === 'cli.js') expect(own.length).toBeGreaterThan(0);
      for (const rel of own) expect(existsSync(new URL(rel, new URL(p, dist))), `${p}: ${rel}`).toBe(true);
      // What those modules build from their own URLs (a worker's file, package.json): each names a file of the build.
      const made = [...text.matchAll(/new URL\("([^"]+)", new URL\("([^"]+)", import\.meta\.url\)\.href\)/g)].map(
        (m) => new URL(m[1]!, new URL(m[2]!, new URL(p, dist))),
      );
      if (p !== 'heap/memory/memory-worker.js') expect(made.length, p).toBeGreaterThan(0);
      for (const url of made) expect(existsSync(url), `${p}: ${url.href}`).toBe(true);
      // No module reads the bundle's URL as if it were its own.
      // One left: the createRequire banner's.
      const unrewritten = text.replaceAll(/new URL\("[^"]+", import\.meta\.url\)\.href/g, '').match(/import\.meta\.url/g)?.length ?? 0;
      expect(unrewritten, p).toBe(1);
    }
  });

  it('runs from its own file, with the version of package.json', () => {
    const version = (JSON.parse(readFileSync(new URL('../package.json', dist), 'utf8')) as { version: string }).version;
    const r = spawnSync(process.execPath, [fileURLToPath(new URL('cli.js', dist)), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });
});
