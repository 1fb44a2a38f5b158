/**
 * Every option of the command line, each declared once: its flags, help, default and how its text is
 * read. A command lists the ones it takes (src/cli/commands.ts); one that words an option for itself
 * changes the help only (withHelp), never how the value is read.
 */
import { availableParallelism } from 'node:os';

import { parseShard, type Shard } from '../batch/shard.js';
import type { AnalyzeOptions } from '../commands/analyze.js';
import { UsageError } from '../errors.js';
import type { ReportFormat } from '../report/renderers.js';
import type { CliOption } from './option.js';
import { byteSize, wholeNumber } from './values.js';

const text = (raw: string | undefined) => raw;
const flag = (raw: boolean | undefined) => raw;

/** `-f`: the choices are the formats the command writes; absent, the command takes -o's extension, else text. */
export function formatOption<F extends ReportFormat>(formats: readonly F[]): CliOption<F | undefined> {
  return {
    flags: '-f, --format <format>',
    help: 'output format (default: from the -o extension, else text)',
    choices: formats,
    parse: (raw) => raw as F | undefined,
  };
}

/** `-o`: where the result goes instead of stdout (each command says what its extensions choose). */
export const OUTPUT: CliOption<string | undefined> = { flags: '-o, --output <file>', help: 'write to a file instead of stdout', parse: text };

export const FAIL_ON: CliOption<string, string> = {
  flags: '--fail-on <severity>',
  help: 'exit 1 when a finding is at or above this severity (info|warning|error|critical|never)',
  default: 'error',
  parse: (raw) => raw,
};

export const CONFIG: CliOption<string | undefined> = {
  flags: '-c, --config <file>',
  help: 'JSON config with rule severities, options and counters',
  parse: text,
};

/** `--color` / `--no-color`: undefined unless one was given (then the environment and the terminal decide). */
export const COLOR: CliOption<boolean | undefined, boolean | undefined> = {
  flags: '--color',
  help: 'force colours',
  negation: { flags: '--no-color', help: 'no colours' },
  parse: flag,
};

export const PROGRESS: CliOption<boolean, boolean> = { flags: '--no-progress', help: 'no progress line on stderr', parse: (raw) => raw };

export const REDACT: CliOption<boolean, boolean | undefined> = {
  flags: '--redact',
  help: 'mask IP addresses, host names, user names and query strings (the same value, the same token)',
  parse: (raw) => raw === true,
};

export const MAX_GUNZIP_SIZE: CliOption<number | undefined> = {
  flags: '--max-gunzip-size <size>',
  help: 'stop reading a gzip input past this much decompressed data (default 16g; text that inflates like a decompression bomb stops sooner, heap dumps never)',
  parse: (raw) => (raw !== undefined ? byteSize('--max-gunzip-size', raw) : undefined),
};

/** `--memory` / `--no-memory`: whether heap dumps get the memory analysis; neither leaves it to whether it fits. */
export const MEMORY: CliOption<NonNullable<AnalyzeOptions['memory']>, boolean | undefined> = {
  flags: '--memory',
  help: "compute what holds the memory of every HPROF (dominator tree, leak suspects) even past the machine's free memory (default: when it fits)",
  negation: { flags: '--no-memory', help: 'skip the memory analysis of heap dumps' },
  parse: (raw) => (raw === undefined ? 'auto' : raw ? 'always' : 'never'),
};

export const MAX_MEMORY: CliOption<number | undefined> = {
  flags: '--max-memory <size>',
  help: 'the memory the memory analysis may take (default: what the machine has free); a heap that needs more is not analysed, and says so',
  parse: (raw) => (raw !== undefined ? byteSize('--max-memory', raw) : undefined),
};

/** `--dump N`: which heap dump of an HPROF holding several to read (from 1). */
export const DUMP: CliOption<number | undefined> = {
  flags: '--dump <n>',
  help: 'of an HPROF holding several heap dumps (the old hprof agent), the one to read (default 1)',
  parse: (raw) => (raw !== undefined ? wholeNumber('--dump', raw, 1, 'for example --dump 2') : undefined),
};

