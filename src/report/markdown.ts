/**
 * `--format markdown`: a report to paste into a GitHub, GitLab or Jira ticket. Findings first (severity,
 * subject, message, facts as a small table, what to do); evidence in collapsible <details>. It stays
 * under the 65,536 characters trackers accept by cutting evidence, with a note saying what was cut,
 * never by dropping a finding. Every string from a dump is escaped: it cannot add markup.
 */
import type { Evidence, Finding } from '../model/findings.js';
import type { Model } from '../model/model.js';
import type { StackFrame } from '../model/thread-dump.js';
import { type CausalSummary, causalSummary, walkCauses } from './causal-summary.js';
import { codeHeader, codeLines, threadsWithCode } from './code-lines.js';
import { completenessHeading, completenessLines, completenessOf, notesBelow } from './completeness.js';
import { blocksMarkdown } from './doc-markdown.js';
import { evidenceCutNote } from './evidence-cut.js';
import { factRows } from './fact-text.js';
import { inputKindText, inputLineParts } from './input-line.js';
import { quoteLogLine } from './log-quote.js';
import { fenced, mdText } from './md-escape.js';
import { memorySections } from './memory-section.js';
import { WASTE_ROWS_SHORT, wasteBlocks } from './memory-waste-section.js';
import { acrossDumps, dumpsText, POOL_ROWS, poolRows } from './pool-rows.js';
import { configNote, REDACTED_NOTE, type Report } from './report.js';
import { stripControl } from './sanitize.js';
import { deadlockRows, lockRows, ownersText } from './series-groups.js';
import { sourceAt } from './source-location.js';
import { threadNameText } from './thread-name.js';

/** Contended locks listed; the rest are counted. */
const LOCK_ROWS = 20;

export const MARKDOWN_LIMIT = 65_536;

export { mdText } from './md-escape.js';

const ICON: Record<Finding['severity'], string> = { critical: '🟥', error: '🔴', warning: '🟠', info: 'ℹ️' };

function evidenceLine(e: Evidence): string {
  const note = e.note ? ` (${mdText(e.note)})` : '';
  switch (e.kind) {
    case 'thread':
      return `- thread ${threadNameText(e.thread, (n) => `"${mdText(n)}"`)}, ${mdText(sourceAt(e.source, e.line))}${note}`;
    case 'lock':
      return `- lock ${mdText(e.lock)} ${mdText(e.className)}${note}`;
    case 'jvm-report':
      return `- the JVM's deadlock report, ${mdText(e.source)}:${e.line}${note}`;
    case 'heap-object':
      return `- heap object ${mdText(e.id)} ${mdText(e.className)} in ${mdText(e.source)}${note}`;
    case 'log':
      return `- ${mdText(e.source)}:${e.line}: ${mdText(quoteLogLine(e.text, 300))}${note}`;
  }
}

/** Stacks shown per finding, and frames per stack; the JSON and HTML reports have the rest. */
const STACKS_PER_FINDING = 3;
const FRAMES_PER_STACK = 12;

/**
 * The stacks of the threads a finding is about, each distinct stack once, as fenced code: a stack
 * reads as code, and a fence keeps whatever a frame holds from becoming markup. The fence is longer
 * than any run of backticks inside, so no line can close it.
 */
function stackBlocks(model: Model, f: Finding, limit: number): string[] {
  const seen = new Set<StackFrame[]>();
  const blocks: string[] = [];
  let more = 0;
  for (const e of f.evidence) {
    if (e.kind !== 'thread') continue;
    const th = model.dumps[e.dump]?.threads[e.index];
    if (th === undefined || th.frames.length === 0 || seen.has(th.frames)) continue;
    seen.add(th.frames);
    if (blocks.length >= limit) {
      more++;
      continue;
    }
    const lines = [
      `${threadNameText(th.name, (n) => `"${n}"`)} ${th.state}${th.stateDetail ? ` (${th.stateDetail})` : ''}`,
      ...th.frames.slice(0, FRAMES_PER_STACK).map((x) => `    at ${x.qualified}${x.location ? `(${x.location})` : ''}`),
    ];
    if (th.frames.length > FRAMES_PER_STACK) lines.push(`    … ${th.frames.length - FRAMES_PER_STACK} more frames`);
    blocks.push(fenced(lines.map((l) => stripControl(l)).join('\n')));
  }
  if (more > 0 && blocks.length > 0)
    blocks.push(`_… ${more} more distinct stack${more === 1 ? '' : 's'} among its threads (all in the JSON and HTML reports)_`);
  return blocks;
}

/**
 * The code the rule attached to the finding's threads (rules/support/thread-code.ts), a fenced block
 * each, as jstack prints a thread: its frames down to the application's, with the lock lines.
 */
function codeBlocks(f: Finding, limit: number): string[] {
  const coded = threadsWithCode(f.evidence);
  const blocks = coded.slice(0, limit).map((e) => {
    const text = [codeHeader(e), ...codeLines(e, true).map((c) => `    ${c.text}`)].map((l) => stripControl(l)).join('\n');
    return fenced(text);
  });
  const more = coded.length - blocks.length;
  if (more > 0 && blocks.length > 0) blocks.push(`_… the code of ${more} more thread${more === 1 ? '' : 's'} in the JSON and HTML reports_`);
  return blocks;
}

