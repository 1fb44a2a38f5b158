/** `dumpsleuth batch`: one NDJSON line per incident, in order; unreadable incidents are lines too; exit codes over the batch. */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { expandIncidentPaths } from '../../src/batch/expand-paths.js';
import { batchProgressShown, incidentsOf } from '../../src/commands/batch.js';
import { InputError } from '../../src/errors.js';
import { severityRank } from '../../src/model/findings.js';
import { analyseFiles, BUILT_CLI, CORPUS, corpusAvailable, scratchDir } from '../helpers.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

// The built CLI (test/global-setup.ts builds it), so worker threads run as they do for users: from
// source, batch analyses in its own thread.

function run(args: string[]) {
  const r = spawnSync(process.execPath, [BUILT_CLI, 'batch', '--no-progress', ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    code: r.status,
    lines: r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    stderr: r.stderr,
  };
}

describe('dumpsleuth batch', { timeout: 120_000 }, () => {
  it('a stray file in a folder of incidents does not make it one incident', () => {
    const folder = scratchDir('folder');
    for (const name of ['active-count-leak', 'limit-saturated']) cpSync(join('fixtures/incidents', name), join(folder, name), { recursive: true });
    writeFileSync(join(folder, 'README.md'), '# what we captured\n');
    cpSync('fixtures/threads/deadlock/dump-1.txt', join(folder, 'loose-dump.txt'));
    const r = run(['--fail-on', 'never', folder]);
    // The two directories, and the loose dump as an incident of its own; the README is noted.
    expect(r.lines.map((l) => l.path)).toEqual([join(folder, 'active-count-leak'), join(folder, 'limit-saturated'), join(folder, 'loose-dump.txt')]);
    expect(r.lines[0].findings.map((f: { rule: string }) => f.rule)).toContain('active-count-leak');
    expect(r.stderr).toContain(`note: skipped ${join(folder, 'README.md')}: in a folder of incidents, a file that is not a dump is not an incident`);
  });

  it('an incident directory with one folder of logs stays one incident', async () => {
    const incident = scratchDir('incident');
    cpSync('fixtures/incidents/limit-saturated/dump-1.txt', join(incident, 'dump-1.txt'));
    cpSync('fixtures/incidents/limit-saturated/app.log', join(incident, 'logs', 'app.log'), { recursive: true });
    expect((await incidentsOf([incident])).incidents).toEqual([incident]);
  });

  it('a folder of incidents: one line each, in order, with counts and findings', async () => {
    const r = run(['--fail-on', 'never', 'fixtures/incidents']);
    expect(r.code).toBe(0);
    // Every sub-directory is an incident, in name order (listed here, not asked of the code under test).
    const expected = readdirSync('fixtures/incidents', { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join('fixtures/incidents', e.name))
      .sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(r.lines.map((l) => l.path)).toEqual(expected);
    const leak = r.lines.find((l) => l.path.endsWith('active-count-leak'));
    expect(leak).toMatchObject({ status: 'ok', highest: 'critical', counts: { critical: 1 } });
    expect(leak.findings[0].rule).toBe('active-count-leak');
    const healthy = r.lines.find((l) => l.path.endsWith('healthy-light-load'));
    expect(healthy).toMatchObject({ status: 'ok', highest: null, findings: [] });
    expect(r.stderr).toMatch(/incident\s+status\s+critical\s+error\s+warning\s+info/);
    // Seconds to the millisecond: no more than three decimals in any line.
    for (const l of r.lines) expect(String(l.seconds)).toMatch(/^\d+(?:\.\d{1,3})?$/);
  });

  it('draws its progress line only for a terminal on stderr whose stdout goes elsewhere', () => {
    const io = (stdout: boolean, stderr: boolean, env: NodeJS.ProcessEnv = {}) => ({
      stdout: Object.assign(new PassThrough(), { isTTY: stdout }),
      stderr: Object.assign(new PassThrough(), { isTTY: stderr }) as unknown as NodeJS.WriteStream,
      env,
    });
    expect(batchProgressShown(true, io(false, true))).toBe(true);
    // Both on one terminal: a redrawn line would land inside the NDJSON lines.
    expect(batchProgressShown(true, io(true, true))).toBe(false);
    expect(batchProgressShown(true, io(false, false))).toBe(false);
    expect(batchProgressShown(true, io(false, true, { CI: 'true' }))).toBe(false);
    expect(batchProgressShown(false, io(false, true))).toBe(false);
  });

  it('--fail-on decides over the whole batch; an unreadable incident is its own line and exit 2', () => {
    expect(run(['--fail-on', 'critical', 'fixtures/incidents/active-count-leak', 'fixtures/incidents/healthy-light-load']).code).toBe(1);
    expect(run(['--fail-on', 'critical', 'fixtures/incidents/healthy-light-load']).code).toBe(0);
    const dir = scratchDir('batch');
    const bad = join(dir, 'notes.txt');
    writeFileSync(bad, 'just some notes\n');
    // fixtures/threads/deadlock holds the same deadlock as printed by two JVMs (JDK 17's jstack and
    // JDK 25's JSON): as an incident it is two JVMs, which is an error line, not a merged report.
    const r = run(['--fail-on', 'never', bad, 'fixtures/threads/deadlock/dump-1.txt', 'fixtures/threads/deadlock']);
    expect(r.code).toBe(2);
    expect(r.lines[0]).toMatchObject({ path: bad, status: 'error' });
    expect(r.lines[0].error).toMatch(/text with no thread dump/);
    expect(r.lines[1]).toMatchObject({ path: 'fixtures/threads/deadlock/dump-1.txt', status: 'ok', highest: 'critical' });
    expect(r.lines[2]).toMatchObject({ path: 'fixtures/threads/deadlock', status: 'error' });
    expect(r.lines[2].error).toMatch(/^the thread dumps come from 2 JVMs, not one: .* \(dump 1 of .* was printed by OpenJDK 64-Bit Server VM \(17/);
  });

  it('a reader that goes away (| head) keeps the exit code of the incidents done', () => {
    // The pipeline's status is batch's (pipefail: head ends with 0). The first incident fails on
    // critical; its line meets the pipe head closed at once, and the batch stops there.
    const incidents = ['active-count-leak', 'healthy-light-load', 'limit-saturated'].map((d) => `fixtures/incidents/${d}`);
    const piped = (failOn: string) =>
      spawnSync('bash', [
        '-c',
        `set -o pipefail; ${process.execPath} ${BUILT_CLI} batch --no-progress -j 1 --fail-on ${failOn} ${incidents.join(' ')} | head -c 0 >/dev/null`,
      ]).status;
    expect(piped('critical')).toBe(1);
    expect(piped('critical')).toBe(run(['--fail-on', 'critical', ...incidents]).code);
    expect(piped('never')).toBe(0);
  });

  it("--shard K/N: the N shards' lines are one run's, each incident once; --summary joins them into that run's lines, table and exit code", () => {
    const folder = 'fixtures/incidents';
    const whole = run(['-j', '2', folder]);
    expect(whole.lines.length).toBeGreaterThan(10);
    // Each line but its time (`seconds`: how long that incident took, which differs from run to run) and its shard.
    const key = (l: { path: string; seconds?: number; shard?: unknown }) => JSON.stringify({ ...l, seconds: undefined, shard: undefined });
    const table = (stderr: string) => stderr.slice(stderr.indexOf('incident '));
    // Three shards through the CLI (other counts: shareOf's own test, test/batch/shard.test.ts, and batch-lines.test.ts).
    const n = 3;
    const dir = scratchDir('shards');
    const files: string[] = [];
    const shards = Array.from({ length: n }, (_, k) => {
      const s = run(['--fail-on', 'never', '-j', '2', '--shard', `${k + 1}/${n}`, folder]);
      files.push(join(dir, `shard-${k + 1}.ndjson`));
      writeFileSync(files[k]!, s.lines.map((l) => JSON.stringify(l) + '\n').join(''));
      return s;
    });
    for (const [k, s] of shards.entries()) {
      expect(s.stderr).toContain(`note: shard ${k + 1} of ${n}: ${s.lines.length} of the ${whole.lines.length} incidents`);
      // Each line says its shard and its place in the whole sweep's list.
      for (const l of s.lines) expect(whole.lines[l.shard.position].path).toBe(l.path);
      expect(s.lines.map((l) => l.shard.index)).toEqual(s.lines.map(() => k + 1));
    }
    expect(shards.flatMap((s) => s.lines.map(key)).sort()).toEqual(whole.lines.map(key).sort());
    // Joined, in any order of the files: one run's lines in its order, its table, its exit code.
    const joined = run(['--summary', ...[...files].reverse()]);
    expect(joined.lines.map(key)).toEqual(whole.lines.map(key));
    expect(table(joined.stderr)).toEqual(table(whole.stderr));
    expect([joined.code, whole.code]).toEqual([1, 1]);
    // A shard's output missing: said, and the sweep is incomplete (exit 2).
    const partial = run(['--summary', files[0]!, files[2]!]);
    expect(partial.stderr).toMatch(/warning: no line from shard 2 of 3, which had incidents/);
    expect(partial.stderr).toMatch(new RegExp(`warning: ${shards[1]!.lines.length} of the sweep's ${whole.lines.length} incidents have no line`));
    expect(partial.code).toBe(2);
    // Redacted once for the whole sweep, by the join.
    const masked = run(['--summary', '--redact', ...files]);
    expect(masked.lines.every((l) => l.redacted === true)).toBe(true);
    expect(masked.lines.map((l) => l.shard.position)).toEqual(whole.lines.map((_, i) => i));
    // What is not batch's output is refused with what it is, never an internal error: a heap dump given by
    // mistake (a gzip of 3 MB), 1 GiB of zero bytes with no line end (sparse: refused by its first byte;
    // read as lines it is one line longer than a string may be), a folder, a missing file.
    const zeros = join(dir, 'zeros.bin');
    writeFileSync(zeros, '');
    truncateSync(zeros, 1024 * 1024 * 1024);
    for (const [given, said] of [
      ['fixtures/incidents/http-pool-starvation/heap.hprof.gz', /heap\.hprof\.gz:1 is not a line of dumpsleuth batch: it is not JSON/],
      [zeros, /zeros\.bin:1 is not a line of dumpsleuth batch: it is not JSON/],
      [dir, /cannot read .*: it is a directory/],
      [join(dir, 'none.ndjson'), /cannot read .*: no such file/],
    ] as const) {
      const wrong = run(['--summary', given]);
      expect([wrong.code, wrong.stderr], given).toEqual([2, expect.stringMatching(said)]);
    }
    // --summary analyses nothing: options of the analysis are usage errors.
    const misused = run(['--summary', '--shard', '1/3', files[0]!]);
    expect([misused.code, misused.stderr]).toEqual([
      2,
      expect.stringMatching(/--summary reads lines batch wrote and analyses nothing: --shard does not apply/),
    ]);
    // More shards than incidents: the extra shards have nothing to do, and say so.
    const extra = run(['--fail-on', 'never', '--shard', '3/3', 'fixtures/incidents/active-count-leak']);
    expect([extra.code, extra.lines]).toEqual([0, []]);
  });

  it('--shard N takes its number from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0); a bad shard is a usage error', () => {
    const inJob = (index: string | undefined, shard: string) =>
      spawnSync(
        process.execPath,
        [
          BUILT_CLI,
          'batch',
          '--no-progress',
          '--fail-on',
          'never',
          '--shard',
          shard,
          'fixtures/incidents/active-count-leak',
          'fixtures/incidents/draining-pool',
        ],
        {
          env: { ...process.env, NO_COLOR: '1', ...(index !== undefined ? { JOB_COMPLETION_INDEX: index } : {}) },
          encoding: 'utf8',
        },
      );
    const second = inJob('1', '2');
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout.trim()).path).toBe('fixtures/incidents/draining-pool');
    const unset = { ...process.env };
    delete unset['JOB_COMPLETION_INDEX'];
    const noIndex = spawnSync(process.execPath, [BUILT_CLI, 'batch', '--shard', '2', 'fixtures/incidents/active-count-leak'], { env: unset, encoding: 'utf8' });
    expect(noIndex.status).toBe(2);
    expect(noIndex.stderr).toMatch(/--shard 2 needs the shard's number: JOB_COMPLETION_INDEX is not set/);
    for (const bad of ['0/3', '4/3', 'a/b', '1/0']) expect(inJob(undefined, bad).stderr, bad).toMatch(/--shard .*(is not K\/N|must be from 1 to)/);
  });

  it('expands globs itself (no shell needed)', () => {
    // What the glob must give: the folder's own listing, read without any glob.
    const dirs = readdirSync('fixtures/threads', { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `fixtures/threads/${e.name}`)
      .sort();
    expect(dirs.length).toBeGreaterThan(8);
    expect(expandIncidentPaths(['fixtures/threads/*'])).toEqual(dirs);
    const truths = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? truths(join(dir, e.name)) : e.name === 'truth.json' ? 1 : 0), 0);
    expect(expandIncidentPaths(['fixtures/threads/**/truth.json']).length).toBe(truths('fixtures/threads'));
    expect(expandIncidentPaths(['fixtures/threads/deadlock'])).toEqual(['fixtures/threads/deadlock']);
    // One incident named twice (`d` and `d/`, or the same path again) is one incident.
    expect(expandIncidentPaths(['fixtures/threads/deadlock', 'fixtures/threads/deadlock/', 'fixtures/threads/deadlock'])).toEqual([
      'fixtures/threads/deadlock',
    ]);
  });

  it('bad options are usage errors', () => {
    expect(run(['-j', '0', 'fixtures/incidents']).code).toBe(2);
    expect(run(['--fail-on', 'loud', 'fixtures/incidents']).code).toBe(2);
    expect(run(['no-such-*']).code).toBe(2);
  });

  it.skipIf(!corpusAvailable)('the corpus: one line per file, each status and the exit code as analysing it alone says', async () => {
    const files = filesUnder(CORPUS);
    const expected = new Map<string, { ok: boolean; highest: number }>();
    for (const f of files) {
      try {
        const { findings } = await analyseFiles([f]);
        expected.set(f, { ok: true, highest: findings.length === 0 ? -1 : Math.max(...findings.map((x) => severityRank(x.severity))) });
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        expected.set(f, { ok: false, highest: -1 });
      }
    }
    const all = run(['-j', '2', '--fail-on', 'never', ...files]);
    expect(all.lines.map((l) => l.path)).toEqual(files);
    for (const l of all.lines) expect(l.status, l.path).toBe(expected.get(l.path)!.ok ? 'ok' : 'error');
    const anyUnreadable = [...expected.values()].some((e) => !e.ok);
    expect(all.code).toBe(anyUnreadable ? 2 : 0);

    // Over the readable ones only, --fail-on error decides.
    const readable = files.filter((f) => expected.get(f)!.ok);
    const r = run(['-j', '2', '--fail-on', 'error', ...readable]);
    expect(r.lines.length).toBe(readable.length);
    expect(r.code).toBe(readable.some((f) => expected.get(f)!.highest >= severityRank('error')) ? 1 : 0);
  });
});
