/** `dumpsleuth analyze <paths...>`: args -> load -> model -> rules -> report -> exit code. */
import { writeFile } from 'node:fs/promises';
import { InputError, UsageError, UserError } from '../errors.js';
import type { LoadedThreadInput } from '../input/load.js';
import { buildModel } from '../model/build-model.js';
import { SEVERITIES, severityRank, type Severity } from '../model/findings.js';
import { RULES } from '../rules/index.js';
import { loadConfig, loadCounterSpecs } from '../engine/config.js';
import { ANALYSIS_PLAN } from '../heap/analysis-plan.js';
import { loadAnyInput, type LoadedInput } from '../input/load-incident.js';
import { userCounterRoots } from '../model/reconstruct/user-counters.js';
import { runRules } from '../engine/run-rules.js';
import { renderJson } from '../report/json.js';
import { renderText } from '../report/text.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderHtml } from '../report/html.js';
import type { Report } from '../report/report.js';
import { redactReport } from '../report/redact.js';
import { collectInputs } from './collect-inputs.js';
import { decideColour } from './colour.js';
import { progressLine } from './progress.js';
import { stripControl } from '../report/sanitize.js';

export interface AnalyzeOptions {
  readonly format: string;
  readonly output?: string;
  readonly failOn: string;
  readonly config?: string;
  readonly color?: boolean;
  readonly progress: boolean;
  readonly redact?: boolean;
  /** `--max-gunzip-size`, already parsed. */
  readonly maxGunzipBytes?: number;
}

export interface CommandIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
}

const FORMATS = ['text', 'json', 'markdown', 'html'] as const;

export async function analyzeCommand(paths: string[], opts: AnalyzeOptions, io: CommandIo): Promise<number> {
  if (!(FORMATS as readonly string[]).includes(opts.format)) {
    throw new UsageError(`unknown --format ${opts.format}`, `use one of ${FORMATS.join(', ')}`);
  }
  if (opts.failOn !== 'never' && !(SEVERITIES as readonly string[]).includes(opts.failOn)) {
    throw new UsageError(`unknown --fail-on ${opts.failOn}`, `use one of ${SEVERITIES.join(', ')}, never`);
  }
  const config = await loadConfig(RULES, opts.config);
  const counterSpecs = await loadCounterSpecs(opts.config);
  const plan = {
    ...ANALYSIS_PLAN,
    roots: [...ANALYSIS_PLAN.roots, ...userCounterRoots(counterSpecs)],
    ...(opts.maxGunzipBytes !== undefined ? { maxGunzipBytes: opts.maxGunzipBytes } : {}),
  };
  const inputs = await collectInputs(paths);
  const progress = progressLine(opts.progress && io.stderr.isTTY === true && !io.env['CI']);
  const threads: LoadedThreadInput[] = [];
  const heaps: Array<Extract<LoadedInput, { kind: 'heap' }>['heap']> = [];
  const logs: Array<Extract<LoadedInput, { kind: 'log' }>['log']> = [];
  let failed = 0;
  for (const input of inputs) {
    try {
      const loaded = await loadAnyInput(input.path, plan, (e) => progress.update(`reading ${input.path}`, e));
      if (loaded.kind === 'threads') threads.push(loaded.input);
      else if (loaded.kind === 'heap') heaps.push(loaded.heap);
      else logs.push(loaded.log);
    } catch (e) {
      progress.clear();
      if (!(e instanceof UserError)) throw e;
      if (input.fromDirectory && e instanceof InputError) {
        io.stderr.write(`note: skipped ${stripControl(input.path)}: ${stripControl(e.message.replace(`${input.path} `, ''))}\n`);
        continue;
      }
      io.stderr.write(`error: ${stripControl(e.message)}\n  ${e.remedy}\n`);
      failed++;
    }
  }
  progress.clear();
  if (threads.length === 0 && heaps.length === 0) {
    if (failed === 0) io.stderr.write('error: no thread dump or heap dump found in the given paths\n');
    return 2;
  }
  const model = buildModel(threads, { heaps, logs, userCounters: counterSpecs });
  const findings = runRules(model, RULES, config);
  const full: Report = { tool: { name: 'dumpsleuth', version: io.version }, model, findings };
  const report = opts.redact === true ? redactReport(full) : full;
  const chalk = decideColour(opts.color, io.env, io.stdout.isTTY === true, opts.output !== undefined);
  const text =
    opts.format === 'json' ? renderJson(report) : opts.format === 'markdown' ? renderMarkdown(report) : opts.format === 'html' ? renderHtml(report) : renderText(report, chalk);
  if (opts.output !== undefined) await writeFile(opts.output, text);
  else io.stdout.write(text);
  if (failed > 0) return 2;
  if (opts.failOn === 'never') return 0;
  const threshold = severityRank(opts.failOn as Severity);
  return report.findings.some((f) => severityRank(f.severity) >= threshold) ? 1 : 0;
}
