// `npm run demo`: the three bundled incidents analysed as a person would hand them over: each
// incident's dumps and logs, without the fixture's truth.json (what the test suite checks the
// analysis against, which is no input of the incident).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
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
