/**
 * `--format html`: one self-contained file (no script, no network, no external file) that opens from a
 * ticket attachment. Findings first, then pools, counters, locks and thread groups with collapsible
 * stacks, and a small inline chart of thread states per dump. Every string from a dump is escaped.
 */
import { countOf, countText } from '../model/count-text.js';
import type { Evidence, Finding } from '../model/findings.js';
import type { Model } from '../model/model.js';
import type { JavaThreadState } from '../model/thread-dump.js';
import { type CausalSummary, causalSummary, type CauseNode } from './causal-summary.js';
import { codeHeader, codeLines, threadsWithCode } from './code-lines.js';
import { completenessHeading, completenessLines, completenessOf, notesBelow } from './completeness.js';
import { blocksHtml } from './doc-html.js';
import { evidenceCutNote } from './evidence-cut.js';
import { factRows } from './fact-text.js';
import { esc } from './html-escape.js';
import { flameGraph } from './html-flame.js';
import { pageHead } from './html-page.js';
import { retainersChart } from './html-retainers.js';
import { seriesTimeline } from './html-timeline.js';
import { inputKindText, inputLineParts } from './input-line.js';
import { quoteLogLine } from './log-quote.js';
import { type MemorySection, memorySections } from './memory-section.js';
import { WASTE_ROWS_LONG, wasteBlocks } from './memory-waste-section.js';
import { acrossDumps, dumpsText, POOL_ROWS, poolRows } from './pool-rows.js';
import { configNote, REDACTED_NOTE, type Report } from './report.js';
import { deadlockRows, groupRows, lockRows, ownersText } from './series-groups.js';
import { seriesRows } from './series-rows.js';
import { shortSourceNames, sourceAt } from './source-location.js';
import { threadNameText } from './thread-name.js';

export { esc } from './html-escape.js';

const STATE_COLOURS: Record<JavaThreadState, string> = {
  RUNNABLE: '#2da44e',
  BLOCKED: '#cf222e',
  WAITING: '#bf8700',
  TIMED_WAITING: '#d4a72c',
  NEW: '#8c959f',
  TERMINATED: '#57606a',
  UNKNOWN: '#afb8c1',
};

/** One piece of evidence; its file by its short name (the header has the full path), a thread's dump by its number. */
function evidenceItem(e: Evidence, short: (path: string) => string): string {
  const note = e.note ? ` <span class="muted">(${esc(e.note)})</span>` : '';
  switch (e.kind) {
    case 'thread':
      return `<li>thread ${threadNameText(e.thread, (n) => `<code>${esc(n)}</code>`)} #${e.dump} ${esc(sourceAt(short(e.source), e.line))}${note}</li>`;
    case 'lock':
      return `<li>lock <code>${esc(e.lock)}</code> ${esc(e.className)}${note}</li>`;
    case 'jvm-report':
      return `<li>the JVM's deadlock report, #${e.dump} ${esc(short(e.source))}:${e.line}${note}</li>`;
    case 'heap-object':
      return `<li>heap object <code>${esc(e.id)}</code> ${esc(e.className)} in ${esc(short(e.source))}${note}</li>`;
    case 'log':
      return `<li>${esc(short(e.source))}:${e.line}: <code>${esc(quoteLogLine(e.text, 400))}</code>${note}</li>`;
  }
}

/** Evidence lines drawn per finding; the JSON report has them all. */
const HTML_EVIDENCE = 200;

function cutNote(f: Finding): string {
  const note = evidenceCutNote(f, Math.min(HTML_EVIDENCE, f.evidence.length), '(every one in the JSON report)');
  return note === undefined ? '' : `<p class="muted">${esc(note)}</p>`;
}

/**
 * The code the rule attached to the finding's threads, shown open: per thread its state, its frames
 * down to the application's (in bold), and the lock lines, with where the thread is in its dump.
 */
