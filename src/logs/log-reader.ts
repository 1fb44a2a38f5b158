/**
 * A log read line by line for what dumpsleuth knows in it: the known lines of known-lines.ts and the
 * `top -H` samples of top-threads.ts, summed up as an input of the analysis. The caller opens the file
 * and hands over its lines (analysis/load-log.ts); nothing here reads a file.
 */
import { countText } from '../model/count-text.js';
import { type CpuSampleModel, type InputSummary, type LogEventModel, TOP_CAPTURE_FORMAT } from '../model/model.js';
import { KnownLineCollector } from './known-lines.js';
import { TopThreadsCollector } from './top-threads.js';

/** A log's known lines and `top -H` samples. */
export interface LoadedLog {
  readonly summary: InputSummary;
  readonly events: LogEventModel[];
  readonly cpuSamples: CpuSampleModel[];
}

/** How the file was read, for the log's summary. */
export interface LogReading {
  readonly gzip: boolean;
  readonly encoding: string;
  readonly warnings: readonly string[];
  /** Why it was not read whole, when it was not. */
  readonly cut?: string;
}

export class LogReader {
  private readonly known: KnownLineCollector;
  private readonly top: TopThreadsCollector;
  private lines = 0;
  /** The first line that is not blank: what tells an application's log from other text. */
  firstLine: string | undefined;

  constructor(private readonly path: string) {
    this.known = new KnownLineCollector(path);
    this.top = new TopThreadsCollector(path);
  }

  push(line: string): void {
    if (this.firstLine === undefined && line.trim() !== '') this.firstLine = line;
    this.known.push(line, ++this.lines);
    this.top.push(line, this.lines);
  }

  /**
   * The log; undefined when nothing in it is known and `keepUnknown` is false (then it is no log
   * dumpsleuth can use). An application's log in an incident is kept even so: it was read, and the
   * report says so ("read, nothing known in it").
   */
  finish(reading: LogReading, keepUnknown: boolean): LoadedLog | undefined {
    const cpuSamples = this.top.finish();
    if (this.known.matched === 0 && cpuSamples.length === 0 && !keepUnknown) return undefined;
    const format = cpuSamples.length === 0 ? 'log' : this.known.matched === 0 ? TOP_CAPTURE_FORMAT : `log+${TOP_CAPTURE_FORMAT}`;
    const events = this.known.events();
    const found = [...foundInLog(events), ...(cpuSamples.length > 0 ? [`${cpuSamples.length} top -H sample${cpuSamples.length === 1 ? '' : 's'}`] : [])];
    return {
      summary: {
        path: this.path,
        kind: 'log',
        format,
        gzip: reading.gzip,
        encoding: reading.encoding,
        dumps: 0,
        threads: 0,
        unparsedLines: 0,
        outsideLines: this.lines - this.known.matched - this.top.matched,
        warnings: [...reading.warnings],
        found,
        ...(reading.cut !== undefined ? { cut: reading.cut } : {}),
      },
      events,
      cpuSamples,
    };
  }
}

/** How a log's known lines are counted for the user, by kind. */
const LOG_EVENT_WORDS: Readonly<Record<LogEventModel['kind'], readonly [string, string]>> = {
  'dubbo-pool-exhausted': ['Dubbo pool-exhausted line', 'Dubbo pool-exhausted lines'],
  'dubbo-executes-rejected': ['Dubbo executes rejection', 'Dubbo executes rejections'],
  'dubbo-actives-timeout': ['Dubbo actives timeout', 'Dubbo actives timeouts'],
  'hung-thread-reported': ['hung-thread report', 'hung-thread reports'],
  'hung-thread-recovered': ['recovery of a reported thread', 'recoveries of reported threads'],
  'server-pool-full': ['pool-full report', 'pool-full reports'],
};

/** What a log's events add up to, per kind: `40 Dubbo executes rejections`, `2 hung-thread reports`. */
function foundInLog(events: readonly LogEventModel[]): string[] {
  const byKind = new Map<LogEventModel['kind'], number>();
  for (const e of events) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + e.count);
  return [...byKind].map(([kind, n]) => `${countText(n)} ${LOG_EVENT_WORDS[kind][n === 1 ? 0 : 1]}`);
}
