// Bundles the terminal UI (dist/ui/screen.js, its components, Ink and React) into one file,
// dist/ui/screen.bundle.js, which `dumpsleuth ui` imports. Why: importing Ink and React as packages
// resolves and compiles a few hundred small modules, 0.4 s of the main thread that the UI's loading
// needs too; the single file loads in about 0.1 s. Run after tsc (npm run build does).
//
// - chalk stays outside the bundle (scripts/node-bundle.mjs says why).
// - React is bundled in its production build (the development build checks every render).
// - Ink's development mode is off: Ink turns it on when DEV=true, a variable many shells set for
//   their own reasons; it then loads react-devtools-core (not installed) and its own package.json
//   (not beside the bundle). Its devtools module and their WebSocket client are left out.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

import { NODE_BUNDLE } from './node-bundle.mjs';

const dist = fileURLToPath(new URL('../dist/ui/', import.meta.url));
if (!existsSync(dist + 'screen.js')) {
  console.error('bundle-ui: dist/ui/screen.js is missing; run tsc first (npm run build)');
  process.exit(1);
}

const noDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]utils\.js$/ }, () => ({ contents: 'export const isDev = () => false;', loader: 'js' }));
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
      /[\\/]ink[\\/]/.test(args.importer) ? { path: 'ink-devtools', namespace: 'left-out' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({
      contents: "const e = new Error('react-devtools-core is not part of the dumpsleuth UI bundle'); e.code = 'ERR_MODULE_NOT_FOUND'; throw e;",
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: [dist + 'screen.js'],
  outfile: dist + 'screen.bundle.js',
  ...NODE_BUNDLE,
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [noDevtools],
});
