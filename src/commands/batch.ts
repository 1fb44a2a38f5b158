/**
 * `dumpsleuth batch <paths or globs...>`: many incidents (a directory of dumps, or one dump file, each)
 * analysed in parallel on worker threads. One NDJSON line per incident on stdout, in the order given;
 * a summary table on stderr; progress on stderr only for a person at a terminal. An incident that
 * cannot be read is a line saying so, and the others go on.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';

import { joinBatchLines, notALine, readBatchLines } from '../batch/batch-lines.js';
import { expandIncidentPaths, isFolderOfIncidents } from '../batch/expand-paths.js';
import { analyseIncidentForBatch, type IncidentLine } from '../batch/incident-summary.js';
import { looksLikeDump } from '../batch/looks-like-dump.js';
import { type Shard, shareOf } from '../batch/shard.js';
import { loadConfigFile } from '../engine/config.js';
import { InputError, UsageError } from '../errors.js';
import { readInputFile } from '../input/stdin.js';
import { readFailure } from '../model/read-failure.js';
import { Redactor } from '../report/redact.js';
import { configNote } from '../report/report.js';
import { stripControl } from '../report/sanitize.js';
import { RULES } from '../rules/index.js';
import { checkFailOn, failsOn } from './fail-on.js';
import type { CommandIo } from './io.js';
import { isClosedPipe } from './output.js';

/** Incidents handed to a worker at once: the one it analyses and the next. */
const IN_FLIGHT_PER_WORKER = 2;

export interface BatchOptions {
  readonly jobs: number;
  readonly failOn: string;
  readonly config?: string;
  readonly progress: boolean;
  readonly redact?: boolean;
  readonly maxGunzipBytes?: number;
  /** This run's share of the incidents (see batch/shard.ts). */
  readonly shard?: Shard;
}

/**
 * The incidents the arguments name: each path (or glob match) is one, and a folder of incidents
 * gives each of its directories, and each dump file beside them; its other files are `skipped`.
 */
export async function incidentsOf(args: readonly string[]): Promise<{ incidents: string[]; skipped: string[] }> {
  const incidents: string[] = [];
  const skipped: string[] = [];
  for (const p of expandIncidentPaths(args)) {
    if (!(await isFolderOfIncidents(p))) {
      incidents.push(p);
      continue;
    }
    for (const e of readdirSync(p)
      .filter((name) => !name.startsWith('.'))
      .sort((a, b) => a.localeCompare(b))) {
      const child = join(p, e);
      if (statSync(child).isDirectory() || (await looksLikeDump(child))) incidents.push(child);
      else skipped.push(child);
    }
  }
  return { incidents, skipped };
}

