/**
 * Turns the Model and the findings into the UI's screens: one-line rows with detail panes and links.
 * Every string from a dump goes through stripControl here, once, so components only draw.
 */
import { countOf } from '../model/count-text.js';
import type { Evidence, FactValue, Finding } from '../model/findings.js';
import type { Model, ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { type CausalSummary, causalSummary, walkCauses } from '../report/causal-summary.js';
import { codeHeader, codeLines, threadsWithCode } from '../report/code-lines.js';
import { completenessHeading, completenessLines, completenessOf, notesBelow } from '../report/completeness.js';
import { type FactRow, factRows } from '../report/fact-text.js';
import { heapSizeText } from '../report/heap-size-text.js';
import { inputKindText, inputLineParts } from '../report/input-line.js';
import { quoteLogLine } from '../report/log-quote.js';
import { stripControl } from '../report/sanitize.js';
import { seriesMarkText, seriesRows } from '../report/series-rows.js';
import { sourceAt } from '../report/source-location.js';
import { threadNameText } from '../report/thread-name.js';
import { activityFrame } from '../threads/thread-activity.js';
import { callsScreen } from './calls-screen.js';
import { type GrowthOutcome, growthOverviewRow, growthScreen } from './growth-screen.js';
import { memoryRowKey, memoryScreen } from './memory-screen.js';
import { fit } from './state/layout.js';
import type { Tone, UiData, UiDetailLine, UiRow, UiScreen } from './view-data.js';

/** Dump text made safe for one terminal line (stripControl already turns breaks and tabs into spaces). */
const clean = stripControl;
/** What `/` matches: the same cleaned text, in lower case. */
const searchText = (s: string): string => clean(s).toLowerCase();

/**
 * A name in a column of its own: cut to the column (marked `…`) and padded, so that what follows it
 * on the row (a thread's states across dumps, a pool's counts) is where every row has it, whatever the
 * name's length. The whole name is in the row's detail and search.
 */
function nameColumn(name: string, width: number): string {
  return fit(clean(name), width).padEnd(width);
}

/** A thread row's key: dump and index (lines do not identify threads in JSON or heap inputs). */
function threadKey(dump: number, index: number): string {
  return `${dump}:${index}`;
}

function threadLink(ref: ThreadRef): UiDetailLine {
  return { text: `  → "${clean(ref.name)}" (dump #${ref.dump})`, link: { screen: 'threads', key: threadKey(ref.dump, ref.thread) } };
}

/** Where a heap object of a finding's evidence sits on the Memory screen, when it has a row there. */
type MemoryRowOf = (source: string, id: string) => string | undefined;

function evidenceLine(e: Evidence, memoryRowOf: MemoryRowOf): UiDetailLine {
  const note = e.note ? ` (${clean(e.note)})` : '';
  switch (e.kind) {
    case 'thread':
      return {
        text: `  → ${threadNameText(e.thread, (n) => `"${clean(n)}"`)} ${clean(sourceAt(e.source, e.line))}${note}`,
        link: { screen: 'threads', key: threadKey(e.dump, e.index) },
      };
    case 'lock':
      return { text: `  lock <${clean(e.lock)}> ${clean(e.className)}${note}`, tone: 'dim' };
    case 'jvm-report':
      return { text: `  JVM deadlock report ${clean(e.source)}:${e.line}${note}`, tone: 'dim' };
    case 'heap-object': {
      const row = memoryRowOf(e.source, e.id);
      return {
        text: `  ${row !== undefined ? '→ ' : ''}heap object ${clean(e.id)} ${clean(e.className)}${note}`,
        ...(row !== undefined ? { link: { screen: 'memory', key: row } } : { tone: 'dim' }),
      };
    }
    case 'log':
      return { text: `  log ${clean(e.source)}:${e.line}: ${clean(quoteLogLine(e.text, 200))}${note}`, tone: 'dim' };
  }
}

/**
 * A fact's line; one whose value is the name of a thread of the finding's evidence (a lock's owner,
 * the thread an appender waits for) opens that thread, as its evidence line does. Only a fact that
 * is a name (a string, or a list of one): a count that reads like a thread's name is no thread.
 */
function factLine(row: FactRow, raw: FactValue | undefined, threadsOf: ReadonlyMap<string, Extract<Evidence, { kind: 'thread' }>>): UiDetailLine {
  const { label, value } = row;
  const name = typeof raw === 'string' ? raw : Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : undefined;
  const thread = name !== undefined ? threadsOf.get(name) : undefined;
  return thread !== undefined
    ? { text: `  → ${label}: ${clean(value)}`, link: { screen: 'threads', key: threadKey(thread.dump, thread.index) } }
    : { text: `  ${label}: ${clean(value)}` };
}

function findingRow(f: Finding, memoryRowOf: MemoryRowOf): UiRow {
  // Each thread of the evidence by name, its first line (the newest dump's, where the rule cites several) kept.
  const threadsOf = new Map<string, Extract<Evidence, { kind: 'thread' }>>();
  for (const e of f.evidence) if (e.kind === 'thread' && !threadsOf.has(e.thread)) threadsOf.set(e.thread, e);
  // A long list by its first 8 items and how many more (the JSON report has it all).
  const facts = factRows(
    Object.fromEntries(Object.entries(f.facts).map(([k, v]) => [k, Array.isArray(v) && v.length > 8 ? [...v.slice(0, 8), `… ${v.length - 8} more`] : v])),
  );
  const detail: UiDetailLine[] = [
    { text: `${f.severity.toUpperCase()} ${f.rule}: ${clean(f.subject)}`, tone: f.severity },
    { text: clean(f.message) },
    { text: '' },
    { text: 'facts', tone: 'title' },
    ...facts.map((r) => factLine(r, f.facts[r.key], threadsOf)),
  ];
  // The cause and the remedy before the evidence: a long evidence list must not push them out of sight.
  if (f.causedBy.length > 0) {
    detail.push({ text: '' }, { text: 'caused by', tone: 'title' });
    for (const c of f.causedBy) detail.push({ text: `  → ${clean(c)}`, link: { screen: 'findings', key: c } });
  }
  detail.push({ text: '' }, { text: 'what to do', tone: 'title' }, { text: clean(f.remedy), tone: 'ok' });
  // The code of the threads the rule names: the thread (a link to it), its frames down to the application's, the locks.
  const coded = threadsWithCode(f.evidence);
  if (coded.length > 0) {
    detail.push({ text: '' }, { text: 'code', tone: 'title' });
    for (const e of coded) {
      detail.push({ text: `  → ${clean(codeHeader(e))}`, link: { screen: 'threads', key: threadKey(e.dump, e.index) } });
      for (const c of codeLines(e, true)) detail.push({ text: `      ${clean(c.text)}`, ...(c.application === true ? {} : { tone: 'dim' as const }) });
    }
  }
  detail.push({ text: '' }, { text: 'evidence', tone: 'title' }, ...f.evidence.map((e) => evidenceLine(e, memoryRowOf)));
  return {
    key: f.id,
    text: `${f.severity.toUpperCase().padEnd(8)} ${f.rule.padEnd(27)} ${clean(f.subject)}`,
    tone: f.severity,
    search: searchText(`${f.rule} ${f.subject} ${f.message}`),
    detail,
  };
}

/** A thread's frames, shared by every thread of its stack group (their lock lines differ, so they are the thread's own). */
function frameLines(th: ThreadEntry): UiDetailLine[] {
  if (th.frames.length === 0) return [];
  return [{ text: 'stack', tone: 'title' }, ...th.frames.map((f) => ({ text: `  at ${clean(f.qualified)}(${clean(f.location)})` }))];
}

/** What a thread holds and waits for, frame by frame: the part of its stack that is its own. */
function lockLines(th: ThreadEntry): UiDetailLine[] {
  const lines: UiDetailLine[] = [];
  for (const l of th.locks)
    if (l.lock)
      lines.push({ text: `  ${l.kind} <${clean(l.lock.id)}> ${clean(l.lock.className)} at ${clean(th.frames[l.frameIndex]?.qualified ?? '?')}`, tone: 'dim' });
  for (const s of th.ownableSynchronizers) lines.push({ text: `  holds <${clean(s.id)}> ${clean(s.className)}`, tone: 'dim' });
  return lines;
}

/** What a thread's row knows of its stack group. */
interface StackGroupPlace {
  /** The frame the group is doing its work in. */
  readonly top: string;
  /** Threads in the group, a thread of a series once however many of its dumps it is in. */
  readonly size: number;
  /** The group's frames, one array for all its rows. */
  readonly stack: readonly UiDetailLine[];
}

/**
 * One thread's row, its text, search text and detail made when first read: a dump of 200,000
 * threads shows a screenful of them and opens a few, and making all their strings up front took
 * longer than the analysis (most of it in the garbage collector).
 */
class ThreadRow implements UiRow {
  readonly more: readonly UiDetailLine[];
  /** Under a group: one object shared by the group's rows (they all say the same). */
  readonly tree?: UiRow['tree'];
  #key: string | undefined;
  #text: string | undefined;
  #search: string | undefined;

  readonly #model: Model;
  readonly #ref: ThreadRef;
  readonly #group: StackGroupPlace;

  constructor(model: Model, ref: ThreadRef, group: StackGroupPlace, tree: UiRow['tree'] | undefined) {
    this.#model = model;
    this.#ref = ref;
    this.#group = group;
    this.more = group.stack;
    if (tree !== undefined) this.tree = tree;
  }

  get key(): string {
    return (this.#key ??= threadKey(this.#ref.dump, this.#ref.thread));
  }

  get tone(): Tone | undefined {
    return this.#thread.state === 'BLOCKED' ? 'warning' : undefined;
  }

  get #thread(): ThreadEntry {
    return this.#model.dumps[this.#ref.dump]!.threads[this.#ref.thread]!;
  }

  get #verdict() {
    return this.#model.activity[this.#ref.dump]![this.#ref.thread]!;
  }

  get text(): string {
    if (this.#text === undefined) {
      const th = this.#thread;
      const head = `#${this.#ref.dump} ${nameColumn(th.name, 48)} ${th.state.padEnd(13)}`;
      // Under its group the stack is the group's; alone, the row says where it is.
      this.#text =
        this.tree !== undefined ? `${head} ${this.#verdict.activity}` : `${head} ${this.#verdict.activity.padEnd(12)} ×1    ${clean(this.#group.top)}`;
    }
    return this.#text;
  }

  get search(): string {
    if (this.#search === undefined) {
      const th = this.#thread;
      // A group's row is found by its frames; a thread under it by its name.
      this.#search = searchText(
        `${th.name} ${th.state} ${this.#verdict.activity}${this.tree === undefined ? ` ${th.frames.map((f) => f.qualified).join(' ')}` : ''}`,
      );
    }
    return this.#search;
  }

  get detail(): readonly UiDetailLine[] {
    const th = this.#thread;
    const verdict = this.#verdict;
    return [
      { text: `"${clean(th.name)}" ${th.state}${th.stateDetail ? ` (${clean(th.stateDetail)})` : ''}`, tone: 'title' },
      // Why dumpsleuth calls it idle, working, blocked or housekeeping: the verdict every rule reads.
      { text: `  ${verdict.activity}: ${clean(verdict.reason)}`, ...(verdict.activity === 'blocked' ? { tone: 'warning' as Tone } : {}) },
      {
        text:
          `  dump #${this.#ref.dump} ${clean(sourceAt(this.#model.dumps[this.#ref.dump]!.source, th.line))}; ` +
          `${this.#group.size === 1 ? 'the only thread with this stack' : `one of ${this.#group.size} threads with this stack`}`,
        tone: 'dim',
      },
      ...lockLines(th),
    ];
  }
}

