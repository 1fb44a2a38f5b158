// `npm run demo`: the three bundled incidents analysed as a person would hand them over: each
// incident's dumps and logs, without the fixture's truth.json (what the test suite checks the
// analysis against, which is no input of the incident).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of the files under a folder (0 for none). */
function newest(dir) {
  let latest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return latest;
}

// Built once: a build older than a source file (or none) is built again, a fresh one is used as it is
// (`npm run build && npm run demo` no longer builds twice).
let built = 0;
try {
  built = statSync(join(root, 'dist', 'cli.js')).mtimeMs;
} catch {
  // not built yet
}
if (built < newest(join(root, 'src'))) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const incidents = ['http-pool-starvation', 'shutdown-ordering', 'active-count-leak'];
for (const incident of incidents) {
  const dir = join('fixtures', 'incidents', incident);
  const inputs = readdirSync(join(root, dir))
    .filter((name) => name !== 'truth.json')
    .sort()
    .map((name) => join(dir, name));
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'analyze', '--fail-on', 'never', ...inputs], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
