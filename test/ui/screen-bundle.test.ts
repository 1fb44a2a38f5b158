/**
 * The built UI bundle (scripts/bundle-ui.mjs): `dumpsleuth ui` imports Ink, React and the components
 * from one file. It must be self-contained (nothing of Ink or React loaded from node_modules beside
 * it, or two Reacts would meet), share chalk with the CLI (the colour level is set on that one), and
 * keep Ink's development mode off whatever DEV says. Needs a build; without one it says it skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

import { describe, expect, it } from 'vitest';

const bundlePath = new URL('../../dist/ui/screen.bundle.js', import.meta.url);
const built = existsSync(bundlePath);
if (!built) console.log('screen-bundle.test: skipped, no build (run npm run build)');

describe.skipIf(!built)('the UI bundle', () => {
  const text = built ? readFileSync(bundlePath, 'utf8') : '';
  /** Every module the bundle loads at run time: static imports, dynamic imports and require()s. */
  const loaded = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\b__require\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map((m) => m[1]!);

  it('loads only chalk and Node built-ins from outside itself', () => {
    expect(loaded.length).toBeGreaterThan(0);
    const outside = [...new Set(loaded.filter((m) => !m.startsWith('node:') && !builtinModules.includes(m)))];
    expect(outside).toEqual(['chalk']);
  });

  it('carries React in its production build, and no devtools', () => {
    // esbuild names each bundled file in a comment.
    expect(text).toContain('react-reconciler/cjs/react-reconciler.production.js');
    expect(text).not.toContain('react-reconciler.development');
    expect(text).not.toContain('connectToDevTools(');
    expect(text).toMatch(/var isDev = \(\) => false/);
  });

  it('exports what run.ts takes from it', async () => {
    const m = (await import(bundlePath.href)) as Record<string, unknown>;
    expect(typeof m['showUi']).toBe('function');
  });
});