/**
 * Threads grouped by identical stack (the same state and frames) across every dump, biggest group
 * first: a pool's 200 parked workers are one row, expanded with `+` to its threads. A group of one
 * is its thread's row. The group's row is what `/` finds by frame; its threads by name.
 */
function threadsScreen(model: Model): UiScreen {
  const threadOf = seriesThreadIds(model);
  interface Group {
    readonly refs: ThreadRef[];
    readonly dumps: Set<number>;
  }
  const groups = new Map<string, Group>();
  for (const g of model.threadGroups) {
    const first = model.dumps[g.dump]!.threads[g.threads[0]!.thread]!;
    // Built once per group of a dump (a few hundred), not per thread.
    const key = `${g.state}\n${first.frames.map((f) => f.qualified).join('\n')}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { refs: [], dumps: new Set() }));
    group.refs.push(...g.threads);
    group.dumps.add(g.dump);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => b.refs.length - a.refs.length || a.refs[0]!.dump - b.refs[0]!.dump || a.refs[0]!.thread - b.refs[0]!.thread,
  );
  const rows: UiRow[] = [];
  ordered.forEach((group, n) => {
    // In dump and thread order already, unless stacks that differ only in lines were merged.
    const inOrder = group.refs.every(
      (r, i) => i === 0 || r.dump > group.refs[i - 1]!.dump || (r.dump === group.refs[i - 1]!.dump && r.thread > group.refs[i - 1]!.thread),
    );
    const refs = inOrder ? group.refs : [...group.refs].sort((a, b) => a.dump - b.dump || a.thread - b.thread);
    const first = model.dumps[refs[0]!.dump]!.threads[refs[0]!.thread]!;
    // What the thread is doing, not the JDK's parking machinery above it.
    const top = first.frames.length > 0 ? activityFrame(first) : '(no stack)';
    const stack = frameLines(first);
    const dumps = [...group.dumps].sort((a, b) => a - b);
    // 39 threads seen in 3 dumps are 39 threads, not 117: a row a dump, a count of threads.
    const threads = new Set(refs.map((r) => threadOf[r.dump]![r.thread]!)).size;
    const place: StackGroupPlace = { top, size: threads, stack };
    const threadRow = (ref: ThreadRef, tree: UiRow['tree'] | undefined): UiRow => new ThreadRow(model, ref, place, tree);
    if (refs.length === 1) {
      rows.push(threadRow(refs[0]!, undefined));
      return;
    }
    const key = `stack:${n}`;
    const verdict = model.activity[refs[0]!.dump]![refs[0]!.thread]!;
    // The same stack in several dumps: how many threads each dump has in it, when they agree.
    const perDump = dumps.map((d) => refs.filter((r) => r.dump === d).length);
    const where =
      dumps.length === 1
        ? `dump #${dumps[0]}`
        : perDump.every((c) => c === perDump[0])
          ? `${dumps.length} dumps, ${perDump[0]} in each`
          : `${dumps.length} dumps`;
    rows.push({
      key,
      text: `×${String(threads).padEnd(5)} ${first.state.padEnd(13)} ${verdict.activity.padEnd(12)} ${clean(top)}  (${where})`,
      tone: first.state === 'BLOCKED' ? 'warning' : undefined,
      search: searchText(`${first.state} ${verdict.activity} ${first.frames.map((f) => f.qualified).join(' ')}`),
      detail: [
        { text: `${countOf(threads, 'thread')} ${first.state} with one stack, in ${where}`, tone: 'title' },
        { text: `  ${verdict.activity}: ${clean(verdict.reason)}`, tone: verdict.activity === 'blocked' ? 'warning' : undefined },
        { text: '  + shows its threads', tone: 'dim' },
      ],
      more: stack,
      tree: { depth: 0, children: refs.length },
    });
    const underGroup: UiRow['tree'] = { depth: 1, parent: key, children: 0 };
    for (const ref of refs) rows.push(threadRow(ref, underGroup));
  });
  // The tab counts threads, as the groups do: one seen in three dumps is one.
  const count = new Set(model.dumps.flatMap((d, di) => d.threads.map((_, ti) => threadOf[di]![ti]!))).size;
  return { id: 'threads', title: 'Threads', rows, empty: 'No thread dump was given.', count };
}

