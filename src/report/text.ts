/**
 * `--format text`: the summary (each root cause, what it causes, what to do first), the findings
 * that prove it, then what was read. Colours come from the
 * chalk instance handed in, so the caller decides (NO_COLOR, FORCE_COLOR, --no-color).
 */
import type { ChalkInstance } from 'chalk';

import { countOf } from '../model/count-text.js';
import type { Evidence, Finding, Severity } from '../model/findings.js';
import { type CausalSummary, causalSummary, walkCauses } from './causal-summary.js';
import { codeLines } from './code-lines.js';
import { completenessHeading, completenessLines, completenessOf, notesBelow } from './completeness.js';
import { blocksText } from './doc-text.js';
import { evidenceCutNote } from './evidence-cut.js';
import { factRows } from './fact-text.js';
import { inputKindText, inputLineParts } from './input-line.js';
import { quoteLogLine } from './log-quote.js';
import { memorySections } from './memory-section.js';
import { WASTE_ROWS_SHORT, wasteBlocks } from './memory-waste-section.js';
import { acrossDumps, dumpsText, POOL_ROWS, poolRows } from './pool-rows.js';
import { configNote, REDACTED_NOTE, type Report } from './report.js';
import { stripControl } from './sanitize.js';
import { shortSourceNames, sourceAt } from './source-location.js';
import { threadNameText } from './thread-name.js';

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
  if (report.redacted === true) out.push(chalk.dim(REDACTED_NOTE));
  if (report.config !== undefined) out.push(chalk.dim(stripControl(configNote(report.config))));
  const completeness = completenessOf(m);
  const heading = completenessHeading(completeness);
  if (heading !== undefined) {
    const style = completeness.complete ? chalk.dim : chalk.yellow;
    out.push(completeness.complete ? chalk.bold(heading) : chalk.yellow.bold(heading));
    for (const line of completenessLines(completeness)) out.push(style(`  ${stripControl(line)}`));
    out.push('');
  }
  for (const i of m.inputs) {
    const extra = [i.gzip ? 'gzip' : '', i.encoding !== 'utf-8' ? i.encoding : ''].filter(Boolean).join(', ');
    out.push(
      `  ${stripControl(i.path)}: ${inputKindText(i)}${extra ? ` (${extra})` : ''}` +
        inputLineParts(i)
          .map((p) => (p.dim === true ? chalk.dim(`, ${stripControl(p.text)}`) : `, ${stripControl(p.text)}`))
          .join(''),
    );
    for (const w of i.warnings) out.push(chalk.yellow(`    warning: ${stripControl(w)}`));
  }
  out.push('');
  if (report.findings.length === 0) {
    out.push(chalk.green('No findings.'));
  } else out.push(...renderSummary(causalSummary(report.findings), sev, chalk), '');
  const short = shortSourceNames(m.inputs.map((i) => i.path));
  for (const f of report.findings) out.push(...renderFinding(f, sev, chalk, short), '');

  if (m.dumps.length > 0) out.push(chalk.bold('Dumps'));
  m.dumps.forEach((d, i) => {
    const s = m.stateSummaries[i]!;
    const states = Object.entries(s)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    out.push(
      `  #${i} ${stripControl(d.timestampIso ?? d.timestamp ?? '(no timestamp)')}  ${countOf(d.threads.length, 'thread')}` +
        `: ${states}${chalk.dim(`  [${stripControl(sourceAt(d.source, d.startLine))}]`)}`,
    );
  });
  const pools = poolRows(m.executors);
  if (pools.length > 0) {
    out.push('', chalk.bold('Thread pools'));
    for (const p of pools.slice(0, POOL_ROWS)) {
      const saturated = p.dumps.length > 1 && p.saturatedIn > 0 ? `, all busy in ${p.saturatedIn} of ${p.dumps.length} dumps` : '';
      out.push(
        `  ${dumpsText(p.dumps).padEnd(7)} ${stripControl(p.name)}: ${acrossDumps(p.workers)} ${p.workers.every((w) => w === 1) ? 'worker' : 'workers'}` +
          `, ${acrossDumps(p.busy)} busy${saturated}${p.queue !== undefined ? `; ${stripControl(p.queue)}` : ''}`,
      );
    }
    if (pools.length > POOL_ROWS) out.push(chalk.dim(`  … ${pools.length - POOL_ROWS} more pools (every one in --format json)`));
  }
  if (m.counters.length > 0) {
    out.push('', chalk.bold('Counters'));
    for (const c of m.counters.slice(0, 20)) {
      const inside = c.threadsInside.length > 0 ? `, threads inside ${c.threadsInside.map((t) => t.count).join('/')}` : '';
      out.push(`  ${stripControl(c.name)}: active ${c.active}${c.limit !== null ? ` of ${c.limit}` : ''}${inside}`);
    }
  }
  if (m.connectionPools.length > 0) {
    out.push('', chalk.bold('Connection pools'));
    for (const p of m.connectionPools.slice(0, 20)) {
      const waiting = Math.max(0, ...p.waitingThreads.map((w) => w.threads.length));
      const numbers = p.source === 'heap' ? `width ${p.width ?? '?'}, leased ${p.leased ?? '?'}, pending ${p.pending ?? '?'}` : 'from stacks only';
      out.push(`  ${stripControl(p.name)}: ${numbers}, ${countOf(waiting, 'thread')} waiting`);
    }
  }
  for (const sec of memorySections(m.memory)) {
    out.push('', chalk.bold(`Memory of ${stripControl(sec.input)}`), `  ${stripControl(sec.headline)}`);
    if (sec.sizes !== undefined) out.push(`  ${stripControl(sec.sizes)}`);
    if (sec.retainers.length > 0)
      out.push(
        '  biggest retainers:',
        ...sec.retainers.slice(0, 5).map((r) => `    ${r.retainedText.padStart(10)}  ${r.shareText.padStart(6)}  ${stripControl(r.name)} ${r.id}`),
      );
    for (const x of sec.suspects) out.push(`  10% or more: ${stripControl(x)}`);
    for (const c of sec.classLoaders ?? [])
      out.push(`  defined by several class loaders: ${stripControl(c.headline)}`, `    kept by: ${stripControl(c.keptBy)}`);
    if (sec.waste !== undefined) out.push(...blocksText(wasteBlocks(sec.waste, WASTE_ROWS_SHORT)).map((l) => (l === '' ? l : `  ${l}`)));
  }
  for (const n of notesBelow(m)) out.push('', chalk.dim(`note: ${stripControl(n)}`));
  // A healthy report said "No findings." at the top; the count closes only a report that has some.
  if (report.findings.length > 0) out.push('', summaryLine(report.findings, chalk));
  return out.join('\n') + '\n';
}

