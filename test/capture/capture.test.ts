/**
 * `dumpsleuth capture` on real JVMs the test starts (fixtures/programs/capture/CaptureTarget.java: a
 * spinning thread, an idle pool of 4): the series and its per-thread CPU match what the program set
 * up, the manifest lists every step, a JVM that exits half-way leaves a usable partial capture, and a
 * pid that is not a JVM gives exit 2. Needs a JDK (javac, java, jcmd); skipped, saying so, without one.
 *
 * Lean: one CaptureTarget JVM serves every test (the tests run in order; the one that stops it
 * continues it, the one that kills it comes last), and the runaway program is the only other JVM.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { uniqueNames } from '../../src/capture/capture.js';
import { findTool } from '../../src/capture/jvm-tools.js';
import { BUILT_CLI, scratchDir } from '../helpers.js';

const JDK = (['javac', 'java', 'jcmd'] as const).every((t) => findTool(t) !== undefined);
if (!JDK) console.warn('test/capture: skipped, no JDK (javac, java, jcmd) on this machine');
/** A JDK 21+ for the virtual-thread capture (JDK25_HOME, as the fixture scripts take it). */
const JDK25 = process.env['JDK25_HOME'] ?? '/usr/lib/jvm/temurin-25-jdk-amd64';
const HAS_JDK25 = JDK && ['javac', 'java', 'jcmd'].every((t) => existsSync(join(JDK25, 'bin', t)));
if (JDK && !HAS_JDK25) console.warn(`test/capture: the virtual-thread capture skipped, no JDK 21+ at ${JDK25} (set JDK25_HOME)`);

/** Kills pid argv[2] once a threads-1.txt appears in a directory under argv[1]. */
const WATCHER = `
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const [out, pid] = process.argv.slice(1);
const t = setInterval(() => {
  if (readdirSync(out).some((d) => existsSync(join(out, d, 'threads-1.txt')))) { process.kill(Number(pid), 'SIGKILL'); process.exit(0); }
}, 20);
setTimeout(() => process.exit(0), 120000);
`;