/**
 * Per dump, per thread: a number naming the thread itself, the same in every dump of its series
 * (series.ts matched it by its identity), so a thread seen in three dumps is counted once.
 */
function seriesThreadIds(model: Model): Int32Array[] {
  let next = 0;
  const ids = model.dumps.map((d) => new Int32Array(d.threads.length).fill(-1));
  for (const s of model.series)
    for (const t of s.threads) {
      const id = next++;
      t.indexes.forEach((i, k) => {
        if (i !== null) ids[s.dumps[k]!]![i] = id;
      });
    }
  for (const a of ids) for (let i = 0; i < a.length; i++) if (a[i] === -1) a[i] = next++;
  return ids;
}

function executorsScreen(model: Model): UiScreen {
  const rows: UiRow[] = [];
  for (const e of model.executors) {
    const where = e.dump >= 0 ? `#${e.dump}` : 'heap';
    const h = e.heap;
    const queue = h ? ` queue ${h.queue.size ?? '?'}${h.queue.capacity !== null ? `/${h.queue.capacity}` : ''}` : '';
    const saturated = e.busy >= e.workers && e.workers > 0;
    rows.push({
      key: `executor:${where}:${e.name}`,
      text:
        `${where.padEnd(5)} ${nameColumn(e.name, 40)} workers ${String(e.workers).padStart(4)}` +
        ` busy ${String(e.busy).padStart(4)} idle ${String(e.idle).padStart(4)}${queue}`,
      tone: saturated ? 'warning' : undefined,
      search: searchText(`${e.name}`),
      detail: [
        { text: clean(e.name), tone: 'title' },
        ...(h
          ? [
              {
                text:
                  `  ${clean(h.object.className)} ${h.object.id}: ${h.runState}, core ${h.corePoolSize ?? '?'}` +
                  `, max ${h.maximumPoolSize ?? '?'}, completed ${h.completedTasks ?? '?'}`,
              },
              { text: `  queue ${clean(h.queue.className)}: ${h.queue.size ?? '?'} of ${h.queue.capacity ?? 'unbounded'}` },
            ]
          : []),
        ...e.busyActivities.slice(0, 5).map((a) => ({ text: `  ${a.count} × ${clean(a.frame)}`, tone: 'dim' as Tone })),
        { text: 'busy workers', tone: 'title' },
        ...e.busyThreads.slice(0, 200).map((t) => threadLink(t)),
      ],
    });
  }
  for (const p of model.connectionPools) {
    const waiting = Math.max(0, ...p.waitingThreads.map((w) => w.threads.length));
    const peak = p.waitingThreads.reduce((best, w) => (w.threads.length > best.length ? w.threads : best), [] as ThreadRef[]);
    rows.push({
      key: `pool:${p.name}`,
      text:
        `pool  ${nameColumn(p.name, 40)} width ${String(p.width ?? '?').padStart(4)} leased ${String(p.leased ?? '?').padStart(4)}` +
        ` waiting ${String(waiting).padStart(4)}${p.pending !== null ? ` pending ${p.pending}` : ''}`,
      tone: waiting > 0 || (p.pending ?? 0) > 0 ? 'alert' : undefined,
      search: searchText(`${p.name} ${p.kind}`),
      detail: [
        { text: `${clean(p.name)} (${p.kind}, from ${p.source === 'heap' ? 'the heap' : 'stacks only'})`, tone: 'title' },
        { text: `  width ${p.width ?? '?'}, max total ${p.maxTotal ?? '?'}, leased ${p.leased ?? '?'}, idle ${p.idle ?? '?'}, pending ${p.pending ?? '?'}` },
        { text: 'waiting threads', tone: 'title' },
        ...peak.slice(0, 200).map((t) => threadLink(t)),
      ],
    });
  }
  return { id: 'executors', title: 'Pools', rows, empty: 'No thread pool or connection pool was found.' };
}

