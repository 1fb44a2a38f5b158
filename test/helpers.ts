/** Shared test helpers: load fixtures and corpus files through the real input path. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { analyseIncident as runAnalysis, type AnalysisRequest } from '../src/analysis/analyse.js';
import { loadThreadInput, type LoadedThreadInput } from '../src/analysis/load-threads.js';
import type { Model } from '../src/model/model.js';
import type { Finding } from '../src/model/findings.js';
import type { ThreadDumpFile } from '../src/model/thread-dump.js';
import { TextDumpParser } from '../src/threads/text-parser.js';

export const FIXTURES = 'fixtures/threads';
export const CORPUS = join('..', 'shared', 'corpus', 'threaddumps');
export const corpusAvailable = existsSync(CORPUS);
// Said once per test file that reads the corpus, so a fresh clone's skipped tests are never silent.
if (!corpusAvailable) console.warn(`corpus tests skipped: ${CORPUS} is absent (put the shared corpus next to this checkout to run them)`);

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
 * Analyses an incident directory the way `analyze <dir>` does (thread dumps, heap dump, logs; other
 * files skipped), or with its thread dumps only.
 */
export async function analyseIncident(dir: string, options: { threadsOnly?: boolean } = {}): Promise<{ model: Model; findings: Finding[] }> {
  return analysed({ paths: [dir], ...(options.threadsOnly === true ? { select: (i) => /^dump-\d+\.txt$/.test(basename(i.path)) } : {}) });
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

/** Runs the CLI from source (src/cli.ts through tsx), without colour. */
export function runCli(args: string[], input?: Buffer | string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
