/**
 * The commands of the command line: each its name, help, arguments and the options it takes (from
 * src/cli/options.ts), and what it runs with their values. src/cli/main.ts turns the table into commander's program.
 */
import { analyzeCommand } from '../commands/analyze.js';
import { batchCommand, batchSummaryCommand } from '../commands/batch.js';
import { extractCommand } from '../commands/extract.js';
import { histogramCommand } from '../commands/histogram.js';
import type { CommandIo } from '../commands/io.js';
import { MEMORY_FORMATS, memoryCommand } from '../commands/memory.js';
import { writeToStdout } from '../commands/output.js';
import { rulesCommand } from '../commands/rules.js';
import { UsageError } from '../errors.js';
import { REPORT_FORMATS, usualExtensionsText } from '../report/renderers.js';
import { flagName, type OptionList, type OptionValues, withHelp } from './option.js';
import {
  ANALYZE,
  BASELINE,
  COLOR,
  CONFIG,
  DUBBO_QOS,
  DUMP,
  DUMPS,
  FAIL_ON,
  formatOption,
  HEAP,
  INTERVAL,
  JOBS,
  LOG,
  MAX_GUNZIP_SIZE,
  MAX_MEMORY,
  MEMORY,
  OUT,
  OUTPUT,
  PATH,
  PROGRESS,
  REDACT,
  SHARD,
  SUMMARY,
  TIMEOUT,
  topOption,
} from './options.js';

export interface CliCommand<L extends OptionList> {
  readonly name: string;
  readonly alias?: string;
  readonly description: string;
  /** The positional argument (`<paths...>` takes many), with its help line. */
  readonly argument?: { readonly name: string; readonly help: string };
  readonly options: L;
  /** Refuses, before any value is read, options that do not go together (`given`: the names of those on the command line). */
  readonly refuse?: (given: ReadonlySet<string>) => void;
  /** Runs the command: its argument's values (one, or the many of `<paths...>`) and its options' values, to an exit code. */
  readonly run: (args: string[], options: OptionValues<L>, io: CommandIo) => Promise<number>;
}

/** A command of the table, its options' values typed from its list. */
function command<L extends OptionList>(definition: CliCommand<L>): CliCommand<L> {
  return definition;
}

/** batch's options that say how to analyse, which `batch --summary` (it analyses nothing) refuses. */
const BATCH_ANALYSIS = { jobs: JOBS, config: CONFIG, maxGunzipBytes: MAX_GUNZIP_SIZE, shard: SHARD } as const;

const HEAP_OUTPUT = withHelp(OUTPUT, 'write to a file instead of stdout (.json chooses json)');

