/**
 * `capture -o` that cannot hold the incident is one error line and exit 2, said before any JVM is
 * asked anything: a path through a file or a device, or a place no folder can be made (/proc, where a
 * recursive mkdir loops for ever). Needs jcmd on the PATH (it is looked for first), else skips.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { captureIncident } from '../../src/capture/capture.js';
import { findTool } from '../../src/capture/jvm-tools.js';
import { UsageError } from '../../src/errors.js';
import { runCli, scratchDir } from '../helpers.js';

const jcmd = findTool('jcmd');
if (jcmd === undefined) console.warn('capture -o tests skipped: no jcmd on PATH, in JAVA_HOME or beside java');

describe.skipIf(jcmd === undefined)('capture -o', { timeout: 60_000 }, () => {
  const dir = scratchDir('capture-out');
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder\n');
  const cases: Array<[string, string, RegExp]> = [
    ['a file', join(file, 'incidents'), /^error: cannot write the capture into .*a-file\/incidents: .*a-file is not a folder$/m],
    ['a device', '/dev/null/incidents', /^error: cannot write the capture into \/dev\/null\/incidents: \/dev\/null is not a folder$/m],
    ['a place no folder can be made', '/proc/dumpsleuth-no-such/incidents', /^error: cannot make the folder \/proc\/dumpsleuth-no-such for the capture: /m],
  ];
  for (const [what, out, message] of cases) {
    it(`${what}: one line, exit 2, before any JVM is asked`, async () => {
      // Pid 1 is no JVM of this user: had the folder been accepted, the error would be about the pid.
      const r = await runCli(['capture', '1', '-o', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/internal error|pid 1/);
    });
  }

  it('a folder that does not exist yet is made, and the capture goes on to the pid', async () => {
    const r = await runCli(['capture', '1', '-o', join(dir, 'new', 'incidents')]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/cannot (write|make)/);
  });
});

describe('the incident folder under -o', () => {
  // -o exists, but no folder can be made in it: the incident's folder was made recursively, which
  // under /proc/sys waits for ever; now one level, and one error line (no JVM is needed to see it).
  it.runIf(process.platform === 'linux')('under /proc/sys: a usage error at once, not a hang', { timeout: 10_000 }, async () => {
    const capture = captureIncident({ pid: 1, command: 'none' }, { dumps: 1, intervalSeconds: 1, outDir: '/proc/sys', logs: [], timeoutSeconds: 1 });
    await expect(capture).rejects.toThrow(UsageError);
    await expect(capture).rejects.toThrow(/^cannot make the incident folder \/proc\/sys\/.*-1-/);
  });
});