function countersScreen(model: Model): UiScreen {
  const rows = model.counters.map((c): UiRow => {
    const inside = Math.max(0, ...c.threadsInside.map((t) => t.count));
    const leaking = c.limit !== null && c.active >= c.limit * 0.9 && c.threadsInside.length > 0 && inside <= c.active * 0.5;
    const busiest = [...c.threadsInside].sort((a, b) => b.count - a.count)[0];
    return {
      key: `counter:${c.name}`,
      text:
        `${nameColumn(c.name, 56)} active ${String(c.active).padStart(5)} limit ${String(c.limit ?? '-').padStart(5)}` +
        ` inside ${c.threadsInside.length > 0 ? String(inside).padStart(4) : '   ?'}${leaking ? '  LEAK' : ''}`,
      tone: leaking ? 'critical' : c.limit !== null && c.active >= c.limit ? 'warning' : undefined,
      search: searchText(c.name),
      detail: [
        { text: clean(c.name), tone: 'title' },
        { text: `  ${c.kind}, ${c.identity ? clean(c.identity) : ''}` },
        {
          text:
            `  active ${c.active}, limit ${c.limit ?? 'none'}${c.limitSource ? ` (${clean(c.limitSource)})` : ''}` +
            `, total ${c.total ?? '?'}, failed ${c.failed ?? '?'}`,
        },
        {
          text:
            `  threads inside per dump: ${c.threadsInside.map((t) => t.count).join(', ') || 'no thread dump of this JVM'}` +
            `; rejections in logs: ${c.rejectionsLogged}`,
        },
        // The threads of the dump with most inside; a heading only when there is one to list.
        ...(busiest !== undefined && busiest.threads.length > 0
          ? [{ text: `threads inside (dump #${busiest.dump})`, tone: 'title' as Tone }, ...busiest.threads.slice(0, 200).map((t) => threadLink(t))]
          : []),
        ...(busiest !== undefined && busiest.threads.length > 200 ? [{ text: `  … ${busiest.threads.length - 200} more`, tone: 'dim' as Tone }] : []),
      ],
    };
  });
  const heapGiven = model.inputs.some((i) => i.kind === 'heap');
  return {
    id: 'counters',
    title: 'Counters',
    rows,
    empty: heapGiven
      ? 'No in-flight counter was found in the heap dump (Dubbo RpcStatus, and the counters your config names).'
      : 'No in-flight counter was found (they come from a heap dump: give one beside the thread dumps).',
  };
}

