/**
 * The README's table of errors and warnings is what dumpsleuth prints: every row is reproduced here,
 * in a scratch directory, and its exit code and its sample line (`…` standing for what varies) are
 * checked against the real output. A row added to the README without a reproduction fails.
 * The non-dump inputs here are hand-written (format edge cases); the dumps are the real-JVM fixtures.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { BUILT_CLI, MINIMAL_JAVACORE, scratchDir } from '../helpers.js';

const root = resolve(import.meta.dirname, '../..');
const fixture = (p: string) => join(root, 'fixtures', p);

/** What a row needs: files made in the scratch directory, then the command (through a shell when `shell`). */
interface Reproduction {
  readonly args?: (dir: string) => string[];
  readonly shell?: (cli: string) => string;
  /** Why a row is not run (it would need gigabytes, or a bug). */
  readonly unchecked?: string;
}

const write = (dir: string, name: string, text: string | Buffer) => {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), text);
};

const incidentWithTwoJvms = (dir: string) => {
  for (const n of [1, 2]) copyFileSync(fixture(`incidents/active-count-leak/dump-${n}.txt`), join(dir, mk(dir, 'a'), `dump-${n}.txt`));
  copyFileSync(fixture('incidents/healthy-light-load/dump-1.txt'), join(dir, mk(dir, 'b'), 'dump-1.txt'));
};
const mk = (dir: string, sub: string) => (mkdirSync(join(dir, sub), { recursive: true }), sub);

const HPROF_HEADER = Buffer.concat([Buffer.from('JAVA PROFILE 1.0.2\0'), Buffer.from([0, 0, 0, 8]), Buffer.alloc(8)]);
const record = (tag: number, body: Buffer) =>
  Buffer.concat([
    Buffer.from([tag, 0, 0, 0, 0]),
    Buffer.from([(body.length >>> 24) & 255, (body.length >>> 16) & 255, (body.length >>> 8) & 255, body.length & 255]),
    body,
  ]);