export async function batchCommand(args: string[], opts: BatchOptions, io: CommandIo): Promise<number> {
  checkFailOn(opts.failOn);
  if (!Number.isInteger(opts.jobs) || opts.jobs < 1)
    throw new UsageError(`-j must be a whole number of at least 1, got ${opts.jobs}`, `for example -j ${availableParallelism()}`);
  // A bad config stops the batch before any incident, and a config picked up by itself is named.
  const { source: configSource } = await loadConfigFile(RULES, opts.config);
  if (configSource !== undefined) io.stderr.write(`note: ${stripControl(configNote(configSource))}\n`);
  const { incidents: matched, skipped } = await incidentsOf(args);
  for (const p of skipped) io.stderr.write(`note: skipped ${stripControl(p)}: in a folder of incidents, a file that is not a dump is not an incident\n`);
  if (matched.length === 0)
    throw new UsageError('no incident matched the given paths', 'pass incident directories, dump files, or globs such as "incidents/*"');
  const positions = opts.shard !== undefined ? shareOf([...matched.keys()], opts.shard) : undefined;
  const incidents = positions !== undefined ? positions.map((p) => matched[p]!) : matched;
  if (opts.shard !== undefined)
    io.stderr.write(`note: shard ${opts.shard.index} of ${opts.shard.count}: ${incidents.length} of the ${matched.length} incidents\n`);
  // A shard with nothing to do (more shards than incidents) has done its share.
  if (incidents.length === 0) return 0;
  const showProgress = batchProgressShown(opts.progress, io);
  const lines: Array<IncidentLine | undefined> = new Array(incidents.length);
  // A reader that went away (`| head -3`) has all it wants: no more incidents are started.
  let readerGone = false;
  io.stdout.on('error', (e) => {
    if (isClosedPipe(e)) readerGone = true;
  });
  let printed = 0;
  let done = 0;
  const flush = () => {
    // Lines go out in the order the incidents were given, as soon as all before them are done.
    while (!readerGone && printed < lines.length && lines[printed] !== undefined) io.stdout.write(JSON.stringify(lines[printed++]) + '\n');
  };
  // One Redactor for the whole batch, in this thread: a host gets the same token in every line.
  const redactor = opts.redact === true ? new Redactor() : undefined;
  const record = (index: number, analysed: IncidentLine) => {
    const line = opts.shard !== undefined ? { ...analysed, shard: { ...opts.shard, position: positions![index]!, total: matched.length } } : analysed;
    lines[index] = redactor === undefined ? line : { ...redactor.value(line), redacted: true };
    done++;
    if (showProgress) io.stderr.write(`\r\u001b[2K[${done}/${incidents.length}] ${stripControl(line.path)}`);
    flush();
  };
  await runAll(incidents, Math.min(opts.jobs, incidents.length), opts.config, opts.maxGunzipBytes, record, () => readerGone);
  if (showProgress) io.stderr.write('\r\u001b[2K');
  // A reader that went away stopped the batch: its exit code is what the incidents done say, as the
  // whole batch's would be (`| head` must not turn a failing sweep into a passing one).
  if (!readerGone) io.stderr.write(summaryTable(lines as IncidentLine[]));
  return batchExitCode(
    lines.filter((l): l is IncidentLine => l !== undefined),
    opts.failOn,
  );
}

/**
 * `batch --summary <files...>`: the lines batch wrote (the shards of one sweep, each run by a job
 * engine) joined into one run's: the lines on stdout in one run's order, the summary table on
 * stderr, and the exit code one run would give (2, too, when incidents of a sharded sweep have no line).
 */
export async function batchSummaryCommand(files: string[], opts: Pick<BatchOptions, 'failOn' | 'redact'>, io: CommandIo): Promise<number> {
  checkFailOn(opts.failOn);
  const read: Array<{ source: string; lines: IncidentLine[] }> = [];
  for (const f of files) {
    const source = f === '-' ? 'standard input' : f;
    read.push({ source, lines: readBatchLines(await batchOutputText(f), source) });
  }
  const { lines: joined, notes, incomplete } = joinBatchLines(read);
  // Redacted once, here, for the whole sweep: a value gets the same token in every shard's lines.
  const redactor = opts.redact === true ? new Redactor() : undefined;
  const lines = redactor === undefined ? joined : joined.map((l) => ({ ...redactor.value(l), redacted: true }));
  for (const n of notes) io.stderr.write(`warning: ${stripControl(n)}\n`);
  for (const l of lines) io.stdout.write(JSON.stringify(l) + '\n');
  io.stderr.write(summaryTable(lines));
  // Incidents with no line were not analysed, as far as this summary can tell: as when one cannot be read.
  return incomplete ? 2 : batchExitCode(lines, opts.failOn);
}

/**
 * The text lines of a batch output file (stdin for `-`), or why it cannot be read, in words. Read
 * line by line: a sweep's file may be bigger than one string can hold. A file whose first byte opens
 * no JSON object (a dump or a gzip given by mistake) is refused after its first bytes, not read whole.
 */