/** Each finding's anchor: trackers make their own of a heading's text, each differently, so it has one of its own. */
const anchorOf = (anchors: ReadonlyMap<string, string>, id: string) => anchors.get(id);

function findingSection(model: Model, f: Finding, evidenceLimit: number, anchors: ReadonlyMap<string, string>, byId: ReadonlyMap<string, Finding>): string {
  const lines = [
    `<a name="${anchorOf(anchors, f.id)}"></a>`,
    '',
    `### ${ICON[f.severity]} ${f.severity.toUpperCase()} · ${f.rule} · ${mdText(f.subject)}`,
    '',
    mdText(f.message),
    '',
  ];
  const facts = factRows(f.facts);
  if (facts.length > 0) {
    lines.push('| fact | value |', '| --- | --- |');
    for (const r of facts) lines.push(`| ${mdText(r.label)} | ${mdText(r.value)} |`);
    lines.push('');
  }
  if (f.causedBy.length > 0) {
    const causes = f.causedBy.map((c) => {
      const cause = byId.get(c);
      return cause !== undefined ? `[${mdText(`${cause.rule} · ${cause.subject}`)}](#${anchorOf(anchors, c)})` : mdText(c);
    });
    lines.push(`**Caused by:** ${causes.join(', ')}`, '');
  }
  lines.push(`**What to do:** ${mdText(f.remedy)}`, '');
  // Code and stacks are cut with the evidence when the report must shrink to fit. A finding whose
  // rule attached its threads' code shows that, open (the lines of code and the locks); others their stacks.
  const blockLimit = evidenceLimit === Infinity ? STACKS_PER_FINDING : evidenceLimit >= 20 ? 2 : evidenceLimit >= 5 ? 1 : 0;
  const code = codeBlocks(f, evidenceLimit === Infinity ? Infinity : blockLimit);
  const stacks = threadsWithCode(f.evidence).length > 0 ? [] : stackBlocks(model, f, blockLimit);
  if (code.length > 0) lines.push('<details open><summary>Code</summary>', '', ...code.flatMap((b) => [b, '']), '</details>', '');
  if (stacks.length > 0) lines.push('<details><summary>Stacks</summary>', '', ...stacks.flatMap((b) => [b, '']), '</details>', '');
  if (f.evidence.length > 0) {
    const shown = f.evidence.slice(0, evidenceLimit);
    lines.push(`<details><summary>Evidence (${f.evidence.length})</summary>`, '', ...shown.map(evidenceLine));
    const cut = evidenceCutNote(f, shown.length, `cut to keep the report under ${MARKDOWN_LIMIT} characters`);
    if (cut !== undefined) lines.push(`- ${mdText(cut)}`);
    lines.push('', '</details>', '');
  }
  return lines.join('\n');
}

/** Each root cause, what it causes as a nested list under it (each a link to its finding), then what to do first. */
function summarySection(summary: CausalSummary, anchors: ReadonlyMap<string, string>, brief: boolean): string[] {
  const out = ['### Summary', ''];
  for (const { node, depth } of walkCauses(summary.causes)) {
    const f = node.finding;
    const also = node.alsoCausedBy.length > 0 ? ` _(also caused by ${node.alsoCausedBy.map((c) => mdText(c.id)).join(', ')})_` : '';
    out.push(`${'  '.repeat(depth)}- **${f.severity}** [${mdText(brief ? `${f.rule} · ${f.subject}` : f.headline)}](#${anchors.get(f.id)!})${also}`);
  }
  if (summary.first !== undefined) out.push('', `**First:** ${mdText(summary.first.step)}`);
  out.push('');
  return out;
}

