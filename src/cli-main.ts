/**
 * The CLI as a function: arguments in, an exit code out, everything written through `io` (commander's
 * help and errors too). No process.exit and no state kept between runs (each run builds its own
 * program), so tests run it in-process, many times, and src/cli.ts wires it to the process.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

import { Command, CommanderError, Option } from 'commander';

import { parseShard } from './batch/shard.js';
import { analyzeCommand } from './commands/analyze.js';
import { batchCommand, batchSummaryCommand } from './commands/batch.js';
import { extractCommand } from './commands/extract.js';
import { histogramCommand } from './commands/histogram.js';
import type { CommandIo } from './commands/io.js';
import { memoryCommand } from './commands/memory.js';
import { writeToStdout } from './commands/output.js';
import { rulesCommand } from './commands/rules.js';
import { UsageError, UserError } from './errors.js';
import { parseByteSize } from './model/bytes.js';
import { REPORT_FORMATS, usualExtensionsText } from './report/renderers.js';
import { stripControl } from './report/sanitize.js';

export type { CommandIo } from './commands/io.js';

/** The package's version, as `--version` prints it. */
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** batch's options that say how to analyse, which `batch --summary` (it analyses nothing) refuses: by commander's key. */
const ANALYSIS_FLAGS: Readonly<Record<string, string>> = {
  jobs: '-j',
  config: '--config',
  maxGunzipSize: '--max-gunzip-size',
  shard: '--shard',
};