/** Items of a list fact shown in text (the rest are counted). */
const MAX_LIST_ITEMS = 8;

/** Each root cause on a line, what it causes under it (`→`), then what to do first. */
function renderSummary(summary: CausalSummary, sev: (s: Severity) => string, chalk: ChalkInstance): string[] {
  const out = [chalk.bold('Summary')];
  for (const { node, depth } of walkCauses(summary.causes)) {
    const f = node.finding;
    const also = node.alsoCausedBy.length > 0 ? chalk.dim(` (also caused by ${node.alsoCausedBy.map((c) => stripControl(c.id)).join(', ')})`) : '';
    out.push(`  ${depth > 0 ? `${'  '.repeat(depth - 1)}→ ` : ''}${sev(f.severity)} ${stripControl(f.headline)}${also}`);
  }
  if (summary.first !== undefined) out.push(`  ${chalk.bold('First:')} ${stripControl(summary.first.step)}`);
  return out;
}

function renderFinding(f: Finding, sev: (s: Severity) => string, chalk: ChalkInstance, short: (path: string) => string): string[] {
  const lines = [`${sev(f.severity)} ${chalk.bold(f.rule)}  ${stripControl(f.subject)}`, `  ${stripControl(f.message)}`];
  const scalars = Object.fromEntries(Object.entries(f.facts).filter(([, v]) => !Array.isArray(v)));
  const facts = factRows(scalars);
  if (facts.length > 0) lines.push(chalk.dim(`  facts: ${facts.map((r) => `${r.label}: ${stripControl(r.value)}`).join('; ')}`));
  // Lists say the most (who holds the connections, which threads wait): the first few, and how many more.
  for (const [k, v] of Object.entries(f.facts)) {
    if (!Array.isArray(v) || v.length === 0) continue;
    const [row] = factRows({ [k]: v.slice(0, MAX_LIST_ITEMS) });
    if (row === undefined) continue;
    lines.push(chalk.dim(`  ${row.label}: ${stripControl(row.value)}${v.length > MAX_LIST_ITEMS ? `, … ${v.length - MAX_LIST_ITEMS} more` : ''}`));
  }
  for (const e of f.evidence.slice(0, MAX_EVIDENCE)) {
    lines.push(chalk.dim(`    - ${evidenceText(e, short)}${e.note ? ` (${stripControl(e.note)})` : ''}`));
    // The thread's code under it, as jstack prints it; the application's own frame stands out.
    if (e.kind === 'thread' && e.frames !== undefined)
      for (const c of codeLines(e, false))
        lines.push(c.application === true ? `        ${stripControl(c.text)}` : chalk.dim(`        ${stripControl(c.text)}`));
  }
  const cut = evidenceCutNote(f, Math.min(MAX_EVIDENCE, f.evidence.length), '(every one in --format json, markdown or html)');
  if (cut !== undefined) lines.push(chalk.dim(`    ${cut}`));
  if (f.causedBy.length > 0) lines.push(`  caused by: ${f.causedBy.map(stripControl).join(', ')}`);
  lines.push(`  ${chalk.green('fix:')} ${f.remedy}`);
  return lines;
}

/** One piece of evidence; its file by its short name (the header has the full path), a thread's dump by its number. */
function evidenceText(e: Evidence, short: (path: string) => string): string {
  switch (e.kind) {
    case 'lock':
      return `lock <${e.lock}> ${e.className}`;
    case 'thread':
      return `${threadNameText(e.thread, (n) => `"${stripControl(n)}"`)} #${e.dump} ${stripControl(sourceAt(short(e.source), e.line))}`;
    case 'jvm-report':
      return `JVM deadlock report #${e.dump} ${stripControl(short(e.source))}:${e.line}`;
    case 'heap-object':
      return `heap object ${e.id} ${stripControl(e.className)} in ${stripControl(short(e.source))}`;
    case 'log':
      return `${stripControl(short(e.source))}:${e.line}: ${stripControl(quoteLogLine(e.text, 200))}`;
  }
}

function summaryLine(findings: readonly Finding[], chalk: ChalkInstance): string {
  const count = (s: Severity): number => findings.filter((f) => f.severity === s).length;
  // "2 errors, 1 warning"; critical and info read as they are.
  const word = (s: Severity, n: number) => (n === 1 || s === 'critical' || s === 'info' ? s : `${s}s`);
  const parts = (['critical', 'error', 'warning', 'info'] as const).filter((s) => count(s) > 0).map((s) => `${count(s)} ${word(s, count(s))}`);
  return findings.length === 0 ? '' : chalk.bold(`${findings.length} finding${findings.length === 1 ? '' : 's'} (${parts.join(', ')})`);
}
