/** Shared test helpers: load fixtures and corpus files through the real input path. */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';

import { analyseIncident as runAnalysis, type AnalysisRequest } from '../src/analysis/analyse.js';
import { type LoadedThreadInput, loadThreadInput } from '../src/analysis/load-threads.js';
import { runCli as runCliInProcess, version } from '../src/cli/main.js';
import type { InputPath } from '../src/input/collect-inputs.js';
import type { Finding } from '../src/model/findings.js';
import type { Model } from '../src/model/model.js';
import type { ThreadDumpFile } from '../src/model/thread-dump.js';
import { TextDumpParser } from '../src/threads/text-parser.js';
import { SCRATCH_ROOT_VARIABLE } from './scratch-root.js';

/** The `tool` of the reports tests render: a fixed version, so their output does not change with the package's. */
export const TEST_TOOL = { name: 'dumpsleuth', version: '0.0.0-test' } as const;

export const FIXTURES = 'fixtures/threads';
export const CORPUS = join('..', 'shared', 'corpus', 'threaddumps');
// Tests that need it skip silently: test/global-setup.ts says once per run that ../shared is absent.
export const corpusAvailable = existsSync(CORPUS);

/** Every plain (not gzip) text file under the thread fixtures and, when present, the thread-dump corpus. */
export function threadDumpTextFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(txt|out|log|tdump)$|^[^.]+$/.test(e.name) && readFileSync(p)[0] !== 0x1f) files.push(p);
    }
  };
  walk(FIXTURES);
  if (corpusAvailable) walk(CORPUS);
  return files;
}

/**
 * The text parsed a line at a time through `push`, which takes no chunk and remembers no bodies: the
 * reference that `pushText` (chunks, remembered bodies, the header fast path) is held equal to.
 */
export function parseLineByLine(text: string, source = 't'): ThreadDumpFile {
  const parser = new TextDumpParser(source);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) parser.push(line);
  return parser.finish();
}

export async function load(path: string): Promise<LoadedThreadInput> {
  return loadThreadInput(path);
}

/** Thread dump files analysed as `analyze <files...>` analyses them (the one pipeline, default rules). */
export async function analyse(paths: string[]): Promise<{ model: Model; findings: Finding[] }> {
  return analysed({ paths });
}

export async function truth(scenario: string): Promise<any> {
  return JSON.parse(await readFile(join(FIXTURES, scenario, 'truth.json'), 'utf8'));
}

export const INCIDENTS = 'fixtures/incidents';

/**
 * What a fixture incident's program wrote about itself (fixtures/incidents/<incident>/truth.json): the
 * figures a test holds the analysis to, so no result is written into a test by hand.
 */
export function truthOf<T = any>(incident: string): T {
  return JSON.parse(readFileSync(join(INCIDENTS, incident, 'truth.json'), 'utf8')) as T;
}

/** The findings one rule made, in their order. */
export function byRule(findings: readonly Finding[], rule: string): Finding[] {
  return findings.filter((f) => f.rule === rule);
}

/**
 * A new empty folder for what a test writes (copies of fixtures, reports, extracts), named
 * dumpsleuth-<name>-XXXXXX: one place that says where tests write, instead of a mkdtemp in each file.
 * Under `npm test` it lies in the run's own folder, which test/global-setup.ts removes when the run
 * ends (vitest ends its worker processes with a signal, so no exit hook in a worker would run);
 * a test file run some other way writes under the system's temporary directory.
 */
export function scratchDir(name: string): string {
  return mkdtempSync(join(process.env[SCRATCH_ROOT_VARIABLE] ?? tmpdir(), `dumpsleuth-${name}-`));
}

/** A minimal javacore written by hand (a format edge case): its title and one thread, to put beside a jstack dump. */
export const MINIMAL_JAVACORE = [
  '0SECTION       TITLE subcomponent dump routine',
  '1TISIGINFO     Dump Requested By User (00100000) Through com.ibm.jvm.Dump.JavaDump',
  '0SECTION       THREADS subcomponent dump routine',
  '3XMTHREADINFO      "main" J9VMThread:0x1, j9thread_t:0x2, java/lang/Thread:0x3, state:R, prio=5',
  '4XESTACKTRACE                at com/acme/App.main(App.java:1)',
  '',
].join('\n');