function locksScreen(model: Model): UiScreen {
  const rows: UiRow[] = [];
  model.locks.deadlocks.forEach((d, i) => {
    rows.push({
      key: `deadlock:${i}`,
      text: `#${d.dump} DEADLOCK ${d.threads.map((t) => `"${clean(t.name)}"`).join(' → ')}`,
      tone: 'critical',
      search: searchText(d.threads.map((t) => t.name).join(' ')),
      detail: [{ text: `deadlock (${d.confidence}${d.reportedByJvm ? ', reported by the JVM' : ''})`, tone: 'title' }, ...d.threads.map((t) => threadLink(t))],
    });
  });
  model.locks.contended.forEach((l, i) => {
    // Every waiter's name, made when a search first reads it (a contended lock may have 40,000 waiters).
    let search: string | undefined;
    rows.push({
      key: `lock:${i}`,
      text: `#${l.dump} ${clean(l.lock.className)} <${clean(l.lock.id)}> owner ${l.owner ? `"${clean(l.owner.name)}"` : '?'} ← ${l.waiters.length} waiting`,
      tone: l.waiters.length >= 5 ? 'warning' : undefined,
      get search() {
        return (search ??= searchText(`${l.lock.className} ${l.owner?.name ?? ''} ${l.waiters.map((w) => w.name).join(' ')}`));
      },
      detail: [
        { text: `${clean(l.lock.className)} <${clean(l.lock.id)}>`, tone: 'title' },
        { text: 'owner', tone: 'title' },
        ...(l.owner ? [threadLink(l.owner)] : [{ text: '  (not named by the dump)', tone: 'dim' as Tone }]),
        { text: 'waiters', tone: 'title' },
        ...l.waiters.slice(0, 200).map((w) => threadLink(w)),
      ],
    });
  });
  return { id: 'locks', title: 'Locks', rows, empty: 'No lock has waiters.' };
}

