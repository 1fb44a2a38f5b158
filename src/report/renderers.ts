/**
 * The output formats of a report, one entry each: its renderer, the file extensions that choose it
 * for `-o`, and what it is in one line. The CLI's `--format` choices, the extension map of `-o` and
 * the tests iterate this registry, so adding a format is its renderer plus one entry here: a name in
 * `ReportFormat` without an entry, or an entry without the name, does not compile.
 */
import type { ChalkInstance } from 'chalk';

import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './report.js';
import { renderText } from './text.js';

export type ReportFormat = 'text' | 'json' | 'markdown' | 'html';

/** What a renderer is handed besides the report: decided by the caller, never by the renderer. */
interface RenderContext {
  /** Colours for formats that use them (text); the caller decides (NO_COLOR, FORCE_COLOR, --no-color, a file). */
  readonly chalk: ChalkInstance;
}

export interface Renderer {
  /** Draws the report as this format's whole text. */
  readonly render: (report: Report, context: RenderContext) => string;
  /** Lower-case extensions, with their dot, that choose this format for `-o` (the first is its usual one). */
  readonly extensions: readonly string[];
  /** What the format is, in one line. */
  readonly description: string;
}

/** Every output format; its order is the order the CLI lists them in, text (the default) first. */
export const RENDERERS: Readonly<Record<ReportFormat, Renderer>> = {
  text: {
    render: (report, { chalk }) => renderText(report, chalk),
    extensions: ['.txt', '.text', '.log'],
    description: 'text (default, coloured on a terminal)',
  },
  json: {
    render: (report) => renderJson(report),
    extensions: ['.json', '.ndjson'],
    description: 'the dumpsleuth.report/1 JSON',
  },
  markdown: {
    render: (report) => renderMarkdown(report),
    extensions: ['.md', '.markdown'],
    description: 'Markdown for a ticket (under 65,536 characters)',
  },
  html: {
    render: (report) => renderHtml(report),
    extensions: ['.html', '.htm'],
    description: 'one self-contained HTML file',
  },
};

/** The registry's formats, in its order. (Object.keys loses the key type; the keys are exactly ReportFormat's.) */
export const REPORT_FORMATS = Object.keys(RENDERERS) as readonly ReportFormat[];

/** Each format's usual extension in the registry's order, as the help names them: ".txt, .json, .md or .html". */
export function usualExtensionsText(): string {
  const usual = REPORT_FORMATS.map((f) => RENDERERS[f].extensions[0]!);
  return usual.length === 1 ? usual[0]! : `${usual.slice(0, -1).join(', ')} or ${usual.at(-1)!}`;
}

export function isReportFormat(name: string): name is ReportFormat {
  return Object.hasOwn(RENDERERS, name);
}
