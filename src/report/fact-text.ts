/**
 * A finding's facts as a person reads them: a label in words and a value with its unit, numbers
 * rounded for reading, nothing for a fact that is null, false or empty (the message says what is
 * not so). The machine keys stay as they are in the JSON report; this is what text, Markdown, HTML
 * and the UI print. Labels are data: a key without one reads as its words (`queueSize`: queue size),
 * and a key's unit comes from its ending (`…Seconds`, `…Ms`, `…Bytes`, `…PerSecond`).
 */
import { approximateBytes } from '../model/bytes.js';
import { countText } from '../model/count-text.js';
import { durationText } from '../model/duration-text.js';
import type { FactValue } from '../model/findings.js';

export interface FactRow {
  /** The machine key, as the JSON report has it. */
  readonly key: string;
  readonly label: string;
  readonly value: string;
}

type Facts = Readonly<Record<string, FactValue>>;

interface FactLabel {
  readonly label: string;
  /** The value as it reads; by default from the key's unit. */
  readonly value?: (v: FactValue, facts: Facts) => string;
  /** Said by another fact's value (its qualifier, its basis): not a row of its own. */
  readonly hidden?: boolean;
}

/** Facts whose key does not say what they are in words, or whose value reads better with another fact. */
const LABELS: Readonly<Record<string, FactLabel>> = {
  drainSeconds: {
    label: 'drain time',
    value: (v, f) =>
      `${f['drainSecondsIs'] === 'an upper bound' ? '≤ ' : ''}${durationText(Number(v))}` +
      (typeof f['drainTasksPerSecond'] === 'number' ? ` at ${rounded(f['drainTasksPerSecond'])} tasks/s` : '') +
      (typeof f['drainBasis'] === 'string' ? ` (${f['drainBasis']})` : ''),
  },
  drainSecondsIs: { label: '', hidden: true },
  drainTasksPerSecond: { label: 'drain rate', value: (v, f) => (typeof f['drainSeconds'] === 'number' ? '' : `${rounded(Number(v))} tasks/s`) },
  drainBasis: { label: 'drain rate measured from', value: (v, f) => (typeof f['drainSeconds'] === 'number' ? '' : String(v)) },
  cpuMsDelta: { label: 'CPU used between the first and last dump', value: (v) => millisecondsText(Number(v)) },
  spanSeconds: { label: 'time between the first and last dump', value: (v) => durationText(Number(v)) },
  coreShare: { label: 'CPU', value: (v) => `${rounded(Number(v) * 100)} % of a core` },
  coresTogether: { label: 'CPU of them all', value: (v) => `${rounded(Number(v))} cores` },
  sameInEveryDump: { label: 'the same in every dump' },
  activityReason: { label: 'why it counts as it does' },
  topActivity: { label: 'what most of them do' },
  topActivityThreads: { label: 'threads doing it' },
  topFrame: { label: 'top frame' },
  threadCount: { label: 'threads' },
  waiterCount: { label: 'threads waiting' },
  maxTotal: { label: 'max total' },
  queueCapacity: { label: 'queue capacity' },
  queueSize: { label: 'queue' },
  queueLength: { label: 'queue' },
  busyWorkers: { label: 'busy workers' },
  maxWorkers: { label: 'max workers' },
  downstreamWidth: { label: 'width of the pool downstream' },
  exhaustedLogLines: { label: '"pool exhausted" lines logged' },
  rejectionsLogged: { label: 'rejections logged' },
  source: { label: 'read from' },
  poolKind: { label: 'pool' },
  counterKind: { label: 'counter' },
  limitSource: { label: 'limit set by' },
  serviceActive: { label: 'in flight (the counter)' },
  requestsInFlight: { label: 'requests in flight (threads)' },
  heldUpCount: { label: 'threads held up' },
  reportedByJvm: { label: 'reported by the JVM' },
  recoveredReports: { label: 'reports recovered' },
  asyncQueueFull: { label: 'async queue full' },
  takingTurns: { label: 'taking turns' },
  nativeId: { label: 'native id' },
  highestNumber: { label: 'highest number' },
  idleThreads: { label: 'idle threads' },
  // Dump numbers, not a count: `dumps: 0` read as "no dumps".
  dumps: { label: 'in dumps', value: (v) => (Array.isArray(v) ? v : [v]).map((d) => (typeof d === 'number' ? `#${d}` : String(d))).join(', ') },
};

/** The facts a person reads, in the rule's order. */
export function factRows(facts: Facts): FactRow[] {
  const rows: FactRow[] = [];
  for (const [key, v] of Object.entries(facts)) {
    if (v === null || v === false || (Array.isArray(v) && v.length === 0)) continue;
    const known = LABELS[key];
    if (known?.hidden === true) continue;
    const value = known?.value !== undefined ? known.value(v, facts) : valueText(key, v);
    if (value === '') continue;
    rows.push({ key, label: known?.label ?? words(key), value });
  }
  return rows;
}

/** `queueSize` → `queue size`, `cpuMsDelta` → `cpu ms delta`. */
function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function valueText(key: string, v: FactValue): string {
  if (v === true) return 'yes';
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'number' ? rounded(x) : String(x))).join(', ');
  if (typeof v !== 'number') return String(v);
  if (key.endsWith('Seconds')) return durationText(v);
  if (key.endsWith('Ms') || key.endsWith('MsDelta')) return millisecondsText(v);
  if (key.endsWith('Bytes')) return approximateBytes(v);
  if (key.endsWith('PerSecond')) return `${rounded(v)}/s`;
  return Number.isInteger(v) ? countText(v) : rounded(v);
}

/** Three significant digits at most, no trailing zeros: 1.25, 0.999, 2228. */
function rounded(n: number): string {
  if (Number.isInteger(n)) return countText(n);
  const r = Math.abs(n) >= 100 ? Math.round(n) : Number(n.toPrecision(3));
  return String(r);
}

function millisecondsText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${rounded(ms / 1000)} s`;
}
