// What both bundling scripts (bundle-ui.mjs, bundle-cli.mjs) give esbuild: one ES module file for
// Node 20, with chalk left outside (`ui` sets the colour level on the one chalk Ink colours through,
// so the CLI and the UI must load the same one).
// - Bundled CommonJS (React, commander, stream-json) calls require(), which an ES module has only
//   through createRequire: the banner makes one. BUNDLE_BANNER also tells a file already bundled.

export const BUNDLE_BANNER = "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);";

export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['chalk'],
  banner: { js: BUNDLE_BANNER },
  legalComments: 'eof',
  logLevel: 'warning',
};