function codeBlock(f: Finding, short: (path: string) => string): string {
  const threads = threadsWithCode(f.evidence).map((e) => {
    const lines = codeLines(e, true).map((c) =>
      c.application === true ? `  <strong>${esc(c.text)}</strong>` : c.kind === 'frame' ? `  ${esc(c.text)}` : `  <span class="muted">${esc(c.text)}</span>`,
    );
    const where = `<span class="muted">#${e.dump} ${esc(sourceAt(short(e.source), e.line))}</span>`;
    return `<pre class="code">${esc(codeHeader(e))} ${where}\n${lines.join('\n')}</pre>`;
  });
  return `<div class="code-of-threads"><div class="muted">Code</div>${threads.join('')}</div>`;
}

function findingBlock(f: Finding, short: (path: string) => string): string {
  const facts = factRows(f.facts);
  return [
    `<section class="finding ${f.severity}" id="${esc(f.id)}">`,
    `<div class="sev">${esc(f.severity)} · ${esc(f.rule)}</div>`,
    `<h3>${esc(f.subject)}</h3>`,
    `<p>${esc(f.message)}</p>`,
    facts.length > 0 ? `<table class="facts">${facts.map((r) => `<tr><th>${esc(r.label)}</th><td>${esc(r.value)}</td></tr>`).join('')}</table>` : '',
    f.causedBy.length > 0 ? `<p>Caused by: ${f.causedBy.map((c) => `<a href="#${esc(c)}">${esc(c)}</a>`).join(', ')}</p>` : '',
    `<p class="fix"><strong>What to do:</strong> ${esc(f.remedy)}</p>`,
    ...(threadsWithCode(f.evidence).length > 0 ? [codeBlock(f, short)] : []),
    f.evidence.length > 0
      ? `<details><summary>Evidence (${f.evidence.length})</summary><ul>` +
        `${f.evidence
          .slice(0, HTML_EVIDENCE)
          .map((e) => evidenceItem(e, short))
          .join('')}</ul>${cutNote(f)}</details>`
      : '',
    '</section>',
  ].join('\n');
}

/**
 * Stacked bars: thread states per dump, so a series' drift shows at a glance. The labels get the
 * room they need, and the legend lists only the states that occur, on a line of its own.
 */
function statesChart(report: Report): string {
  const m = report.model;
  if (m.dumps.length === 0) return '';
  const used = (Object.keys(STATE_COLOURS) as JavaThreadState[]).filter((s) => m.stateSummaries.some((c) => c[s] > 0));
  const max = Math.max(1, ...m.dumps.map((d) => d.threads.length));
  const rowH = 22;
  const labels = m.dumps.map((d, i) => `#${i}${d.timestampIso !== undefined ? ` ${d.timestampIso.replace('T', ' ').slice(0, 19)}` : ''}`);
  // 12px text: about 7 units a character.
  const labelW = Math.max(...labels.map((l) => l.length)) * 7 + 10;
  const barW = 600;
  const bars = m.dumps.map((d, i) => {
    const counts = m.stateSummaries[i]!;
    let x = labelW;
    const parts = used
      .filter((s) => counts[s] > 0)
      .map((s) => {
        const w = (counts[s] / max) * barW;
        const rect =
          `<rect x="${x.toFixed(1)}" y="${i * rowH + 2}" width="${w.toFixed(1)}" height="${rowH - 6}"` +
          ` fill="${STATE_COLOURS[s]}"><title>${esc(`${s}: ${counts[s]}`)}</title></rect>`;
        x += w;
        return rect;
      });
    const total = `<text x="${(x + 6).toFixed(1)}" y="${i * rowH + 15}" font-size="11">${countText(d.threads.length)}</text>`;
    return `<text x="0" y="${i * rowH + 15}" font-size="12">${esc(labels[i]!)}</text>${parts.join('')}${total}`;
  });
  const legendY = m.dumps.length * rowH + 8;
  let lx = labelW;
  const legend = used.map((s) => {
    const item =
      `<rect x="${lx}" y="${legendY}" width="10" height="10" fill="${STATE_COLOURS[s]}"/>` +
      `<text x="${lx + 14}" y="${legendY + 9}" font-size="11">${s}</text>`;
    lx += 14 + s.length * 7 + 16;
    return item;
  });
  const width = Math.max(labelW + barW + 60, lx);
  const height = legendY + 16;
  return (
    `<svg class="states" role="img" aria-label="thread states per dump" viewBox="0 0 ${width} ${height}" width="100%"` +
    ` style="max-width:${width}px" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">${bars.join('')}${legend.join('')}</svg>`
  );
}