/** Deadlocked and stuck threads first, marked; then those blocked in some dump, then those that changed (report/series-rows.ts). */
function seriesScreen(model: Model, findings: readonly Finding[]): UiScreen {
  const rows: UiRow[] = [];
  for (const { series: si, thread: t, mark } of seriesRows(model, findings)) {
    const s = model.series[si]!;
    {
      const states = t.states.map((x) => (x === null ? '-' : x.slice(0, 4))).join(' ');
      const marked = seriesMarkText(mark);
      rows.push({
        key: `series:${si}:${t.key}`,
        // The mark before the states: a series of many dumps has a states column wider than the screen.
        text: `${nameColumn(t.name, 48)} ${(marked !== '' ? marked : t.sameStack ? 'same stack' : '').padEnd(10)} ${states}`,
        tone: mark === 'deadlocked' ? 'error' : mark === 'stuck' ? 'warning' : undefined,
        search: searchText(t.name),
        detail: [
          { text: clean(t.name), tone: 'title' },
          ...t.indexes.flatMap((ti, pos) => {
            const dump = s.dumps[pos]!;
            return ti === null ? [{ text: `  dump #${dump}: not present`, tone: 'dim' as Tone }] : [threadLink({ dump, thread: ti, name: t.name })];
          }),
        ],
      });
    }
  }
  return { id: 'series', title: 'Series', rows, empty: 'A series needs several thread dumps of one JVM.' };
}