export const COMMANDS = [
  command({
    name: 'analyze',
    // The help speaks British English ("analyse"): the word it uses is a command too.
    alias: 'analyse',
    description: 'analyse one incident: the thread dumps, heap dumps and logs of one JVM (files, one directory, or - for stdin)',
    argument: { name: '<paths...>', help: 'dump files, or one directory' },
    options: {
      format: formatOption(REPORT_FORMATS),
      output: withHelp(OUTPUT, `write the report to a file instead of stdout (${usualExtensionsText()} choose the format)`),
      failOn: FAIL_ON,
      config: withHelp(CONFIG, 'JSON config with rule severities and options (default: ./dumpsleuth.config.json)'),
      color: COLOR,
      progress: PROGRESS,
      redact: REDACT,
      maxGunzipBytes: MAX_GUNZIP_SIZE,
      memory: MEMORY,
      maxMemoryBytes: MAX_MEMORY,
      heapDump: DUMP,
    },
    run: (paths, o, io) => analyzeCommand(paths, o, io),
  }),
  command({
    name: 'batch',
    description: 'analyse many incidents (directories of dumps, or dump files; globs allowed) in parallel: one NDJSON line each',
    argument: { name: '<paths...>', help: 'incident directories, dump files, folders of incidents, or globs such as "incidents/*"' },
    options: {
      jobs: JOBS,
      failOn: withHelp(FAIL_ON, 'exit 1 when any incident has a finding at or above this severity (info|warning|error|critical|never)'),
      config: CONFIG,
      progress: PROGRESS,
      redact: withHelp(REDACT, 'mask IP addresses, host names, user names and query strings in every line (the same value, the same token)'),
      maxGunzipBytes: MAX_GUNZIP_SIZE,
      shard: SHARD,
      summary: SUMMARY,
    },
    refuse: (given) => {
      if (!given.has('summary')) return;
      const analysing = Object.entries(BATCH_ANALYSIS).filter(([name]) => given.has(name));
      if (analysing.length > 0)
        throw new UsageError(
          `--summary reads lines batch wrote and analyses nothing: ${analysing.map(([, o]) => flagName(o)).join(', ')} ` +
            `${analysing.length === 1 ? 'does' : 'do'} not apply`,
          'give those options to the batch runs (the shards), and --summary only --fail-on and --redact',
        );
    },
    run: (paths, { summary, ...o }, io) => (summary ? batchSummaryCommand(paths, { failOn: o.failOn, redact: o.redact }, io) : batchCommand(paths, o, io)),
  }),
  command({
    name: 'ui',
    description: 'explore an incident in the terminal (needs a TTY; for scripts use analyze)',
    argument: { name: '<paths...>', help: 'dump files, or one directory' },
    options: {
      config: CONFIG,
      color: COLOR,
      memory: withHelp(MEMORY, "compute what holds the memory of every HPROF (the Memory screen) even past the machine's free memory (default: when it fits)"),
      maxMemoryBytes: MAX_MEMORY,
      maxGunzipBytes: MAX_GUNZIP_SIZE,
    },
    run: async (paths, o, io) => {
      // Ink loads only here: it costs about a second.
      const { runUi } = await import('../ui/run.js');
      return runUi(paths, o, io.env);
    },
  }),
  command({
    name: 'histogram',
    description: 'instances and shallow bytes per class of a heap dump, like jmap -histo (HPROF, dumpsleuth heap snapshot, V8 .heapsnapshot)',
    argument: { name: '<heap>', help: 'heap dump file (plain or gzip)' },
    options: {
      format: formatOption(['text', 'json']),
      output: HEAP_OUTPUT,
      top: topOption('classes to list in text (0 for all)', 40, 0, 'for example --top 50, or --top 0 for every class'),
      heapDump: DUMP,
      maxGunzipBytes: MAX_GUNZIP_SIZE,
      progress: PROGRESS,
    },
    run: ([heap], o, io) => histogramCommand(heap!, o, io),
  }),
  command({
    name: 'memory',
    description: 'what holds the memory of a heap dump (HPROF or V8 .heapsnapshot): dominator tree, retained sizes, leak suspects, classes by retained size',
    argument: {
      name: '<heap...>',
      help: 'HPROF heap dump or V8 .heapsnapshot (plain or gzip), or - for stdin; after --baseline, the newer dumps, oldest first',
    },
    options: {
      format: formatOption(MEMORY_FORMATS),
      output: withHelp(OUTPUT, 'write to a file instead of stdout (.json, .md or .html choose the format)'),
      top: topOption('top-level dominators to show', 10, 1, 'for example --top 20'),
      path: PATH,
      baseline: BASELINE,
      heapDump: DUMP,
      maxMemoryBytes: withHelp(
        MAX_MEMORY,
        'the memory the analysis may take (default: what the machine has free): a heap that needs more is refused at once, saying what to do',
      ),
      maxGunzipBytes: MAX_GUNZIP_SIZE,
      progress: PROGRESS,
    },
    run: (heaps, o, io) => memoryCommand(heaps, o, io),
  }),
  command({
    name: 'capture',
    description:
      'take an incident from a live JVM (thread dumps with per-thread CPU, its identity, optionally a heap dump and log tails) into a directory, then ' +
      'analyse it',
    argument: { name: '<jvm>', help: 'the pid of a JVM, or a piece of its main class or jar (as jcmd -l lists it)' },
    options: {
      dumps: DUMPS,
      intervalSeconds: INTERVAL,
      out: OUT,
      heap: HEAP,
      logs: LOG,
      timeoutSeconds: TIMEOUT,
      failOn: withHelp(FAIL_ON, 'exit 1 when the analysis finds this or worse', '--fail-on <severity|never>'),
      dubboQosPort: DUBBO_QOS,
      analyze: ANALYZE,
    },
    run: async ([target], o, io) => {
      // Loaded when it runs: no other command needs the capture's modules.
      const { captureCommand } = await import('../commands/capture.js');
      return captureCommand(target!, o, io);
    },
  }),
  command({
    name: 'extract',
    description: 'write the objects the analyses need from a heap dump as a small JSON heap snapshot (for a ticket)',
    argument: { name: '<heap>', help: 'HPROF heap dump (plain or gzip)' },
    options: {
      // Required: commander refuses the command without it, so it is always there when read.
      output: { ...withHelp(OUTPUT, 'the snapshot to write; gzip when it ends in .gz'), required: true, parse: (raw: string | undefined) => raw! },
      heapDump: DUMP,
      maxGunzipBytes: MAX_GUNZIP_SIZE,
      progress: PROGRESS,
    },
    run: ([heap], o, io) => extractCommand(heap!, o, io),
  }),
  command({
    name: 'rules',
    description: 'list the rules, their ids, default severities and options',
    options: { format: { ...withHelp(formatOption(['text', 'json']), 'output format'), default: 'text' } },
    run: async (_args, o, io) => {
      await writeToStdout(io.stdout, rulesCommand(o.format ?? 'text'));
      return 0;
    },
  }),
];