/** Rows per section; the rest are counted, and all are in the JSON report. */
const LOCK_ROWS = 100;
const GROUP_ROWS = 50;
const GROUP_NAMES = 30;
/** The model keeps a group's top 8 frames. */
const STACK_FRAMES_SHOWN = 8;

/** Dumps drawn one by one under the series' graph. */
const FLAME_DUMPS = 10;

/**
 * One graph of every thread (one dump), or of the series (a thread counted in each dump it is in)
 * with each dump's own graph folded below it.
 */
function flameGraphs(m: Model): string {
  const legend =
    '<p class="muted">Bottom: where threads start; top: where they are. Width: threads; colour: the state most of them are in (' +
    `${(['RUNNABLE', 'BLOCKED', 'WAITING', 'TIMED_WAITING'] as const).map((s) => `<span style="color:${STATE_COLOURS[s]}">■</span> ${s}`).join(', ')}` +
    '). Hover a frame for its counts.</p>';
  if (m.dumps.length === 1) return legend + flameGraph(m.callTrees.merged, STATE_COLOURS, countOf(m.dumps[0]!.threads.length, 'thread'));
  const out = [
    legend,
    flameGraph(
      m.callTrees.merged,
      STATE_COLOURS,
      `${countOf(
        m.dumps.reduce((n, d) => n + d.threads.length, 0),
        'thread sample',
      )} in ${countOf(m.dumps.length, 'dump')}`,
    ),
  ];
  m.dumps
    .slice(0, FLAME_DUMPS)
    .forEach((d, i) =>
      out.push(
        `<details><summary>dump #${i}${d.timestampIso !== undefined ? ` (${esc(d.timestampIso)})` : ''}: ${countOf(d.threads.length, 'thread')}` +
          `</summary>${flameGraph(m.callTrees.perDump[i]!, STATE_COLOURS, `${countOf(d.threads.length, 'thread')} of dump #${i}`)}</details>`,
      ),
    );
  if (m.dumps.length > FLAME_DUMPS) out.push(`<p class="muted">… ${m.dumps.length - FLAME_DUMPS} more dumps, each in the series' graph above.</p>`);
  return out.join('\n');
}

/** The findings at a glance, each linked to its block below. */
/** Each root cause, what it causes nested under it (each a link to its finding), then what to do first. */
function causesBlock(summary: CausalSummary): string {
  const list = (nodes: readonly CauseNode[]): string =>
    `<ul>${nodes
      .map((n) => {
        const f = n.finding;
        const also = n.alsoCausedBy.length > 0 ? ` <span class="muted">(also caused by ${n.alsoCausedBy.map((c) => esc(c.id)).join(', ')})</span>` : '';
        return (
          `<li><span class="sev ${f.severity}">${esc(f.severity)}</span> <a href="#${esc(f.id)}">${esc(f.headline)}</a>${also}` +
          `${n.effects.length > 0 ? list(n.effects) : ''}</li>`
        );
      })
      .join('')}</ul>`;
  const first = summary.first !== undefined ? `<p class="first"><strong>First:</strong> ${esc(summary.first.step)}</p>` : '';
  return `<section class="causes">${list(summary.causes)}${first}</section>`;
}

/** A heap dump's Memory section: the totals, a bar chart of the biggest retainers (inline SVG, no script), the suspects, the classes. */
function memoryBlock(sec: MemorySection): string {
  const out = [`<h2>Memory of ${esc(sec.input)}</h2>`, `<p>${esc(sec.headline)}</p>`];
  if (sec.sizes !== undefined) out.push(`<p>${esc(sec.sizes)}</p>`);
  if (sec.retainers.length > 0) out.push(retainersChart(sec.retainers));
  if (sec.suspects.length > 0) out.push(`<ul>${sec.suspects.map((x) => `<li><strong>10% or more</strong>: ${esc(x)}</li>`).join('')}</ul>`);
  for (const c of sec.classLoaders ?? [])
    out.push(
      `<p><strong>Defined by several class loaders</strong>: ${esc(c.headline)}; kept by: ${esc(c.keptBy)}</p>` +
        `<ul>${c.loaders.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`,
    );
  if (sec.waste !== undefined) out.push(...blocksHtml(wasteBlocks(sec.waste, WASTE_ROWS_LONG), 3));
  if (sec.classes.length > 0) {
    out.push('<table><tr><th>class</th><th>instances</th><th>retained</th><th>share</th></tr>');
    for (const c of sec.classes)
      out.push(`<tr><td>${esc(c.className)}</td><td>${countText(c.instances)}</td><td>${esc(c.retainedText)}</td><td>${esc(c.shareText)}</td></tr>`);
    out.push('</table>');
  }
  return out.join('\n');
}