async function batchOutputText(path: string): Promise<string[]> {
  if (path === '-' && process.stdin.isTTY === true)
    throw new InputError(
      'standard input is a terminal, with no batch output piped into it',
      'pipe the lines in (cat shard-*.ndjson | dumpsleuth batch --summary -), or give the files',
    );
  try {
    return (await readInputFile(path, (file) => textLines(file, path))).value;
  } catch (e) {
    // The stdin copy's own errors (a terminal, a device) say what they are already.
    if (e instanceof InputError || (e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new InputError(`cannot read ${path}: ${readFailure(e)}`, 'give --summary the files batch wrote (its standard output), or - for standard input');
  }
}

async function textLines(file: string, path: string): Promise<string[]> {
  const head = Buffer.alloc(1);
  const fd = await open(file, 'r');
  try {
    const { bytesRead } = await fd.read(head, 0, 1, 0);
    if (bytesRead === 1 && head[0] !== 0x7b && !/\s/.test(String.fromCharCode(head[0]!))) throw notALine(path, 1, 'it is not JSON');
  } finally {
    await fd.close();
  }
  const lines: string[] = [];
  for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY })) lines.push(line);
  return lines;
}

/** One run's exit code: 2 when an incident could not be read, 1 when one has a finding at or above --fail-on, else 0. */
function batchExitCode(lines: readonly IncidentLine[], failOn: string): number {
  if (lines.some((l) => l.status === 'error')) return 2;
  return failsOn(
    failOn,
    lines.map((l) => l.highest),
  )
    ? 1
    : 0;
}

/**
 * Whether the `[3/18] path` line is drawn on stderr: for a person watching a terminal while the
 * NDJSON goes to a file or a pipe. When stdout is the same terminal, the lines themselves show the
 * progress, and a line redrawn under them would land in the middle of one.
 */
export function batchProgressShown(wanted: boolean, io: Pick<CommandIo, 'stdout' | 'stderr' | 'env'>): boolean {
  return wanted && io.stderr.isTTY === true && io.stdout.isTTY !== true && !io.env['CI'];
}

/** Runs the incidents on `jobs` worker threads (in this thread when run from source, where workers cannot load TypeScript). */
async function runAll(
  incidents: readonly string[],
  jobs: number,
  config: string | undefined,
  maxGunzipBytes: number | undefined,
  record: (index: number, line: IncidentLine) => void,
  stopped: () => boolean,
): Promise<void> {
  if (import.meta.url.endsWith('.ts')) {
    for (let i = 0; i < incidents.length && !stopped(); i++) record(i, await analyseIncidentForBatch(incidents[i]!, config, maxGunzipBytes));
    return;
  }
  let next = 0;
  const workers = Array.from(
    { length: jobs },
    () => new Worker(new URL('../batch/batch-worker.js', import.meta.url), { workerData: { config, maxGunzipBytes } }),
  );
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            let inFlight = 0;
            const send = () => {
              if (next >= incidents.length || stopped()) return;
              const index = next++;
              inFlight++;
              w.postMessage({ index, path: incidents[index] });
            };
            w.on('message', (m: { index: number; line: IncidentLine }) => {
              inFlight--;
              record(m.index, m.line);
              send();
              if (inFlight === 0) resolve();
            });
            w.on('error', reject);
            // Each worker holds the next incident while it analyses one, so it never waits for the
            // round trip to this thread (a large share of a worker's time on small thread dumps).
            for (let k = 0; k < IN_FLIGHT_PER_WORKER; k++) send();
            if (inFlight === 0) resolve();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function summaryTable(lines: readonly IncidentLine[]): string {
  const width = Math.min(70, Math.max(8, ...lines.map((l) => l.path.length)));
  const head = `${'incident'.padEnd(width)}  status  critical  error  warning  info`;
  const rows = lines.map((l) => {
    const c = l.counts;
    const name = stripControl(l.path).slice(-width).padEnd(width);
    return (
      `${name}  ${l.status.padEnd(6)}  ${String(c.critical).padStart(8)}  ${String(c.error).padStart(5)}  ` +
      `${String(c.warning).padStart(7)}  ${String(c.info).padStart(4)}${l.error ? `  ${stripControl(l.error).slice(0, 120)}` : ''}`
    );
  });
  const errors = lines.filter((l) => l.status === 'error').length;
  return [head, ...rows, `${lines.length} incident${lines.length === 1 ? '' : 's'}, ${errors} unreadable`, ''].join('\n');
}