/** Runs the CLI on `args` (the arguments after the program's name) and resolves to its exit code. */
export async function runCli(args: readonly string[], io: CommandIo): Promise<number> {
  const program = new Command('dumpsleuth')
    .description('Diagnose sick Java services from their thread dumps and heap dumps.')
    .version(io.version)
    .exitOverride()
    // Help and --version go to io.stdout, commander's errors to io.stderr: nothing reaches the process's own streams.
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  let exitCode = 0;
  const byteSizeOption = (text: string, flag = '--max-gunzip-size'): number => {
    const bytes = parseByteSize(text);
    if (bytes === undefined) throw new UsageError(`${flag} ${stripControl(text)} is not a size`, 'give a size such as 512m, 16g or 1t');
    return bytes;
  };
  const maxMemory = (text: string | undefined) => (text !== undefined ? { maxMemoryBytes: byteSizeOption(text, '--max-memory') } : {});
  const gunzipLimit = (text: string | undefined) => (text !== undefined ? { maxGunzipBytes: byteSizeOption(text) } : {});
  const MAX_GUNZIP_HELP =
    'stop reading a gzip input past this much decompressed data (default 16g; text that inflates like a decompression bomb stops sooner, heap dumps never)';
  const MAX_MEMORY_HELP = 'the memory the memory analysis may take (default: what the machine has free); a heap that needs more is not analysed, and says so';
  const wholeNumber = (flag: string, text: string, min: number, example: string): number => {
    const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n) || n < min)
      throw new UsageError(`${flag} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${stripControl(text)}"`, example);
    return n;
  };
  program
    .command('analyze')
    // The help speaks British English ("analyse"): the word it uses is a command too.
    .alias('analyse')
    .description('analyse one incident: the thread dumps, heap dumps and logs of one JVM (files, one directory, or - for stdin)')
    .argument('<paths...>', 'dump files, or one directory')
    .addOption(new Option('-f, --format <format>', 'output format (default: from the -o extension, else text)').choices(REPORT_FORMATS))
    .option('-o, --output <file>', `write the report to a file instead of stdout (${usualExtensionsText()} choose the format)`)
    .option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity (info|warning|error|critical|never)', 'error')
    .option('-c, --config <file>', 'JSON config with rule severities and options (default: ./dumpsleuth.config.json)')
    .option('--color', 'force colours')
    .option('--no-color', 'no colours')
    .option('--no-progress', 'no progress line on stderr')
    .option('--redact', 'mask IP addresses, host names, user names and query strings (the same value, the same token)')
    .option('--max-gunzip-size <size>', MAX_GUNZIP_HELP)
    .option(
      '--memory',
      "compute what holds the memory of every HPROF (dominator tree, leak suspects) even past the machine's free memory (default: when it fits)",
    )
    .option('--no-memory', 'skip the memory analysis of heap dumps')
    .option('--max-memory <size>', MAX_MEMORY_HELP)
    .option('--dump <n>', 'of an HPROF holding several heap dumps (the old hprof agent), the one to read (default 1)')
    .action(
      async (
        paths: string[],
        o: {
          dump?: string;
          format?: string;
          output?: string;
          failOn: string;
          config?: string;
          color?: boolean;
          progress: boolean;
          redact?: boolean;
          maxGunzipSize?: string;
          maxMemory?: string;
          memory?: boolean;
        },
      ) => {
        exitCode = await analyzeCommand(
          paths,
          {
            ...(o.format !== undefined ? { format: o.format } : {}),
            memory: o.memory === undefined ? 'auto' : o.memory ? 'always' : 'never',
            ...maxMemory(o.maxMemory),
            ...(o.dump !== undefined ? { heapDump: wholeNumber('--dump', o.dump, 1, 'for example --dump 2') } : {}),
            failOn: o.failOn,
            progress: o.progress,
            redact: o.redact === true,
            ...(o.maxGunzipSize !== undefined ? { maxGunzipBytes: byteSizeOption(o.maxGunzipSize) } : {}),
            ...(o.output !== undefined ? { output: o.output } : {}),
            ...(o.config !== undefined ? { config: o.config } : {}),
            // commander leaves `color` undefined unless --color or --no-color was given.
            ...(o.color !== undefined ? { color: o.color } : {}),
          },
          io,
        );
      },
    );
  program
    .command('batch')
    .description('analyse many incidents (directories of dumps, or dump files; globs allowed) in parallel: one NDJSON line each')
    .argument('<paths...>', 'incident directories, dump files, folders of incidents, or globs such as "incidents/*"')
    .option('-j, --jobs <n>', 'incidents analysed at once (worker threads)', String(availableParallelism()))
    .option('--fail-on <severity>', 'exit 1 when any incident has a finding at or above this severity (info|warning|error|critical|never)', 'error')
    .option('-c, --config <file>', 'JSON config with rule severities, options and counters')
    .option('--no-progress', 'no progress line on stderr')
    .option('--redact', 'mask IP addresses, host names, user names and query strings in every line (the same value, the same token)')
    .option('--max-gunzip-size <size>', MAX_GUNZIP_HELP)
    .option('--shard <K/N>', "analyse only shard K of N (incidents K, K+N, ...); N alone takes K from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX")
    .option('--summary', "the paths are batch's NDJSON output (shards' files, - for stdin): their lines joined as one run's, its table and its exit code")
    .action(
      async (
        paths: string[],
        o: { jobs: string; failOn: string; config?: string; progress: boolean; redact?: boolean; maxGunzipSize?: string; shard?: string; summary?: boolean },
        command: Command,
      ) => {
        if (o.summary === true) {
          const analysing = Object.entries(ANALYSIS_FLAGS).filter(([key]) => command.getOptionValueSource(key) === 'cli');
          if (analysing.length > 0)
            throw new UsageError(
              `--summary reads lines batch wrote and analyses nothing: ${analysing.map(([, flag]) => flag).join(', ')} ` +
                `${analysing.length === 1 ? 'does' : 'do'} not apply`,
              'give those options to the batch runs (the shards), and --summary only --fail-on and --redact',
            );
          exitCode = await batchSummaryCommand(paths, { failOn: o.failOn, redact: o.redact === true }, io);
          return;
        }
        exitCode = await batchCommand(
          paths,
          {
            jobs: wholeNumber('-j', o.jobs, 1, `for example -j ${availableParallelism()}`),
            failOn: o.failOn,
            progress: o.progress,
            redact: o.redact === true,
            ...(o.maxGunzipSize !== undefined ? { maxGunzipBytes: byteSizeOption(o.maxGunzipSize) } : {}),
            ...(o.config !== undefined ? { config: o.config } : {}),
            ...(o.shard !== undefined ? { shard: parseShard(o.shard, io.env) } : {}),
          },
          io,
        );
      },
    );
  program
    .command('ui')
    .description('explore an incident in the terminal (needs a TTY; for scripts use analyze)')
    .argument('<paths...>', 'dump files, or one directory')
    .option('-c, --config <file>', 'JSON config with rule severities, options and counters')
    .option('--color', 'force colours')
    .option('--no-color', 'no colours')
    .option('--memory', "compute what holds the memory of every HPROF (the Memory screen) even past the machine's free memory (default: when it fits)")
    .option('--no-memory', 'skip the memory analysis of heap dumps')
    .option('--max-memory <size>', MAX_MEMORY_HELP)
    .option('--max-gunzip-size <size>', MAX_GUNZIP_HELP)
    .action(async (paths: string[], o: { config?: string; color?: boolean; memory?: boolean; maxMemory?: string; maxGunzipSize?: string }) => {
      // Ink loads only here: it costs about a second.
      const { runUi } = await import('./ui/run.js');
      const memory = o.memory === undefined ? 'auto' : o.memory ? 'always' : 'never';
      exitCode = await runUi(
        paths,
        {
          ...(o.config !== undefined ? { config: o.config } : {}),
          ...(o.color !== undefined ? { color: o.color } : {}),
          memory,
          ...maxMemory(o.maxMemory),
          ...gunzipLimit(o.maxGunzipSize),
        },
        io.env,
      );
    });
  program
    .command('histogram')
    .description('instances and shallow bytes per class of a heap dump, like jmap -histo (HPROF, dumpsleuth heap snapshot, V8 .heapsnapshot)')
    .argument('<heap>', 'heap dump file (plain or gzip)')
    .addOption(new Option('-f, --format <format>', 'output format (default: from the -o extension, else text)').choices(['text', 'json']))
    .option('-o, --output <file>', 'write to a file instead of stdout (.json chooses json)')
    .option('--top <n>', 'classes to list in text (0 for all)', '40')
    .option('--dump <n>', 'of an HPROF holding several heap dumps (the old hprof agent), the one to read (default 1)')
    .option('--max-gunzip-size <size>', MAX_GUNZIP_HELP)
    .option('--no-progress', 'no progress line on stderr')
    .action(async (heap: string, o: { format?: string; output?: string; top: string; progress: boolean; dump?: string; maxGunzipSize?: string }) => {
      exitCode = await histogramCommand(
        heap,
        {
          ...gunzipLimit(o.maxGunzipSize),
          ...(o.format !== undefined ? { format: o.format } : {}),
          ...(o.dump !== undefined ? { heapDump: wholeNumber('--dump', o.dump, 1, 'for example --dump 2') } : {}),
          top: wholeNumber('--top', o.top, 0, 'for example --top 50, or --top 0 for every class'),
          progress: o.progress,
          ...(o.output !== undefined ? { output: o.output } : {}),
        },
        io,
      );
    });
  program
    .command('memory')
    .description('what holds the memory of a heap dump (HPROF or V8 .heapsnapshot): dominator tree, retained sizes, leak suspects, classes by retained size')
    .argument('<heap>', 'HPROF heap dump or V8 .heapsnapshot (plain or gzip), or - for stdin')
    .addOption(new Option('-f, --format <format>', 'output format (default: from the -o extension, else text)').choices(['text', 'json']))
    .option('-o, --output <file>', 'write to a file instead of stdout (.json chooses json)')
    .option('--top <n>', 'top-level dominators to show', '10')
    .option('--path <id>', 'also the shortest path from a GC root to this object, through strong references (weak, soft, phantom referents excluded)')
    .option('--dump <n>', 'of an HPROF holding several heap dumps (the old hprof agent), the one to read (default 1)')
    .option(
      '--max-memory <size>',
      'the memory the analysis may take (default: what the machine has free): a heap that needs more is refused at once, saying what to do',
    )
    .option('--max-gunzip-size <size>', MAX_GUNZIP_HELP)
    .option('--no-progress', 'no progress line on stderr')
    .action(
      async (
        heap: string,
        o: { format?: string; output?: string; top: string; progress: boolean; path?: string; dump?: string; maxMemory?: string; maxGunzipSize?: string },
      ) => {
        exitCode = await memoryCommand(
          heap,
          {
            ...gunzipLimit(o.maxGunzipSize),
            ...maxMemory(o.maxMemory),
            ...(o.format !== undefined ? { format: o.format } : {}),
            ...(o.dump !== undefined ? { heapDump: wholeNumber('--dump', o.dump, 1, 'for example --dump 2') } : {}),
            ...(o.path !== undefined ? { path: o.path } : {}),
            top: wholeNumber('--top', o.top, 1, 'for example --top 20'),
            progress: o.progress,
            ...(o.output !== undefined ? { output: o.output } : {}),
          },
          io,
        );
      },
    );
  program
    .command('capture')
    .description(
      'take an incident from a live JVM (thread dumps with per-thread CPU, its identity, optionally a heap dump and log tails) into a directory, then ' +
        'analyse it',
    )
    .argument('<jvm>', 'the pid of a JVM, or a piece of its main class or jar (as jcmd -l lists it)')
    .option('-n, --dumps <n>', 'thread dumps to take', '3')
    .option('-i, --interval <seconds>', 'seconds between the dumps', '2')
    .option('-o, --out <dir>', 'where the incident directory is made', '.')
    .addOption(
      new Option('--heap [which]', 'also a heap dump after the thread dumps (it pauses the JVM): live objects (after a full GC) or all')
        .choices(['live', 'all'])
        .preset('live'),
    )
    .option(
      '--log <path>',
      'an application log whose tail (up to 8 MB) goes into the incident; repeat for more',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--timeout <seconds>', 'seconds a JVM may take to answer one command', '30')
    .option('--fail-on <severity|never>', 'exit 1 when the analysis finds this or worse', 'error')
    .option('--dubbo-qos [port]', "also record a Dubbo provider's QoS console on localhost (ls, ps, count per service; port 22222 unless given)")
    .option('--no-analyze', 'only capture; analyse later with dumpsleuth analyze <dir>')
    .action(
      async (
        target: string,
        o: {
          dumps: string;
          interval: string;
          out: string;
          heap?: 'live' | 'all';
          log?: string[];
          timeout: string;
          failOn: string;
          analyze: boolean;
          dubboQos?: string | boolean;
        },
      ) => {
        const interval = Number(o.interval);
        if (!Number.isFinite(interval) || interval < 0)
          throw new UsageError(`--interval must be a number of seconds, got ${o.interval}`, 'for example --interval 2');
        const { captureCommand } = await import('./commands/capture.js');
        exitCode = await captureCommand(
          target,
          {
            dumps: wholeNumber('--dumps', o.dumps, 1, 'for example --dumps 3'),
            intervalSeconds: interval,
            out: o.out,
            ...(o.heap !== undefined ? { heap: o.heap } : {}),
            logs: o.log ?? [],
            analyze: o.analyze,
            timeoutSeconds: wholeNumber('--timeout', o.timeout, 1, 'for example --timeout 30'),
            failOn: o.failOn,
            ...(o.dubboQos !== undefined
              ? { dubboQosPort: o.dubboQos === true ? 22222 : wholeNumber('--dubbo-qos', String(o.dubboQos), 1, 'for example --dubbo-qos 22222') }
              : {}),
          },
          io,
        );
      },
    );
  program
    .command('extract')
    .description('write the objects the analyses need from a heap dump as a small JSON heap snapshot (for a ticket)')
    .argument('<heap>', 'HPROF heap dump (plain or gzip)')
    .requiredOption('-o, --output <file>', 'the snapshot to write; gzip when it ends in .gz')
    .option('--dump <n>', 'of an HPROF holding several heap dumps (the old hprof agent), the one to read (default 1)')
    .option('--max-gunzip-size <size>', MAX_GUNZIP_HELP)
    .option('--no-progress', 'no progress line on stderr')
    .action(async (heap: string, o: { output: string; progress: boolean; dump?: string; maxGunzipSize?: string }) => {
      const heapDump = o.dump !== undefined ? wholeNumber('--dump', o.dump, 1, 'for example --dump 2') : undefined;
      exitCode = await extractCommand(
        heap,
        { output: o.output, progress: o.progress, ...(heapDump !== undefined ? { heapDump } : {}), ...gunzipLimit(o.maxGunzipSize) },
        io,
      );
    });
  program
    .command('rules')
    .description('list the rules, their ids, default severities and options')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o: { format: string }) => {
      await writeToStdout(io.stdout, rulesCommand(o.format));
    });
  showDefaultsPlain(program);
  // No command at all is a usage error: the help goes to stderr, and a script sees exit 2.
  if (args.length === 0) {
    io.stderr.write(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync([...args], { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    if (e instanceof UserError) {
      io.stderr.write(`error: ${e.message}\n  ${e.remedy}\n`);
      return 2;
    }
    // One line for the person on call; the stack for the bug report when asked for.
    const detail = io.env['DUMPSLEUTH_DEBUG'] ? `\n${(e as Error).stack ?? ''}` : '\n  (set DUMPSLEUTH_DEBUG=1 for the stack trace to attach to a bug report)';
    io.stderr.write(`internal error (a bug in dumpsleuth, please report it): ${stripControl(String((e as Error)?.message ?? e)).slice(0, 300)}${detail}\n`);
    return 70;
  }
}

/**
 * Options' defaults as a user types them (`(default: 2)`, not commander's `(default: "2")`, which quotes
 * every string): set once for every option of every command, not option by option.
 */
function showDefaultsPlain(program: Command): void {
  for (const command of [program, ...program.commands])
    for (const option of command.options)
      if (typeof option.defaultValue === 'string' && option.defaultValueDescription === undefined) option.defaultValueDescription = option.defaultValue;
}
