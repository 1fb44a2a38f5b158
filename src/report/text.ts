/**
 * `--format text`: findings first (what to act on), then what was read. Colours come from the
 * chalk instance handed in, so the caller decides (NO_COLOR, FORCE_COLOR, --no-color).
 */
import type { ChalkInstance } from 'chalk';
import type { Finding, Severity } from '../model/findings.js';
import type { Report } from './report.js';
import { stripControl } from './sanitize.js';

const MAX_EVIDENCE = 8;

export function renderText(report: Report, chalk: ChalkInstance): string {
  const out: string[] = [];
  const m = report.model;
  const sev = (s: Severity): string => {
    const label = s.toUpperCase().padEnd(8);
    switch (s) {
      case 'critical':
        return chalk.bgRed.white.bold(label);
      case 'error':
        return chalk.red.bold(label);
      case 'warning':
        return chalk.yellow.bold(label);
      default:
        return chalk.cyan(label);
    }
  };
  out.push(chalk.bold(`dumpsleuth ${report.tool.version}`));
  for (const i of m.inputs) {
    const extra = [i.gzip ? 'gzip' : '', i.encoding !== 'utf-8' ? i.encoding : ''].filter(Boolean).join(', ');
    out.push(
      `  ${stripControl(i.path)}: ${i.format}${extra ? ` (${extra})` : ''}, ${i.dumps} dump${i.dumps === 1 ? '' : 's'}, ${i.threads} threads` +
        (i.unparsedLines > 0 ? chalk.dim(`, ${i.unparsedLines} unparsed lines`) : '') +
        (i.outsideLines > 0 ? chalk.dim(`, ${i.outsideLines} lines outside dumps`) : ''),
    );
    for (const w of i.warnings) out.push(chalk.yellow(`    warning: ${stripControl(w)}`));
  }
  out.push('');
  if (report.findings.length === 0) {
    out.push(chalk.green('No findings.'));
  }
  for (const f of report.findings) out.push(...renderFinding(f, sev, chalk), '');

  out.push(chalk.bold('Dumps'));
  m.dumps.forEach((d, i) => {
    const s = m.stateSummaries[i]!;
    const states = Object.entries(s)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    out.push(`  #${i} ${stripControl(d.timestampIso ?? d.timestamp ?? '(no timestamp)')}  ${d.threads.length} threads: ${states}${chalk.dim(`  [${stripControl(d.source)}:${d.startLine}]`)}`);
  });
  const busiest = m.executors.filter((e) => e.namedLikePool).slice(0, 10);
  if (busiest.length > 0) {
    out.push('', chalk.bold('Thread pools (by name)'));
    for (const e of busiest) out.push(`  #${e.dump} ${stripControl(e.name)}: ${e.workers} workers, ${e.busy} busy, ${e.idle} idle`);
  }
  out.push('', summaryLine(report.findings, chalk));
  return out.join('\n') + '\n';
}

function renderFinding(f: Finding, sev: (s: Severity) => string, chalk: ChalkInstance): string[] {
  const lines = [`${sev(f.severity)} ${chalk.bold(f.rule)}  ${stripControl(f.subject)}`, `  ${stripControl(f.message)}`];
  for (const e of f.evidence.slice(0, MAX_EVIDENCE)) {
    const where = e.kind === 'lock' ? `lock <${e.lock}> ${e.className}` : `${stripControl(e.source)}:${e.line}`;
    const who = e.kind === 'thread' ? `"${stripControl(e.thread)}" ` : e.kind === 'jvm-report' ? 'JVM deadlock report ' : '';
    lines.push(chalk.dim(`    - ${who}${where}${e.note ? ` (${stripControl(e.note)})` : ''}`));
  }
  if (f.evidence.length > MAX_EVIDENCE) lines.push(chalk.dim(`    ... ${f.evidence.length - MAX_EVIDENCE} more`));
  if (f.causedBy.length > 0) lines.push(`  caused by: ${f.causedBy.map(stripControl).join(', ')}`);
  lines.push(`  ${chalk.green('fix:')} ${f.remedy}`);
  return lines;
}

function summaryLine(findings: readonly Finding[], chalk: ChalkInstance): string {
  const count = (s: Severity): number => findings.filter((f) => f.severity === s).length;
  const parts = (['critical', 'error', 'warning', 'info'] as const).filter((s) => count(s) > 0).map((s) => `${count(s)} ${s}`);
  return findings.length === 0 ? chalk.green('0 findings') : chalk.bold(`${findings.length} finding${findings.length === 1 ? '' : 's'} (${parts.join(', ')})`);
}
