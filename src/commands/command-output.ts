/**
 * The steps every command that writes a result takes, in one place: the format (-f, else what -o's
 * extension implies through the renderer registry, else text), the output path checked before any input
 * is read, the progress line, the result written whole to -o or stdout, and the input's warnings said on stderr.
 */
import { UsageError } from '../errors.js';
import type { ReportFormat } from '../report/renderers.js';
import { stripControl } from '../report/sanitize.js';
import type { CommandIo } from './io.js';
import { checkOutputPath, chooseFormat, writeReportFile, writeToStdout } from './output.js';
import { type ProgressLine, progressLine } from './progress.js';

/** What the command line says about a command's output (-f, -o, --no-progress). */
export interface OutputRequest {
  /** `-f`; when absent, what `-o`'s extension implies, else text. */
  readonly format?: string;
  readonly output?: string;
  readonly progress: boolean;
}

export interface CommandOutput<F extends ReportFormat> {
  readonly format: F | 'text';
  readonly progress: ProgressLine;
  /** Writes the whole result to -o's file (whole or not at all), else to stdout. */
  write(text: string): Promise<void>;
}

/**
 * Decides the format and checks the output path (a result that cannot be written is known before
 * minutes of reading), says on stderr when -f and -o's extension disagree, and starts the progress line.
 */
export async function commandOutput<F extends ReportFormat>(request: OutputRequest, formats: readonly F[], io: CommandIo): Promise<CommandOutput<F>> {
  const flag = request.format;
  if (flag !== undefined && !isOneOf(flag, formats)) throw new UsageError(`unknown --format ${flag}`, `use one of ${formats.join(', ')}`);
  const { output } = request;
  if (output !== undefined) await checkOutputPath(output);
  const { format, note } = chooseFormat(flag, output, formats);
  if (note !== undefined) io.stderr.write(`note: ${note}\n`);
  return {
    format,
    progress: commandProgress(request.progress, io),
    write: (text) => (output !== undefined ? writeReportFile(output, text) : writeToStdout(io.stdout, text)),
  };
}

/** The progress line: drawn only for a person watching a terminal (not with --no-progress, not in CI). */
export function commandProgress(wanted: boolean, io: CommandIo): ProgressLine {
  return progressLine(wanted && io.stderr.isTTY === true && !io.env['CI'], io.stderr);
}

/** The input's warnings, one line each on stderr, after the result. */
export function sayWarnings(warnings: readonly string[], io: CommandIo): void {
  for (const w of warnings) io.stderr.write(`warning: ${stripControl(w)}\n`);
}

function isOneOf<F extends string>(name: string, formats: readonly F[]): name is F {
  return (formats as readonly string[]).includes(name);
}