function body(report: Report, evidenceLimit: number, briefSummary: boolean): string {
  const m = report.model;
  const out: string[] = [`## dumpsleuth report`, ''];
  if (report.redacted === true) out.push(`_${mdText(REDACTED_NOTE)}_`, '');
  if (report.config !== undefined) out.push(`_${mdText(configNote(report.config))}_`, '');
  const completeness = completenessOf(m);
  const heading = completenessHeading(completeness);
  if (heading !== undefined)
    out.push(
      completeness.complete ? `**${mdText(heading)}**` : `> [!WARNING]\n> **${mdText(heading)}**`,
      ...completenessLines(completeness).map((l) => `${completeness.complete ? '' : '> '}- ${mdText(l)}`),
      '',
    );
  const counts = (['critical', 'error', 'warning', 'info'] as const)
    .map((s) => [s, report.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0);
  out.push(
    report.findings.length === 0
      ? 'No findings.'
      : `**${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}:** ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}`,
    '',
  );
  const anchors = new Map(report.findings.map((f, k) => [f.id, `finding-${k + 1}`]));
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  if (report.findings.length > 0) out.push(...summarySection(causalSummary(report.findings), anchors, briefSummary));
  for (const f of report.findings) out.push(findingSection(m, f, evidenceLimit, anchors, byId));
  const pools = poolRows(m.executors);
  if (pools.length > 0 || m.connectionPools.length > 0) {
    out.push('#### Pools', '', '| pool | dumps | workers | busy | queue | width | leased | waiting |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const p of pools.slice(0, POOL_ROWS)) {
      out.push(
        `| ${mdText(p.name)} | ${dumpsText(p.dumps)} | ${acrossDumps(p.workers)} | ` +
          `${acrossDumps(p.busy)} | ${p.queue !== undefined ? mdText(p.queue) : ''} |  |  |  |`,
      );
    }
    if (pools.length > POOL_ROWS) out.push(`| … ${pools.length - POOL_ROWS} more pools |  |  |  |  |  |  |  |`);
    for (const p of m.connectionPools) {
      const waiting = Math.max(0, ...p.waitingThreads.map((w) => w.threads.length));
      out.push(`| ${mdText(p.name)} |  |  |  |  | ${p.width ?? '?'} | ${p.leased ?? '?'} | ${Math.max(waiting, p.pending ?? 0)} |`);
    }
    out.push('');
  }
  const locks = lockRows(m);
  const deadlocks = deadlockRows(m);
  if (locks.length > 0 || deadlocks.length > 0) {
    out.push('#### Locks', '');
    for (const d of deadlocks)
      out.push(`- **deadlock** (${dumpsText(d.dumps)}${d.confidence === 'possible' ? ', possible' : ''}): ${d.threads.map(mdText).join(' → ')}`);
    if (locks.length > 0) {
      if (deadlocks.length > 0) out.push('');
      out.push('| lock | dumps | owner | waiting |', '| --- | --- | --- | --- |');
      for (const l of locks.slice(0, LOCK_ROWS))
        out.push(`| ${mdText(l.lock)} | ${dumpsText(l.dumps)} | ${mdText(ownersText(l.owners))} | ${acrossDumps(l.waiting)} |`);
      if (locks.length > LOCK_ROWS) out.push(`| … ${locks.length - LOCK_ROWS} more contended locks |  |  |  |`);
    }
    out.push('');
  }
  if (m.counters.length > 0) {
    out.push('#### Counters', '', '| counter | active | limit | threads inside |', '| --- | --- | --- | --- |');
    for (const c of m.counters) out.push(`| ${mdText(c.name)} | ${c.active} | ${c.limit ?? ''} | ${c.threadsInside.map((t) => t.count).join(' / ') || '?'} |`);
    out.push('');
  }
  for (const sec of memorySections(m.memory)) {
    out.push(`#### Memory of ${mdText(sec.input)}`, '', mdText(sec.headline), '');
    if (sec.sizes !== undefined) out.push(mdText(sec.sizes), '');
    if (sec.retainers.length > 0) {
      out.push(
        '| retained | share | biggest retainer | id |',
        '| ---: | ---: | --- | --- |',
        ...sec.retainers.map((r) => `| ${r.retainedText} | ${r.shareText} | ${mdText(r.name)} | \`${r.id}\` |`),
        '',
      );
    }
    for (const x of sec.suspects) out.push(`- 10% or more: ${mdText(x)}`);
    if (sec.suspects.length > 0) out.push('');
    for (const c of sec.classLoaders ?? [])
      out.push(`- defined by several class loaders: ${mdText(c.headline)}; kept by: ${mdText(c.keptBy)}`, ...c.loaders.map((l) => `  - ${mdText(l)}`), '');
    if (sec.waste !== undefined) out.push(...blocksMarkdown(wasteBlocks(sec.waste, WASTE_ROWS_SHORT), 5));
  }
  out.push('<details><summary>Inputs</summary>', '');
  for (const i of m.inputs)
    out.push(
      `- ${mdText(i.path)}: ${mdText(inputKindText(i))}${inputLineParts(i)
        .map((p) => `, ${mdText(p.text)}`)
        .join('')}${i.warnings.length > 0 ? ` (warnings: ${i.warnings.map(mdText).join('; ')})` : ''}`,
    );
  for (const n of notesBelow(m)) out.push(`- note: ${mdText(n)}`);
  out.push('', '</details>', '', `<sub>${mdText(`dumpsleuth ${report.tool.version}`)}</sub>`, '');
  return out.join('\n');
}

export function renderMarkdown(report: Report): string {
  // Cut evidence, most first, until the report fits; findings always stay whole.
  for (const limit of [Infinity, 50, 20, 10, 5, 2, 0]) {
    const text = body(report, limit, false);
    if (text.length <= MARKDOWN_LIMIT) return text;
  }
  // Then the summary names each finding by its rule and subject, not its headline.
  const text = body(report, 0, true);
  return text.length <= MARKDOWN_LIMIT ? text : text.slice(0, MARKDOWN_LIMIT - 80) + '\n\n… the report was cut at 65,536 characters (too many findings).\n';
}