/**
 * The first screen is the answer: the summary of causes as every report opens with it (each root
 * cause, what it causes under it, what to do first; each line opens its finding), then the inputs
 * and dumps it was read from.
 */
function overviewScreen(model: Model, findings: readonly Finding[], growth: GrowthOutcome | undefined): UiScreen {
  const rows: UiRow[] = causeRows(causalSummary(findings));
  // What grew between the heap dumps, right under the answer: it is the proof of a leak.
  const grown = growthOverviewRow(growth);
  if (grown !== undefined) rows.push(grown);
  for (const i of model.inputs) {
    rows.push({
      key: `input:${i.path}`,
      text: `${clean(i.path)}: ${inputKindText(i)}${i.gzip ? ' (gzip)' : ''}${inputLineParts(i)
        .map((p) => `, ${clean(p.text)}`)
        .join('')}`,
      search: searchText(i.path),
      detail: [
        { text: clean(i.path), tone: 'title' },
        ...(i.heap !== undefined ? [{ text: `  ${heapSizeText(i.heap)}` }] : []),
        ...i.warnings.map((w) => ({ text: `  warning: ${clean(w)}`, tone: 'warning' as Tone })),
      ],
    });
  }
  model.dumps.forEach((d, di) => {
    rows.push({
      key: `dump:${di}`,
      text: `  dump #${di} ${clean(d.timestampIso ?? d.timestamp ?? '(no time)')} ${clean(d.jvm ?? '')} ${countOf(d.threads.length, 'thread')}`,
      tone: 'dim',
      search: '',
      detail: [{ text: `dump #${di} of ${clean(d.source)}, lines ${d.startLine}-${d.endLine}` }],
    });
  });
  if (findings.length === 0) rows.unshift({ key: 'none', text: 'No findings.', tone: 'ok', search: '', detail: [] });
  // As every report has it: the answer stands on part of the evidence, or some files were not read.
  const completeness = completenessOf(model);
  const heading = completenessHeading(completeness);
  if (heading !== undefined) {
    const lines = completenessLines(completeness).map(clean);
    // Evidence missing goes above the answer; stray files alone, below it with the notes.
    const row: UiRow = {
      key: 'completeness',
      text: `${heading}: ${lines[0]}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ''}`,
      tone: completeness.complete ? 'dim' : 'warning',
      search: '',
      detail: [{ text: heading, tone: 'title' }, ...lines.map((text) => ({ text: `  ${text}`, tone: (completeness.complete ? 'dim' : 'warning') as Tone }))],
    };
    if (completeness.complete) rows.push(row);
    else rows.unshift(row);
  }
  for (const n of notesBelow(model)) rows.push({ key: `note:${n}`, text: `note: ${clean(n)}`, tone: 'dim', search: '', detail: [{ text: clean(n) }] });
  return { id: 'overview', title: 'Overview', rows, empty: '' };
}