/** The built CLI in a process of its own: capture attaches to JVMs and waits on them. */
function cli(args: string[], cwd?: string, path?: string) {
  const r = spawnSync(process.execPath, [BUILT_CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...(path !== undefined ? { PATH: path } : {}) },
    encoding: 'utf8',
    timeout: 120_000,
    ...(cwd !== undefined ? { cwd } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The analyses below judge a spinning thread on a machine other work may keep busy: with the test
 * workers and two busy loops beside it, a spinner on two cores gets a third of a core or less, which
 * the rule's default bar (half a core) does not reach. The bar is lowered for these runs to 15 % of a
 * core: above what the runaway program's batch thread can use (it works 10 % of the time, less when
 * the machine is busy), far above the idle threads' nothing, and reached by a spinner unless more than
 * a dozen other threads compete for the two cores.
 */
/** The share of a core from which cpu-hot-threads reports a thread, in these tests (the rule's default is higher). */
const MIN_CORE_SHARE = 0.15;
const LOADED_MACHINE_CONFIG = join(scratchDir('capture-config'), 'dumpsleuth.config.json');
writeFileSync(LOADED_MACHINE_CONFIG, JSON.stringify({ rules: { 'cpu-hot-threads': { options: { minCoreShare: MIN_CORE_SHARE } } } }));

/**
 * The median share of a core the named thread got in a capture's /proc samples (cpu-N.txt beside
 * threads-N.txt, the thread found by the nid its dump gives it). A machine whose cores other work
 * keeps busy gives a spinner less than a core: the positive half of a test can only ask the analysis
 * to find what the capture measured.
 */
function measuredShare(captureDir: string, threadName: string): number {
  const shares = readdirSync(captureDir)
    .filter((f) => /^threads-\d+\.txt$/.test(f))
    .flatMap((f) => {
      const nid = new RegExp(`"${threadName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" .*nid=(0x[0-9a-f]+)`).exec(readFileSync(join(captureDir, f), 'utf8'))?.[1];
      const cpuFile = join(captureDir, f.replace('threads-', 'cpu-'));
      if (nid === undefined || !existsSync(cpuFile)) return [];
      const row = readFileSync(cpuFile, 'utf8')
        .split('\n')
        .find((l) => l.trim().startsWith(`${parseInt(nid, 16)} `));
      return row !== undefined ? [Number(row.trim().split(/\s+/)[2]) / 100] : [];
    })
    .sort((a, b) => a - b);
  return shares.length > 0 ? shares[Math.floor(shares.length / 2)]! : 0;
}

describe.skipIf(!JDK)('dumpsleuth capture', { timeout: 180_000 }, () => {
  const classes = scratchDir('capture-classes');
  const running: ChildProcess[] = [];
  /** Starts the target JVM with a name of its own (its main class's argument), resolving when it is ready. */
  const startTarget = (lifeSeconds: number, fileSizeLimitZero = false): Promise<ChildProcess> =>
    new Promise((resolve, reject) => {
      // In a directory of its own: an attach leaves `.attach_pid<pid>` in the JVM's working directory.
      // With `ulimit -f 0` the JVM cannot write a byte to a file (what a full disk or a quota does to a heap dump).
      const java = ['java', '-cp', classes, 'CaptureTarget', String(lifeSeconds)];
      const p = fileSizeLimitZero
        ? spawn('sh', ['-c', `ulimit -f 0 && exec ${java.map((a) => `'${a}'`).join(' ')}`], { cwd: classes, stdio: ['ignore', 'pipe', 'inherit'] })
        : spawn(java[0]!, java.slice(1), { cwd: classes, stdio: ['ignore', 'pipe', 'inherit'] });
      running.push(p);
      p.stdout!.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) resolve(p);
      });
      p.on('error', reject);
    });

  /**
   * The one CaptureTarget of the file. Its life (its argument, which it prints in its command line)
   * is long enough for every test, and picked per run so that `CaptureTarget <life>` names this JVM
   * only, even beside another run of this file on the same machine.
   */
  const life = 200 + (process.pid % 300);
  let target: ChildProcess;
  beforeAll(async () => {
    const r = spawnSync('javac', ['-d', classes, 'fixtures/programs/capture/CaptureTarget.java'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`javac failed: ${r.stderr}`);
    target = await startTarget(life);
  });
  afterAll(() => {
    for (const p of running) p.kill('SIGKILL');
  });

  it('takes a series with per-thread CPU for every dump, and analyse finds the spinning thread', async ({ skip }) => {
    const jvm = target;
    const out = scratchDir('capture');
    // (How long it takes is the README's figure, from capture.json's times: a loaded machine attaches slowly.)
    const r = cli(['capture', String(jvm.pid), '--dumps', '3', '--interval', '1', '-o', out, '--no-analyze']);
    expect(r.code, r.stderr).toBe(0);
    const [dir] = readdirSync(out);
    const files = readdirSync(join(out, dir!)).sort();
    expect(files).toEqual(['capture.json', 'cpu-1.txt', 'cpu-2.txt', 'cpu-3.txt', 'threads-1.txt', 'threads-2.txt', 'threads-3.txt']);
    // The manifest lists every step, each with its file or tool, and nothing failed.
    const manifest = JSON.parse(readFileSync(join(out, dir!, 'capture.json'), 'utf8'));
    expect(manifest).toMatchObject({ schema: 'dumpsleuth.capture/1', pid: jvm.pid, warnings: [] });
    const whats = manifest.steps.map((s: { what: string }) => s.what);
    for (const w of [
      'thread dump 1 of 3',
      'thread dump 3 of 3',
      'per-thread CPU 3 (/proc/' + jvm.pid + '/task)',
      'JVM identity: VM.version',
      'JVM identity: VM.flags',
    ])
      expect(whats).toContain(w);
    expect(manifest.steps.every((s: { ok: boolean }) => s.ok)).toBe(true);
    expect(manifest.jvm['VM.command_line']).toContain('CaptureTarget');
    expect(r.stderr).toMatch(new RegExp(`^capturing pid \\d+ \\(CaptureTarget ${life}\\): 3 thread dumps 1 s apart`));
    // Each dump's CPU file holds the spinner's thread, by the nid its dump gives it.
    for (const n of [1, 2, 3]) {
      const dump = readFileSync(join(out, dir!, `threads-${n}.txt`), 'utf8');
      const nid = /"hot-spinner" .*nid=(0x[0-9a-f]+)/.exec(dump)![1]!;
      const cpu = readFileSync(join(out, dir!, `cpu-${n}.txt`), 'utf8');
      const row = cpu.split('\n').find((l) => l.trim().startsWith(String(parseInt(nid, 16))));
      expect(row, `the spinner's thread in cpu-${n}.txt`).toBeDefined();
      // Listed with a CPU figure; how much the spinner got depends on what else the machine runs.
      expect(Number(row!.trim().split(/\s+/)[2])).toBeGreaterThanOrEqual(0);
    }
    // Analysed as the program's truth says: the spinner burns a core (measured by the /proc samples too), the pool waits for work.
    const share = measuredShare(join(out, dir!), 'hot-spinner');
    skip(share < MIN_CORE_SHARE, `the machine gave the spinner ${Math.round(share * 100)} % of a core, below the rule's bar`);
    const a = cli(['analyze', '--format', 'json', '--fail-on', 'never', '--config', LOADED_MACHINE_CONFIG, join(out, dir!)]);
    expect(a.stderr).not.toContain('capture.json');
    const report = JSON.parse(a.stdout);
    const hot = report.findings.find((f: { rule: string }) => f.rule === 'cpu-hot-threads');
    expect(hot?.subject).toBe('hot-spinner');
    expect(hot.facts.measuredBy).toContain('top');
    expect(report.findings.filter((f: { rule: string }) => f.rule === 'executor-saturated')).toEqual([]);
  });

  it("on the cpu-runaway incident program: the analysis of the capture says what the program's truth says", async ({ skip }) => {
    const runawayClasses = scratchDir('capture-runaway');
    const c = spawnSync('javac', ['-d', runawayClasses, 'fixtures/programs/runtime-incidents/com/example/search/CpuRunaway.java'], { encoding: 'utf8' });
    expect(c.status, c.stderr).toBe(0);
    let pid = 0;
    const truth = await new Promise<{ hot: string; readerPrefix: string; batch: string }>((resolve, reject) => {
      const p = spawn('java', ['-cp', runawayClasses, 'com.example.search.CpuRunaway'], { cwd: runawayClasses, stdio: ['ignore', 'pipe', 'inherit'] });
      running.push(p);
      pid = p.pid!;
      let out = '';
      p.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /TRUTH (\{.*\})/.exec(out);
        if (m !== null) resolve(JSON.parse(m[1]!));
      });
      p.on('error', reject);
    });
    const out = scratchDir('capture');
    // By pid: another run of this file on the machine has a CpuRunaway too (the name lookup is the heap
    // test's). Dumps 1 s apart (the default is 2): the series measures the spinner as well, in less time.
    const r = cli(['capture', String(pid), '--interval', '1', '-o', out, '--fail-on', 'never']);
    expect(r.code, r.stderr).toBe(0);
    const [dir] = readdirSync(out);
    const share = measuredShare(join(out, dir!), truth.hot);
    skip(share < MIN_CORE_SHARE, `the machine gave the runaway thread ${Math.round(share * 100)} % of a core, below the rule's bar`);
    const report = JSON.parse(cli(['analyze', '--format', 'json', '--fail-on', 'never', '--config', LOADED_MACHINE_CONFIG, join(out, dir!)]).stdout);
    const hot = report.findings.filter((f: { rule: string }) => f.rule === 'cpu-hot-threads');
    // The spinning thread, and only it: not the socket readers (RUNNABLE, no CPU), not the 10 % batch.
    expect(hot.map((f: { subject: string }) => f.subject)).toEqual([truth.hot]);
    expect(hot[0].facts.measuredBy).toEqual(expect.arrayContaining(['series', 'top']));
    expect(JSON.stringify(report.findings)).not.toContain(truth.readerPrefix);
  });

  it("a heap dump after the thread dumps, with the pause said; from a folder that is not the JVM's, with a relative -o", async () => {
    // Its life makes its command line unique: it is found by name. The capture runs in `out`, the JVM
    // in its classes' folder, and -o is relative: the JVM must be handed an absolute path (it
    // resolves a relative one against its own folder, where `incidents/` does not exist).
    const out = scratchDir('capture');
    const log = join(out, 'app.log');
    writeFileSync(log, '2026-12-01 10:00:00.000 INFO [main] started\n');
    // Port 1: nothing listens there, so the QoS step fails and says so, and the capture goes on.
    const missing = join(out, 'missing.log');
    const r = cli(
      [
        'capture',
        `CaptureTarget ${life}`,
        '--dumps',
        '1',
        '--heap',
        '--log',
        log,
        '--log',
        missing,
        '--log',
        out,
        '--dubbo-qos',
        '1',
        '-o',
        'incidents',
        '--no-analyze',
      ],
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/: 1 thread dump, then a heap dump/);
    // A log that is not there, or is a folder, is said in words, and the capture goes on.
    expect(r.stderr).toContain(`warning: log ${missing}: there is no such file`);
    expect(r.stderr).toContain(`warning: log ${out}: it is a folder, not a log file`);
    expect(r.stderr).not.toMatch(/ENOENT|EISDIR/);
    expect(r.stderr).toMatch(/warning: the heap dump paused the JVM while it was written/);
    expect(r.stderr).toMatch(/warning: Dubbo QoS on 127\.0\.0\.1:1 \(ls, ps, count\): no Dubbo QoS console at 127\.0\.0\.1:1/);
    const [dir] = readdirSync(join(out, 'incidents')).map((d) => join('incidents', d));
    expect(readFileSync(join(out, dir!, 'logs', 'app.log'), 'utf8')).toContain('started');
    const heap = readdirSync(join(out, dir!)).find((f) => f.startsWith('heap.hprof'));
    expect(heap).toBeDefined();
    // Nothing written where the JVM runs, and the manifest's heap step is the file that is there.
    expect(readdirSync(classes).some((f) => f.startsWith('incidents') || f.startsWith('heap'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(out, dir!, 'capture.json'), 'utf8'));
    expect(manifest.steps.find((s: { what: string }) => s.what.startsWith('heap dump'))).toMatchObject({ ok: true, file: heap });
    // The JVM on PATH (JDK 17) has no Thread.dump_to_file: the JSON dump is not attempted.
    expect(manifest.steps.some((s: { what: string }) => s.what.startsWith('JSON thread dump'))).toBe(false);
    const a = JSON.parse(cli(['analyze', '--format', 'json', '--fail-on', 'never', '--no-memory', join(out, dir!)]).stdout);
    expect(a.inputs.some((i: { kind: string }) => i.kind === 'heap')).toBe(true);
    // The program's pool of 4 waiting workers, as the heap holds it: joined to its threads of the dump.
    const pool = a.model.executors.find((e: { name: string }) => e.name === 'pool-1');
    expect(pool).toMatchObject({ source: 'heap+threads', workers: 4, busy: 0 });
    expect(pool.heap).toMatchObject({ poolSize: 4, maximumPoolSize: 4 });
  });

  it('a heap dump the JVM cannot write (its file-size limit is 0): the step failed, said, and exit 2 after the analysis', async () => {
    const jvm = await startTarget(life + 1000, true);
    const out = scratchDir('capture');
    const r = cli(['capture', String(jvm.pid), '--dumps', '1', '--heap', '-o', 'incidents', '--fail-on', 'never'], out);
    jvm.kill('SIGKILL');
    expect(r.code, r.stderr).toBe(2);
    // jcmd exited 0 and said it failed: the step is a failure, in the terminal and in capture.json.
    expect(r.stderr).toMatch(/warning: heap dump \(live objects(, gzip)?\): jcmd GC\.heap_dump says: Dump file is incomplete: File too large/);
    expect(r.stderr).toMatch(
      /\nerror: the heap dump asked for \(--heap\) was not written: jcmd GC\.heap_dump says: .* \(what was taken is in .*incidents\/.*\)\n {2}the JVM writes/,
    );
    const [dir] = readdirSync(join(out, 'incidents'));
    const manifest = JSON.parse(readFileSync(join(out, 'incidents', dir!, 'capture.json'), 'utf8'));
    const heapStep = manifest.steps.find((s: { what: string }) => s.what.startsWith('heap dump'));
    expect(heapStep).toMatchObject({ ok: false });
    expect(heapStep.file).toBeUndefined();
    // No empty heap file is left behind to be taken for one.
    expect(readdirSync(join(out, 'incidents', dir!)).filter((f) => f.startsWith('heap'))).toEqual([]);
    // What was taken was analysed first (the report is on stdout), and its top says the heap dump is missing.
    expect(r.stdout).toMatch(
      /^Incomplete: this report stands on part of the evidence\n {2}.*capture\.json: the heap dump asked for \(capture --heap\) is missing: /m,
    );
    expect(r.stdout).toMatch(/is missing: jcmd GC\.heap_dump says: Dump file is incomplete/);
    const a = JSON.parse(cli(['analyze', '--format', 'json', '--fail-on', 'never', join(out, 'incidents', dir!)]).stdout);
    expect(a.model.notes.some((n: string) => /the heap dump asked for \(capture --heap\) is missing/.test(n))).toBe(true);
    expect(a.inputs.some((i: { kind: string }) => i.kind === 'heap')).toBe(false);
  });

  it('a JVM that does not answer is reported within the timeout, and what was taken is kept', async () => {
    const jvm = target;
    process.kill(jvm.pid!, 'SIGSTOP');
    try {
      const out = scratchDir('capture');
      // The shortest timeout: each command the stopped JVM does not answer costs it.
      const r = cli(['capture', String(jvm.pid), '--dumps', '1', '--timeout', '1', '-o', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/did not answer within its timeout/);
      expect(r.stderr).toMatch(/error: no thread dump of pid \d+ could be taken \(capture\.json in .* says why\)/);
      const [dir] = readdirSync(out);
      const manifest = JSON.parse(readFileSync(join(out, dir!, 'capture.json'), 'utf8'));
      expect(manifest.steps.find((s: { what: string }) => s.what === 'thread dump 1 of 1')).toMatchObject({ ok: false });
    } finally {
      process.kill(jvm.pid!, 'SIGCONT');
    }
  });

  it('keeps what it took when the JVM exits half-way, and says so', async () => {
    // Last of the tests on the file's JVM: it ends it.
    const jvm = target;
    const out = scratchDir('capture');
    // The JVM is killed as soon as its first dump is written (by a watcher of its own: the capture
    // below blocks this thread), however long a loaded machine takes to attach.
    const watcher = spawn(process.execPath, ['-e', WATCHER, out, String(jvm.pid)], { stdio: 'ignore' });
    running.push(watcher);
    const r = cli(['capture', String(jvm.pid), '--dumps', '5', '--interval', '1', '-o', out, '--no-analyze']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: the JVM \(pid \d+\) exited (before dump \d of 5|during the capture): what was taken is kept/);
    const [dir] = readdirSync(out);
    const dumps = readdirSync(join(out, dir!)).filter((f) => f.startsWith('threads-'));
    expect(dumps.length).toBeGreaterThan(0);
    expect(dumps.length).toBeLessThan(5);
    // What was taken is an incident analyze reads.
    const a = cli(['analyze', '--format', 'json', '--fail-on', 'never', '--config', LOADED_MACHINE_CONFIG, join(out, dir!)]);
    expect(JSON.parse(a.stdout).dumps.length).toBe(dumps.length);
  });

  it.skipIf(!HAS_JDK25)('on JDK 25, virtual threads deadlocked on ReentrantLocks: the JSON dump beside each Thread.print finds the pile-up', async () => {
    const vtClasses = scratchDir('capture-vt');
    const c = spawnSync(join(JDK25, 'bin', 'javac'), ['-d', vtClasses, 'fixtures/programs/jdk21/VirtualDeadlock.java'], { encoding: 'utf8' });
    expect(c.status, c.stderr).toBe(0);
    let pid = 0;
    const truth = await new Promise<{ waitingForLedger: number; requestsParked: number; deadlocked: string[] }>((resolve, reject) => {
      const p = spawn(join(JDK25, 'bin', 'java'), ['-Xmx64m', '-cp', vtClasses, 'VirtualDeadlock'], { cwd: vtClasses, stdio: ['ignore', 'pipe', 'inherit'] });
      running.push(p);
      pid = p.pid!;
      let out = '';
      p.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /TRUTH (\{.*\})/.exec(out);
        if (m !== null) resolve(JSON.parse(m[1]!));
      });
      p.on('error', reject);
    });
    const out = scratchDir('capture');
    // JDK 25's jcmd first on PATH (capture needs a JDK of the JVM's version or newer); a relative -o, run from another folder than the JVM's.
    const path = `${join(JDK25, 'bin')}${delimiter}${process.env['PATH'] ?? ''}`;
    const r = cli(['capture', String(pid), '--dumps', '2', '--interval', '1', '-o', 'incidents', '--no-analyze'], out, path);
    expect(r.code, r.stderr).toBe(0);
    const [name] = readdirSync(join(out, 'incidents'));
    const dir = join(out, 'incidents', name!);
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('threads-'))
        .sort(),
    ).toEqual(['threads-1.json', 'threads-1.txt', 'threads-2.json', 'threads-2.txt']);
    const manifest = JSON.parse(readFileSync(join(dir, 'capture.json'), 'utf8'));
    expect(manifest.steps.find((s: { what: string }) => s.what === 'JSON thread dump 1 of 2 (virtual threads too)')).toMatchObject({
      ok: true,
      file: 'threads-1.json',
      tool: 'jcmd Thread.dump_to_file -format=json',
    });
    expect(manifest.warnings).toEqual([]);
    // The capture, analysed: two moments, each one dump, the pile-up on LEDGER as long as its queue, the deadlocked pair stuck.
    const a = JSON.parse(cli(['analyze', '--format', 'json', '--fail-on', 'never', dir]).stdout);
    expect(a.dumps).toHaveLength(2);
    expect(a.model.notes.some((n: string) => /2 JSON thread dumps and the Thread\.print dumps of the same moments are read as one dump each/.test(n))).toBe(
      true,
    );
    const contention = a.findings.find((f: { rule: string }) => f.rule === 'lock-contention');
    expect(contention?.facts.waiters).toBe(truth.waitingForLedger);
    const stuck = a.findings.filter((f: { rule: string }) => f.rule === 'stuck-threads');
    expect(stuck.find((f: { subject: string }) => f.subject.startsWith('VirtualDeadlock.transfer'))?.facts.threads.sort()).toEqual(truth.deadlocked);
    // Its Thread.print dump alone: nothing found, and the note that says why, with the command.
    const alone = JSON.parse(cli(['analyze', '--format', 'json', '--fail-on', 'never', join(dir, 'threads-1.txt')]).stdout);
    expect(alone.findings).toEqual([]);
    expect(alone.model.notes.some((n: string) => /jcmd <pid> Thread\.dump_to_file -format=json <file> lists them/.test(n))).toBe(true);
  });

  it('without a JDK it says what to install', () => {
    const r = spawnSync(process.execPath, [BUILT_CLI, 'capture', '1'], { env: { PATH: '', NO_COLOR: '1' }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: jcmd is not on PATH, in \$JAVA_HOME\/bin or beside java\n {2}capture needs a JDK/);
  });

  it('a pid that is not a JVM, or not running, is exit 2 with what to do', () => {
    const sleeper = spawn('sleep', ['30']);
    running.push(sleeper);
    const notJvm = cli(['capture', String(sleeper.pid), '-o', tmpdir()]);
    expect(notJvm.code).toBe(2);
    expect(notJvm.stderr).toMatch(/^error: process \d+ is not a JVM this user can attach to/);
    expect(notJvm.stderr).toMatch(/sudo -u/);
    // It was not attached to: an attach sends SIGQUIT, which would have ended it.
    expect(() => process.kill(sleeper.pid!, 0)).not.toThrow();
    expect(readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8')).not.toMatch(/\) Z /);
    const gone = cli(['capture', '999999', '-o', tmpdir()]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/^error: no process 999999 is running/);
    const noName = cli(['capture', 'NoSuchMainClassAnywhere', '-o', tmpdir()]);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/^error: no JVM runs anything named "NoSuchMainClassAnywhere"/);
  });
});

describe('the names of the logs a capture copies', () => {
  it('keeps two logs with one name apart, in the order given', () => {
    expect(uniqueNames(['app.log', 'app.log', 'gc.log', 'app.log', 'README'])).toEqual(['app.log', 'app-2.log', 'gc.log', 'app-3.log', 'README']);
    expect(uniqueNames(['x', 'x'])).toEqual(['x', 'x-2']);
  });
});