const REPRODUCTIONS: Record<string, Reproduction> = {
  'no command': { args: () => [] },
  'a bad flag value': { args: () => ['analyze', '-f', 'yaml', 'x.txt'] },
  'a count that is not a whole number': { args: () => ['batch', '-j', 'abc', 'x.txt'] },
  'a size that is not a size': { args: () => ['analyze', '--max-gunzip-size', 'lots', 'x.txt'] },
  'a heap whose memory analysis needs more than it may take': { args: () => ['memory', '--max-memory', '1m', fixture('heap/jdk17/heap.hprof.gz')] },
  'a `--config` file that is missing': { args: () => ['analyze', '-c', 'missing.json', fixture('threads/deadlock/dump-1.txt')] },
  'a config file that is not JSON': {
    args: (d) => (write(d, 'bad.json', JSON.stringify({ rules: { nope: 'off' } })), ['analyze', '-c', 'bad.json', fixture('threads/deadlock/dump-1.txt')]),
  },
  'a config file found in the working directory': {
    args: (d) => (write(d, 'dumpsleuth.config.json', '{"rules":{}}'), ['analyze', fixture('threads/deadlock/dump-1.txt')]),
  },
  'an input path missing': { args: () => ['analyze', 'x.txt'] },
  'an `-o` that cannot be written': { args: () => ['analyze', '-o', 'out/report.html', 'x.txt'] },
  'two directories given to `analyze`': { args: (d) => (mk(d, 'a'), mk(d, 'b'), ['analyze', 'a', 'b']) },
  'thread dumps of several JVMs': { args: (d) => (incidentWithTwoJvms(d), ['analyze', 'a/dump-1.txt', 'a/dump-2.txt', 'b/dump-1.txt']) },
  'an empty file': { args: (d) => (write(d, 'empty.txt', ''), ['analyze', 'empty.txt']) },
  'not a dump': { args: (d) => (write(d, 'notes.txt', 'hello\n'), ['analyze', 'notes.txt']) },
  'a log with no dump': {
    args: (d) => (
      write(d, 'SystemOut.log', '[10/1/24 12:00:00:000 UTC] 00000001 WsServerImpl  A   WSVR0001I: Server server1 open for e-business\n'),
      ['analyze', 'SystemOut.log']
    ),
  },
  'JSON nested past 1024 levels': { args: (d) => (write(d, 'nested.json', `{"threadDump": ${'['.repeat(1100)}`), ['analyze', 'nested.json']) },
  'not an HPROF': {
    args: (d) => (
      write(d, 'id3.hprof', Buffer.concat([Buffer.from('JAVA PROFILE 1.0.2\0'), Buffer.from([0, 0, 0, 3]), Buffer.alloc(8)])),
      ['histogram', 'id3.hprof']
    ),
  },
  'an HPROF cut within its header': { args: (d) => (write(d, 'cut.hprof', 'JAVA PROFI'), ['memory', 'cut.hprof']) },
  'heap dumps of two programs given to `memory --baseline`': {
    args: () => ['memory', '--baseline', fixture('heap/memory-beyond/growth/heap-2.hprof.gz'), fixture('heap/memory-beyond/waste/heap.hprof.gz')],
  },
  'a heap dump of which nothing could be read': {
    args: (d) => (write(d, 'early.hprof.gz', readFileSync(fixture('heap/jdk17/heap.hprof.gz')).subarray(0, 200)), ['histogram', 'early.hprof.gz']),
  },
  'a file of the incident not read': {
    args: (d) => {
      copyFileSync(fixture('threads/deadlock/dump-1.txt'), join(d, mk(d, 'incident'), 'dump-1.txt'));
      write(d, 'incident/heap.hprof', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
      return ['analyze', '--fail-on', 'never', 'incident'];
    },
  },
  'a V8 `.heapsnapshot`': { args: (d) => (write(d, 'x.heapsnapshot', '{"snapshot":{"meta":{}}}'), ['analyze', 'x.heapsnapshot']) },
  'not enough memory for the input': {
    unchecked: 'it needs an input larger than the heap Node is given; the guard itself is tested in test/robustness/big-inputs.test.ts',
  },
  '`ui` without a terminal': { args: () => ['ui', fixture('incidents/active-count-leak')] },
  'one unreadable incident in `batch`': {
    args: (d) => (write(d, 'notes.txt', 'hello\n'), ['batch', '--fail-on', 'never', 'notes.txt', fixture('threads/deadlock/dump-1.txt')]),
  },
  '`capture --heap` whose heap dump the JVM did not write': {
    unchecked: 'it needs a live JVM that cannot write its heap dump: test/capture/capture.test.ts reproduces it (ulimit -f 0)',
  },
  'a capture directory whose `capture.json` lists failed steps': {
    args: (d) => {
      // The manifest as capture writes it (its schema and steps), with the heap dump's step failed as jcmd says it.
      copyFileSync(fixture('threads/deadlock/dump-1.txt'), join(d, mk(d, 'incident'), 'threads-1.txt'));
      const step = (what: string, ok: boolean, error?: string) => ({
        what,
        startedAt: '2026-12-01T10:00:00.000Z',
        seconds: 0.4,
        ok,
        ...(error ? { error } : {}),
      });
      const manifest = {
        schema: 'dumpsleuth.capture/1',
        steps: [
          step('thread dump 1 of 1', true),
          step('heap dump (live objects, gzip)', false, 'jcmd GC.heap_dump says: Unable to create heap.hprof.gz: No such file or directory'),
          step('log /var/log/app.log', false, 'there is no such file'),
        ],
      };
      write(d, 'incident/capture.json', JSON.stringify(manifest));
      return ['analyze', '--fail-on', 'never', 'incident'];
    },
  },
  'a JDK 21+ Thread.print / jstack dump of a JVM that runs virtual threads': {
    args: (d) => (
      copyFileSync(fixture('incidents/virtual-thread-deadlock/dump-1.txt'), join(d, 'dump-1.txt')),
      ['analyze', '--fail-on', 'never', 'dump-1.txt']
    ),
  },
  'a file that is not a dump inside an incident directory': {
    args: (d) => {
      copyFileSync(fixture('threads/deadlock/dump-1.txt'), join(d, mk(d, 'incident'), 'dump-1.txt'));
      write(d, 'incident/README.md', '# what we captured\n');
      return ['analyze', '--fail-on', 'never', 'incident'];
    },
  },
  'a file that is not a dump beside the incidents': {
    args: (d) => {
      for (const name of ['active-count-leak', 'limit-saturated']) cpSync(fixture(`incidents/${name}`), join(d, 'incidents', name), { recursive: true });
      write(d, 'incidents/README.md', '# what we captured\n');
      return ['batch', '--fail-on', 'never', 'incidents'];
    },
  },
  'a line that only looks like a thread header': {
    args: (d) => (
      write(d, 'with-licence.txt', `"AS IS" BASIS, WITHOUT WARRANTIES\n${readFileSync(fixture('threads/deadlock/dump-1.txt'), 'utf8')}`),
      ['analyze', '--fail-on', 'never', 'with-licence.txt']
    ),
  },
  'dumps of two JVMs in one file': {
    args: (d) => {
      const parts = ['healthy-light-load/dump-1.txt', 'healthy-light-load/dump-2.txt', 'active-count-leak/dump-1.txt', 'active-count-leak/dump-2.txt'];
      write(d, 'catalina.out', parts.map((p) => readFileSync(fixture(`incidents/${p}`), 'utf8')).join('\nINFO: a log line\n'));
      return ['analyze', '--fail-on', 'never', 'catalina.out'];
    },
  },
  'a heap dump of another JVM': {
    args: (d) => {
      mk(d, 'incident');
      for (const n of [1, 2, 3]) copyFileSync(fixture(`incidents/healthy-light-load/dump-${n}.txt`), join(d, 'incident', `dump-${n}.txt`));
      copyFileSync(fixture('incidents/active-count-leak/heap.hprof.gz'), join(d, 'incident', 'heap.hprof.gz'));
      return ['analyze', '--fail-on', 'never', 'incident'];
    },
  },
  'a text or gzip stream cut': {
    args: (d) => {
      const gz = gzipSync(readFileSync(fixture('threads/deadlock/dump-1.txt')));
      write(d, 'cut.txt.gz', gz.subarray(0, Math.floor(gz.length * 0.8)));
      return ['analyze', '--fail-on', 'never', 'cut.txt.gz'];
    },
  },
  'NUL characters in a text dump': {
    args: (d) => {
      // A real jstack dump with a NUL in every thread header: every thread is still read, and the NULs counted.
      const text = readFileSync(fixture('threads/deadlock/dump-1.txt'), 'utf8');
      write(d, 'nul.txt', text.replace(/\n"/g, '\n"\0'));
      return ['analyze', '--fail-on', 'never', 'nul.txt'];
    },
  },
  'fewer threads read than the dump declares': {
    args: (d) => {
      // A real jstack dump with one thread's block taken out: its SMR list still counts it.
      const text = readFileSync(fixture('threads/deadlock/dump-1.txt'), 'utf8');
      const start = text.indexOf('\n"Reference Handler"');
      const end = text.indexOf('\n"', start + 2);
      write(d, 'edited.txt', text.slice(0, start) + text.slice(end));
      return ['analyze', '--fail-on', 'never', 'edited.txt'];
    },
  },
  'an HPROF cut mid-record': {
    args: (d) => {
      const heap = gunzipSync(readFileSync(fixture('incidents/active-count-leak/heap.hprof.gz')));
      // Cut near its end: its objects read, the last record cut (cut before the first object, nothing could be read: an error).
      write(d, 'cut.hprof', heap.subarray(0, heap.length - 1000));
      return ['histogram', 'cut.hprof'];
    },
  },
  'an HPROF record with an unknown tag': {
    args: (d) => (
      write(
        d,
        'odd.hprof',
        Buffer.concat([
          HPROF_HEADER,
          record(0x77, Buffer.alloc(4)),
          gunzipSync(readFileSync(fixture('heap/jdk17/heap.hprof.gz'))).subarray(HPROF_HEADER.length),
        ]),
      ),
      ['histogram', 'odd.hprof']
    ),
  },
  'a gzip input inflating past `--max-gunzip-size`': {
    args: (d) => {
      write(
        d,
        'bomb.txt.gz',
        gzipSync(Buffer.concat([readFileSync(fixture('threads/deadlock/dump-1.txt')), Buffer.alloc(8 * 1024 * 1024, 0x0a)]), { level: 9 }),
      );
      return ['analyze', '--fail-on', 'never', '--max-gunzip-size', '1m', 'bomb.txt.gz'];
    },
  },
  'a gzip text input (a thread dump, a log) that inflates like a bomb': {
    args: (d) => {
      const padded = Buffer.concat([readFileSync(fixture('threads/deadlock/dump-1.txt')), Buffer.alloc(24 * 1024 * 1024, 0x0a)]);
      write(d, 'padded.txt.gz', gzipSync(padded, { level: 9 }));
      return ['analyze', '--fail-on', 'never', 'padded.txt.gz'];
    },
  },
  'a line longer than 64 Mi characters': {
    // A run of 70 million of one character: one line past the 64 Mi kept (a sparse file's zero bytes
    // are dropped as NUL characters instead: test/cli/special-inputs.test.ts).
    shell: (cli) =>
      `cp ${fixture('threads/deadlock/dump-1.txt')} long.txt && head -c 70000000 /dev/zero | tr '\\0' x >> long.txt && echo >> long.txt && ` +
      `${cli} analyze --fail-on never long.txt`,
  },
  'a HotSpot dump that stops before its closing `JNI global refs` line': {
    args: (d) => {
      const lines = readFileSync(fixture('threads/deadlock/dump-1.txt'), 'utf8').split('\n');
      write(d, 'cut.txt', lines.slice(0, lines.findIndex((l) => l.startsWith('"VM Thread"')) + 2).join('\n'));
      return ['analyze', '--fail-on', 'never', 'cut.txt'];
    },
  },
  'an HPROF holding several heap dumps': {
    // Two empty HEAP DUMP records (written by hand: the hprof agent left the JDK in 9).
    args: (d) => (
      write(d, 'two.hprof', Buffer.concat([HPROF_HEADER, record(0x0c, Buffer.alloc(0)), record(0x0c, Buffer.alloc(0))])),
      ['histogram', 'two.hprof']
    ),
  },
  'an HPROF whose structure changes a count': {
    // One instance (sub-record 0x21) of class 0x777, which no CLASS DUMP describes (written by hand).
    args: (d) => {
      const instance = Buffer.concat([
        Buffer.from([0x21]),
        Buffer.alloc(7),
        Buffer.from([0x10, 0, 0, 0, 0]),
        Buffer.alloc(6),
        Buffer.from([0x07, 0x77]),
        Buffer.alloc(4),
      ]);
      write(d, 'stray.hprof', Buffer.concat([HPROF_HEADER, record(0x1c, instance), record(0x2c, Buffer.alloc(0))]));
      return ['histogram', 'stray.hprof'];
    },
  },
  '`TMPDIR` that does not exist': {
    shell: (cli) => `TMPDIR=/nonexistent ${cli} analyze - < ${fixture('threads/deadlock/dump-1.txt')}`,
  },
  'a folder that cannot be read': {
    unchecked: 'root reads every folder; test/cli/special-inputs.test.ts runs it as an unprivileged user (setpriv)',
  },
  'damaged records in a dumpsleuth heap snapshot': {
    shell: (cli) =>
      `${cli} extract ${fixture('incidents/active-count-leak/heap.hprof.gz')} -o snap.json 2>/dev/null && sed -i ` +
      `'s/^"classes":\\[$/"classes":[\\n{"bogus":1},/' snap.json && ${cli} histogram snap.json`,
  },
  'the same file given twice': {
    args: (d) => {
      copyFileSync(fixture('threads/deadlock/dump-1.txt'), join(d, 'dump-1.txt'));
      linkSync(join(d, 'dump-1.txt'), join(d, 'dump-copy.txt'));
      return ['analyze', '--fail-on', 'never', 'dump-1.txt', 'dump-copy.txt'];
    },
  },
  "a thread's `cpu=` or `elapsed=` that is no number": {
    args: (d) => {
      write(
        d,
        'odd-cpu.txt',
        'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n' +
          '"worker" #12 prio=5 os_prio=0 cpu=1,2,3ms elapsed=12,50s tid=0x1 nid=0x2 runnable  [0x0]\n' +
          '   java.lang.Thread.State: RUNNABLE\n\tat com.acme.Work.run(Work.java:1)\n\n',
      );
      return ['analyze', '--fail-on', 'never', 'odd-cpu.txt'];
    },
  },
  'a jcmd JSON document whose `threadDump` key is repeated': {
    args: (d) => {
      const doc = JSON.parse(readFileSync(fixture('threads/deadlock/jdk25-threads.json'), 'utf8')) as { threadDump: Record<string, unknown> };
      const later = JSON.stringify({ ...doc.threadDump, time: '2026-11-30T09:31:38.000Z' });
      write(d, 'threads.json', `{"threadDump": ${JSON.stringify(doc.threadDump)}, "threadDump": ${later}}`);
      return ['analyze', '--fail-on', 'never', 'threads.json'];
    },
  },
  'a jstack dump and an IBM javacore in one file': {
    args: (d) => {
      write(d, 'mixed.txt', MINIMAL_JAVACORE + readFileSync(fixture('threads/deadlock/dump-1.txt'), 'utf8'));
      return ['analyze', '--fail-on', 'never', 'mixed.txt'];
    },
  },
  'a device or a socket as an input': { args: () => ['analyze', '/dev/urandom'] },
  '`-` with a terminal on stdin': { unchecked: 'needs a terminal; test/cli/special-inputs.test.ts runs it under script(1)' },
  'a full disk (or no permission) while writing the report': {
    args: () => ['analyze', '--fail-on', 'never', fixture('threads/deadlock/dump-1.txt'), '-o', '/dev/full'],
  },
  'a reader that closes the pipe': {
    shell: (cli) => `${cli} histogram -f json --top 0 ${fixture('incidents/active-count-leak/heap.hprof.gz')} | head -c 1 >/dev/null`,
  },
  'a bug in dumpsleuth': { unchecked: 'only a bug produces it; the mapping to exit 70 is in src/cli/main.ts' },
};

interface Row {
  readonly failure: string;
  readonly exits: number[];
  readonly printed: string;
}

function readmeRows(): Row[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('| failure | exit | what is printed');
  const lines = readme.slice(start).split('\n');
  const rows: Row[] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    // Cells are split on pipes that are not escaped (`\|`).
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    rows.push({ failure: cells[0]!, exits: cells[1]!.split('/').map(Number), printed: cells[2]! });
  }
  return rows;
}

/** The first code span of a cell (single or double backticks), as a pattern where `…` matches anything. */
function samplePattern(cell: string): RegExp | undefined {
  const m = /(`+)(.+?)\1/.exec(cell.replace(/\\\|/g, '|'));
  if (m === null) return undefined;
  const text = m[2]!.trim().replace(/\\\\/g, '\\');
  const parts = text.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(parts.join('.*?'));
}

function keyOf(failure: string): string | undefined {
  return Object.keys(REPRODUCTIONS).find((k) => failure.startsWith(k));
}

describe("the README's table of errors and warnings", { timeout: 120_000 }, () => {
  const rows = readmeRows();

  test('has its rows, and a reproduction for each', () => {
    expect(rows.length).toBeGreaterThan(25);
    for (const r of rows) expect(keyOf(r.failure), `no reproduction for the README row "${r.failure}"`).toBeDefined();
  });

  for (const row of rows) {
    const key = keyOf(row.failure);
    const repro = key === undefined ? undefined : REPRODUCTIONS[key]!;
    test.skipIf(repro === undefined || repro.unchecked !== undefined)(`${row.failure.slice(0, 80)}`, () => {
      const dir = scratchDir('readme');
      const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', CI: 'true' };
      // The built CLI, in a process of its own: each row runs in its scratch directory, some through a shell.
      const cliCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)}`;
      const r = repro!.shell
        ? spawnSync('sh', ['-c', repro!.shell(cliCommand)], { cwd: dir, env, encoding: 'utf8' })
        : spawnSync(process.execPath, [BUILT_CLI, ...repro!.args!(dir)], { cwd: dir, env, encoding: 'utf8', input: '' });
      const output = `${r.stdout}\n${r.stderr}`;
      expect(row.exits, output.slice(0, 2000)).toContain(r.status);
      const pattern = samplePattern(row.printed);
      if (pattern !== undefined) expect(output, `README sample: ${row.printed}`).toMatch(pattern);
      else expect(r.stderr.trim(), 'a row with no sample prints nothing on stderr').toBe('');
      expect(output).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)|Unhandled|internal error/);
    });
  }

  test('every unchecked row says why', () => {
    for (const [key, repro] of Object.entries(REPRODUCTIONS))
      if (repro.args === undefined && repro.shell === undefined) expect(repro.unchecked, key).toMatch(/\S+ \S+ \S+ \S+/);
  });
});

describe('the README stays a README (issue 48: it had grown to 651 lines; the rest lives in docs/)', () => {
  test('has at most 500 lines, and every docs/ page it links exists', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(500);
    for (const link of readme.matchAll(/\]\((docs\/[^)#]+)/g)) expect(existsSync(link[1]!), link[1]).toBe(true);
  });
});