/** The summary's lines as rows: a finding's headline under its cause (`→`), its detail the message and a link to the finding. */
function causeRows(summary: CausalSummary): UiRow[] {
  const rows: UiRow[] = [];
  const findingLink = (f: Finding): UiDetailLine => ({ text: `  → the finding: ${f.rule} ${clean(f.subject)}`, link: { screen: 'findings', key: f.id } });
  for (const { node, depth } of walkCauses(summary.causes)) {
    const f = node.finding;
    const also = node.alsoCausedBy.map((c) => `${c.rule} ${clean(c.subject)}`);
    rows.push({
      key: `cause:${f.id}`,
      text: `${depth > 0 ? `${'  '.repeat(depth - 1)}→ ` : ''}${f.severity.toUpperCase().padEnd(8)} ${clean(f.headline)}`,
      tone: f.severity,
      search: searchText(`${f.rule} ${f.subject} ${f.headline}`),
      detail: [
        { text: `${f.severity.toUpperCase()} ${f.rule}: ${clean(f.subject)}`, tone: 'title' },
        { text: clean(f.message) },
        ...(also.length > 0 ? [{ text: `also caused by ${also.join('; ')}`, tone: 'dim' as Tone }] : []),
        findingLink(f),
      ],
    });
  }
  const first = summary.first;
  if (first !== undefined)
    rows.push({
      key: 'first',
      text: `First: ${clean(first.step)}`,
      tone: 'title',
      search: searchText(first.finding.remedy),
      detail: [{ text: 'what to do first', tone: 'title' }, { text: clean(first.finding.remedy) }, findingLink(first.finding)],
    });
  return rows;
}

/**
 * The screens; `growth`: what the UI made of the heap dumps it was given to compare, when there were
 * two or more (the Growth screen comes last, on key 0, so the other screens keep their keys).
 */
export function buildUiData(model: Model, findings: readonly Finding[], title: string, growth?: GrowthOutcome): UiData {
  const memory = memoryScreen(model.memory, findings);
  const memoryKeys = new Set(memory.rows.map((r) => r.key));
  const memoryRowOf: MemoryRowOf = (source, id) => {
    const heap = model.memory.findIndex((m) => m.input === source);
    const key = memoryRowKey(heap, id);
    return heap >= 0 && memoryKeys.has(key) ? key : undefined;
  };
  const grownScreen = growthScreen(growth, memoryRowOf);
  const findingsScreen: UiScreen = { id: 'findings', title: 'Findings', rows: findings.map((f) => findingRow(f, memoryRowOf)), empty: 'No findings.' };
  return {
    title: clean(title),
    screens: [
      overviewScreen(model, findings, growth),
      findingsScreen,
      threadsScreen(model),
      executorsScreen(model),
      countersScreen(model),
      locksScreen(model),
      seriesScreen(model, findings),
      memory,
      callsScreen(model),
      ...(grownScreen !== undefined ? [grownScreen] : []),
    ],
  };
}
