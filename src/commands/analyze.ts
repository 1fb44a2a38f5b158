/** `dumpsleuth analyze <paths...>`: args -> load -> model -> rules -> report -> exit code. */
import { analyseIncident } from '../analysis/analyse.js';
import { type MemoryChoice, type PlanLimits, skippedNote } from '../analysis/load-incident.js';
import { redactReport } from '../report/redact.js';
import { RENDERERS, REPORT_FORMATS } from '../report/renderers.js';
import type { Report } from '../report/report.js';
import { stripControl } from '../report/sanitize.js';
import { decideColour } from './colour.js';
import { commandOutput, type OutputRequest } from './command-output.js';
import { checkFailOn, failsOn } from './fail-on.js';
import type { CommandIo } from './io.js';

/** Notes of skipped files said one by one; the rest are counted in one line. */
const SKIPPED_NOTES_SHOWN = 20;
export interface AnalyzeOptions extends OutputRequest {
  readonly failOn: string;
  readonly config?: string;
  readonly color?: boolean;
  readonly redact?: boolean;
  /** `--dump N`: which heap dump of an HPROF holding several to read (from 1). */
  readonly heapDump?: number;
  /** `--max-gunzip-size`, already parsed. */
  readonly maxGunzipBytes?: number;
  /** `--memory` / `--no-memory`: whether heap dumps get the dominator tree (default: up to a size). */
  readonly memory?: MemoryChoice;
  /** `--max-memory`, already parsed: the memory the memory analysis may take. */
  readonly maxMemoryBytes?: number;
}

export async function analyzeCommand(paths: string[], opts: AnalyzeOptions, io: CommandIo): Promise<number> {
  checkFailOn(opts.failOn);
  const { format, progress, write } = await commandOutput(opts, REPORT_FORMATS, io);
  let failed = 0;
  let skipped = 0;
  // Declared, so a limit the plan does not take is an error here, not a property a spread carries along.
  const limits: PlanLimits = {
    ...(opts.maxGunzipBytes !== undefined ? { maxGunzipBytes: opts.maxGunzipBytes } : {}),
    ...(opts.memory !== undefined ? { memory: opts.memory } : {}),
    ...(opts.maxMemoryBytes !== undefined ? { maxMemoryBytes: opts.maxMemoryBytes } : {}),
    ...(opts.heapDump !== undefined ? { heapDump: opts.heapDump } : {}),
  };
  const result = await analyseIncident(
    { paths, ...(opts.config !== undefined ? { configPath: opts.config } : {}), limits },
    {
      onProgress: (path, e) => progress.update(`reading ${path}`, e),
      onSkipped: (path, e) => {
        // The first notes are said; past them, a folder of thousands of other files is counted.
        if (++skipped > SKIPPED_NOTES_SHOWN) return;
        progress.clear();
        io.stderr.write(`note: ${stripControl(skippedNote(path, e))}\n`);
      },
      onFailed: (_path, e) => {
        progress.clear();
        io.stderr.write(`error: ${stripControl(e.message)}\n  ${e.remedy}\n`);
        failed++;
      },
    },
  );
  progress.clear();
  if (skipped > SKIPPED_NOTES_SHOWN) io.stderr.write(`note: ${skipped - SKIPPED_NOTES_SHOWN} more files were skipped\n`);
  // A log alone is enough when it holds known lines (a server's hung-thread reports, top -H samples).
  if (result.outcome === 'nothing-to-analyse') {
    if (failed === 0) io.stderr.write('error: no thread dump or heap dump found in the given paths\n');
    return 2;
  }
  const { model, findings } = result;
  const configSource = result.config.source;
  const full: Report = { tool: { name: 'dumpsleuth', version: io.version }, model, findings, ...(configSource !== undefined ? { config: configSource } : {}) };
  const report = opts.redact === true ? redactReport(full) : full;
  const chalk = decideColour(opts.color, io.env, io.stdout.isTTY === true, opts.output !== undefined);
  const text = RENDERERS[format].render(report, { chalk });
  await write(text);
  if (failed > 0) return 2;
  return failsOn(
    opts.failOn,
    report.findings.map((f) => f.severity),
  )
    ? 1
    : 0;
}
