/**
 * Once per test run, before any test file: says in one line when ../shared is absent (the tests that
 * need it skip silently), and builds the CLI bundle (dist/cli.js) when it is missing or older than a
 * source file, since the tests that need a process of their own run the bundle, not the sources.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SCRATCH_ROOT_VARIABLE } from './scratch-root.js';

const root = join(import.meta.dirname, '..');

/** The newest modification time of a file under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The run's scratch folder (see scratchDir in helpers.ts); the workers, forked after this, inherit the variable. */
function makeScratchRoot(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'dumpsleuth-tests-'));
  // Open to other users as /tmp is: a test runs the CLI as another user on files of its own folder.
  chmodSync(root, 0o755);
  process.env[SCRATCH_ROOT_VARIABLE] = root;
  return () => rmSync(root, { recursive: true, force: true });
}

export default function setup(): () => void {
  const removeScratch = makeScratchRoot();
  const shared = join(root, '..', 'shared');
  if (!existsSync(shared)) console.log(`tests that need ${shared} are skipped: it is absent (put the shared corpus next to this checkout to run them)`);
  const bundle = join(root, 'dist', 'cli.js');
  const sources = Math.max(newest(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return removeScratch;
  console.log(`building dist/ (npm run build): ${existsSync(bundle) ? 'src/ is newer than dist/cli.js' : 'dist/cli.js is missing'}`);
  try {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
  } catch (e) {
    removeScratch();
    const r = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed; the tests that run dist/cli.js need it:\n${String(r.stdout ?? '')}${String(r.stderr ?? '')}`, { cause: e });
  }
  return removeScratch;
}