/** `--top <n>`: rows to show, from `min`, `fallback` when not given. */
export function topOption(help: string, fallback: number, min: number, example: string): CliOption<number, string> {
  return { flags: '--top <n>', help, default: String(fallback), parse: (raw) => wholeNumber('--top', raw, min, example) };
}

// batch's own.

export const JOBS: CliOption<number, string> = {
  flags: '-j, --jobs <n>',
  name: '-j',
  help: 'incidents analysed at once (worker threads)',
  default: String(availableParallelism()),
  parse: (raw) => wholeNumber('-j', raw, 1, `for example -j ${availableParallelism()}`),
};

export const SHARD: CliOption<Shard | undefined> = {
  flags: '--shard <K/N>',
  help: "analyse only shard K of N (incidents K, K+N, ...); N alone takes K from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX",
  parse: (raw, env) => (raw !== undefined ? parseShard(raw, env) : undefined),
};

export const SUMMARY: CliOption<boolean, boolean | undefined> = {
  flags: '--summary',
  help: "the paths are batch's NDJSON output (shards' files, - for stdin): their lines joined as one run's, its table and its exit code",
  parse: (raw) => raw === true,
};

// memory's own.

export const PATH: CliOption<string | undefined> = {
  flags: '--path <id>',
  help: 'also the shortest path from a GC root to this object, through strong references (weak, soft, phantom referents excluded)',
  parse: text,
};

export const BASELINE: CliOption<readonly string[], readonly string[]> = {
  flags: '--baseline <older>',
  help:
    'an older heap dump of the same JVM or program: what grew since it (per class, and what holds the new objects); ' +
    'repeat, oldest first, for the trend over several',
  repeatable: true,
  default: [],
  parse: (raw) => raw,
};

// capture's own.

export const DUMPS: CliOption<number, string> = {
  flags: '-n, --dumps <n>',
  help: 'thread dumps to take',
  default: '3',
  parse: (raw) => wholeNumber('--dumps', raw, 1, 'for example --dumps 3'),
};

export const INTERVAL: CliOption<number, string> = {
  flags: '-i, --interval <seconds>',
  help: 'seconds between the dumps',
  default: '2',
  parse: (raw) => {
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds < 0) throw new UsageError(`--interval must be a number of seconds, got ${raw}`, 'for example --interval 2');
    return seconds;
  },
};

export const OUT: CliOption<string, string> = { flags: '-o, --out <dir>', help: 'where the incident directory is made', default: '.', parse: (raw) => raw };

export const HEAP: CliOption<'live' | 'all' | undefined> = {
  flags: '--heap [which]',
  help: 'also a heap dump after the thread dumps (it pauses the JVM): live objects (after a full GC) or all',
  choices: ['live', 'all'],
  preset: 'live',
  parse: (raw) => raw as 'live' | 'all' | undefined,
};

export const LOG: CliOption<readonly string[], readonly string[]> = {
  flags: '--log <path>',
  help: 'an application log whose tail (up to 8 MB) goes into the incident; repeat for more',
  repeatable: true,
  default: [],
  parse: (raw) => raw,
};

export const TIMEOUT: CliOption<number, string> = {
  flags: '--timeout <seconds>',
  help: 'seconds a JVM may take to answer one command',
  default: '30',
  parse: (raw) => wholeNumber('--timeout', raw, 1, 'for example --timeout 30'),
};

export const DUBBO_QOS: CliOption<number | undefined, string | boolean | undefined> = {
  flags: '--dubbo-qos [port]',
  help: "also record a Dubbo provider's QoS console on localhost (ls, ps, count per service; port 22222 unless given)",
  parse: (raw) => (raw === undefined ? undefined : raw === true ? 22222 : wholeNumber('--dubbo-qos', String(raw), 1, 'for example --dubbo-qos 22222')),
};

export const ANALYZE: CliOption<boolean, boolean> = {
  flags: '--no-analyze',
  help: 'only capture; analyse later with dumpsleuth analyze <dir>',
  parse: (raw) => raw,
};
