// Bundles each program dumpsleuth starts (dist/cli.js, and the three workers it starts:
// dist/heap/memory/memory-worker.js, dist/heap/hprof/histogram-worker.js, dist/batch/batch-worker.js) into one file in place of tsc's,
// with the packages it imports. Why: Node resolved, read and compiled each of the ~180 modules of
// the build one by one, and every command paid it before its first line (bench/startup-bench.mjs
// prints what loading the program costs). The other modules of dist/ stay as tsc wrote them
// (benches and tests import them); the bundles do not import them. Run after tsc and the UI bundle (npm run build).
//
// - A module's `import.meta.url` names where tsc put it (its workers and package.json are found from
//   there), not the bundle: each bundled module gets its own URL back, worked out from the bundle's.
// - The UI stays out: it is its own bundle (scripts/bundle-ui.mjs), loaded only by `dumpsleuth ui`;
//   an import of it is kept as an import, its path made relative to the bundle.
// - The rest as the UI bundle has it (scripts/node-bundle.mjs: chalk outside, a require for CommonJS).
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

import { BUNDLE_BANNER, NODE_BUNDLE } from './node-bundle.mjs';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const programs = ['cli.js', 'heap/memory/memory-worker.js', 'heap/hprof/histogram-worker.js', 'batch/batch-worker.js'];
/** Modules loaded on demand that are not bundled with the programs: the terminal UI. */
const leftOut = ['ui/screen.js', 'ui/screen.bundle.js'].map((p) => resolve(dist, p));

for (const p of programs) {
  // A bundle bundled again would declare its banner twice and fail on start: only tsc's output is taken.
  if (!existsSync(dist + p) || readFileSync(dist + p, 'utf8').includes(BUNDLE_BANNER)) {
    console.error(
      `bundle-cli: dist/${p} is ${existsSync(dist + p) ? 'bundled already' : 'missing'}; run npm run build (it cleans dist/, runs tsc, then the bundles)`,
    );
    process.exit(1);
  }
}

const posix = (path) => path.split(sep).join('/');
/** `path` relative to the directory of `from`, as an import specifier. */
const relativeSpecifier = (from, path) => {
  const r = posix(relative(dirname(from), path));
  return r.startsWith('.') ? r : `./${r}`;
};

/** For the bundle written to `outfile`: each module's own import.meta.url, and the UI left out. */
const asBuilt = (outfile) => ({
  name: 'as-built',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      return leftOut.includes(target) ? { path: relativeSpecifier(outfile, target), external: true } : undefined;
    });
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(dist)) return undefined;
      const own = JSON.stringify(relativeSpecifier(outfile, args.path));
      const contents = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`);
      return { contents, loader: 'js' };
    });
  },
});

for (const p of programs) {
  const outfile = dist + p;
  await build({
    entryPoints: [outfile],
    outfile,
    allowOverwrite: true,
    ...NODE_BUNDLE,
    plugins: [asBuilt(outfile)],
  });
}
// tsc wrote cli.js with its #! line; esbuild keeps the line, the mode is set again for a direct run.
chmodSync(dist + 'cli.js', 0o755);