/** Inputs read in part and files not read, above everything else. */
function completenessBlock(m: Report['model']): string[] {
  const c = completenessOf(m);
  const heading = completenessHeading(c);
  if (heading === undefined) return [];
  const items = completenessLines(c)
    .map((l) => `<li>${esc(l)}</li>`)
    .join('');
  return [`<div class="${c.complete ? 'not-read' : 'incomplete'}"><strong>${esc(heading)}</strong><ul>${items}</ul></div>`];
}

export function renderHtml(report: Report): string {
  const m = report.model;
  const short = shortSourceNames(m.inputs.map((i) => i.path));
  const out: string[] = [
    ...pageHead(
      'dumpsleuth report',
      m.memory.some((x) => x.summary?.waste !== undefined),
    ),
    `<h1>dumpsleuth report</h1>`,
    ...(report.redacted === true ? [`<p class="muted">${esc(REDACTED_NOTE)}</p>`] : []),
    ...(report.config !== undefined ? [`<p class="muted config">${esc(configNote(report.config))}</p>`] : []),
    ...completenessBlock(m),
    `<p class="muted">${m.inputs
      .map(
        (i) =>
          esc(
            `${i.path}: ${inputKindText(i)}${inputLineParts(i)
              .map((p) => `, ${p.text}`)
              .join('')}`,
          ) + i.warnings.map((w) => `<br><span class="input-warning">warning: ${esc(w)}</span>`).join(''),
      )
      .join('<br>')}</p>`,
    ...notesBelow(m).map((n) => `<p class="muted note">note: ${esc(n)}</p>`),
    ...(report.findings.length > 0 ? ['<h2>Summary</h2>', causesBlock(causalSummary(report.findings))] : []),
    `<h2>Findings (${report.findings.length})</h2>`,
    report.findings.length === 0 ? '<p>No findings.</p>' : report.findings.map((f) => findingBlock(f, short)).join('\n'),
  ];
  if (m.dumps.length > 0) out.push('<h2>Thread states per dump</h2>', statesChart(report));
  const rows = seriesRows(m, report.findings);
  if (m.series.some((s) => s.dumps.length > 1)) out.push('<h2>Series timeline</h2>', seriesTimeline(m, rows, STATE_COLOURS));
  if (m.dumps.length > 0) out.push('<h2>Stacks (flame graph)</h2>', flameGraphs(m));
  const pools = poolRows(m.executors);
  if (pools.length > 0 || m.connectionPools.length > 0) {
    out.push('<h2>Pools</h2>');
    // A table only for what has rows (an incident with connection pools and no thread pool drew an empty one).
    if (pools.length > 0) {
      out.push('<table><tr><th>pool</th><th>dumps</th><th>workers</th><th>busy</th><th>queue</th></tr>');
      for (const p of pools.slice(0, POOL_ROWS))
        out.push(
          `<tr><td>${esc(p.name)}</td><td>${esc(dumpsText(p.dumps))}</td><td>${esc(acrossDumps(p.workers))}` +
            `</td><td>${esc(acrossDumps(p.busy))}</td><td>${p.queue !== undefined ? esc(p.queue) : ''}</td></tr>`,
        );
      if (pools.length > POOL_ROWS) out.push(`<tr><td colspan="5">… ${pools.length - POOL_ROWS} more pools (every one in the JSON report)</td></tr>`);
      out.push('</table>');
    }
    if (m.connectionPools.length > 0) {
      out.push('<table><tr><th>connection pool</th><th>width</th><th>leased</th><th>idle</th><th>pending</th><th>threads waiting</th></tr>');
      for (const p of m.connectionPools)
        out.push(
          `<tr><td>${esc(p.name)}</td><td>${p.width ?? '?'}</td><td>${p.leased ?? '?'}</td><td>${p.idle ?? '?'}</td>` +
            `<td>${p.pending ?? '?'}</td><td>${Math.max(0, ...p.waitingThreads.map((w) => w.threads.length))}</td></tr>`,
        );
      out.push('</table>');
    }
  }
  if (m.counters.length > 0) {
    out.push('<h2>Counters</h2><table><tr><th>counter</th><th>active</th><th>limit</th><th>threads inside</th></tr>');
    for (const c of m.counters)
      out.push(
        `<tr><td>${esc(c.name)}</td><td>${c.active}</td><td>${c.limit ?? ''}</td><td>${c.threadsInside.map((t) => t.count).join(' / ') || '?'}</td></tr>`,
      );
    out.push('</table>');
  }
  const locks = lockRows(m);
  const deadlocks = deadlockRows(m);
  if (locks.length > 0 || deadlocks.length > 0) {
    out.push('<h2>Locks</h2><ul>');
    for (const d of deadlocks)
      out.push(
        `<li><strong>deadlock</strong> (${esc(dumpsText(d.dumps))}${d.confidence === 'possible' ? ', possible' : ''})` +
          `: ${d.threads.map((t) => `<code>${esc(t)}</code>`).join(' → ')}</li>`,
      );
    for (const l of locks.slice(0, LOCK_ROWS))
      out.push(`<li>${esc(l.lock)} (${esc(dumpsText(l.dumps))}): owner ${esc(ownersText(l.owners))}, ${esc(acrossDumps(l.waiting))} waiting</li>`);
    if (locks.length > LOCK_ROWS) out.push(`<li class="muted">… ${locks.length - LOCK_ROWS} more contended locks (every one in the JSON report)</li>`);
    out.push('</ul>');
  }
  for (const sec of memorySections(m.memory)) out.push(memoryBlock(sec));
  const groups = groupRows(m);
  if (groups.length > 0) {
    out.push('<h2>Thread groups</h2>');
    for (const g of groups.slice(0, GROUP_ROWS)) {
      // Threads without a name (virtual threads usually have none) are counted, not listed as empty names.
      const named = g.threads.filter((t) => t.name !== '');
      const unnamed = g.threads.length - named.length;
      const names =
        named
          .slice(0, GROUP_NAMES)
          .map((t) => esc(t.name))
          .join(', ') +
        (named.length > GROUP_NAMES ? ` <span class="muted">… and ${named.length - GROUP_NAMES} more</span>` : '') +
        (unnamed > 0 ? `${named.length > 0 ? '; ' : ''}${countOf(unnamed, 'thread')} without a name` : '');
      const dumpsNote = `<span class="muted">(${esc(dumpsText(g.dumps))})</span>`;
      const summary = `${esc(acrossDumps(g.counts))} × ${esc(g.state)} ${esc(g.topFrames[0] ?? '(no stack)')} ${dumpsNote}`;
      const frames = g.topFrames.map((f) => `at ${esc(f)}`).join('\n');
      const framesCutNote =
        g.topFrames.length === STACK_FRAMES_SHOWN
          ? '\n<span class="muted">… the top 8 frames; the flame graph and the JSON report have the whole stack</span>'
          : '';
      // A group with no stack has no frames to show: no empty block under it.
      const stack = g.topFrames.length > 0 ? `<pre>${frames}${framesCutNote}</pre>` : '';
      out.push(`<details><summary>${summary}</summary>${stack}<p class="muted">${names}</p></details>`);
    }
    if (groups.length > GROUP_ROWS) out.push(`<p class="muted">… ${groups.length - GROUP_ROWS} more thread groups (every one in the JSON report)</p>`);
  }
  out.push(`<p class="muted">${esc(`dumpsleuth ${report.tool.version}`)}</p></body></html>`, '');
  return out.join('\n');
}