/**
 * Analyses an incident directory the way `analyze <dir>` does (thread dumps, heap dump, logs; other
 * files skipped), or with its thread dumps only.
 *
 * A fixture incident (a folder of fixtures/incidents, which no test writes to) is analysed once per
 * test process, whole and threads-only, and the same result is handed to every test file that asks:
 * several files go over every incident, its heap's memory analysis included, and each analysis took
 * seconds again per file. The result is frozen all the way down, so a test that changed it would fail
 * with a TypeError instead of changing what the next test reads; a test that needs to change one works
 * on a copy (`structuredClone`). Any other folder (a temporary copy, a thread fixture) is analysed afresh.
 */
export async function analyseIncident(dir: string, options: { threadsOnly?: boolean } = {}): Promise<Analysed> {
  const threadsOnly = options.threadsOnly === true;
  const at = resolve(dir);
  if (dirname(at) !== resolve(INCIDENTS)) return analyseIncidentAfresh(dir, { threadsOnly });
  const key = `${threadsOnly ? 'threads' : 'whole'}:${basename(at)}`;
  let memo = incidentMemo.get(key);
  if (memo === undefined) {
    memo = analyseIncidentAfresh(dir, { threadsOnly }).then(deepFreeze);
    // A failed analysis is not kept: the next test asks again and reports its own error.
    memo.catch(() => incidentMemo.delete(key));
    incidentMemo.set(key, memo);
  }
  return memo;
}

/** What an analysis gives a test: the model and the findings. */
export type Analysed = { model: Model; findings: Finding[] };

/** Per test process (vitest keeps a worker's modules from one file to the next: isolate is off). */
const incidentMemo = new Map<string, Promise<Analysed>>();

/** An incident directory analysed now, never from the memo (the memo's own test compares the two). */
export async function analyseIncidentAfresh(dir: string, options: { threadsOnly?: boolean } = {}): Promise<Analysed> {
  // A fixture's truth.json is what its program wrote about itself, not a file of the incident: left
  // out here, so the reports do not list it among the files not read.
  const select =
    options.threadsOnly === true ? (i: InputPath) => /^dump-\d+\.txt$/.test(basename(i.path)) : (i: InputPath) => basename(i.path) !== 'truth.json';
  return analysed({ paths: [dir], select });
}

/** `value` and everything it holds made read-only (the model is plain data: objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Files analysed as `analyze <files...>` loads them: thread dumps, heap dumps and logs, one JVM. */
export async function analyseFiles(files: string[]): Promise<{ model: Model; findings: Finding[] }> {
  return analysed({ paths: files });
}

async function analysed(request: AnalysisRequest): Promise<{ model: Model; findings: Finding[] }> {
  const result = await runAnalysis(request);
  if (result.outcome !== 'analysed') throw new Error(`nothing to analyse in ${request.paths.join(', ')}`);
  return { model: result.model, findings: result.findings };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, as a test reads it afterwards (not a TTY: no progress line, no colour). */
function collector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs the CLI in this process (src/cli/main.ts), without colour unless `env` asks for it: arguments in,
 * exit code and the text of stdout and stderr out. For what needs a process of its own (stdin, signals,
 * a closed pipe, a memory limit, the working directory), see runBuiltCli.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = { NO_COLOR: '1' }): Promise<CliRun> {
  const out = collector();
  const err = collector();
  const stderr = err.stream as unknown as NodeJS.WriteStream;
  const code = await runCliInProcess(args, { stdout: out.stream, stderr, env: { ...process.env, ...env }, version });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** The built CLI bundle (test/global-setup.ts builds it when it is missing or older than src/). */
export const BUILT_CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

/**
 * Runs the built CLI (dist/cli.js) in a process of its own, without colour unless `options.env` says
 * otherwise; `input` is its stdin. `nodeArgs` go to node (e.g. a heap limit).
 */
export function runBuiltCli(
  args: string[],
  options: { input?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string; nodeArgs?: string[]; maxBuffer?: number } = {},
): CliRun {
  const spawnOptions: SpawnSyncOptions = {
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    encoding: 'utf8',
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.maxBuffer !== undefined ? { maxBuffer: options.maxBuffer } : {}),
  };
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), BUILT_CLI, ...args], spawnOptions);
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}
