/**
 * Per-thread CPU from `top -H -b` output (procps), as an on-call engineer takes it beside thread
 * dumps: each frame (`top - 01:13:20 up ...`, then a `PID USER ... %CPU ... TIME+ COMMAND` header
 * and one row per thread) becomes one sample. A thread's PID is its native id, which dumps print
 * as `nid=0x3c05`. Pure: lines in, samples out. Columns are found by their header, so `top`
 * configured with other fields still reads.
 */
import type { CpuSampleModel } from '../model/model.js';

/** `144:51.95` (minutes:seconds.hundredths), `1234:56` (hours past 999 minutes: `h:mm`), `12,34` in some locales. */
function timePlusSeconds(text: string): number | undefined {
  const m = /^(\d+):(\d+)(?:[.,](\d+))?$/.exec(text);
  if (m === null) return undefined;
  if (m[3] === undefined) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  return Number(m[1]) * 60 + Number(m[2]) + Number(`0.${m[3]}`);
}

export class TopThreadsCollector {
  private readonly samples: CpuSampleModel[] = [];
  private current: { takenAt?: string; line: number; threads: CpuSampleModel['threads'] } | undefined;
  private pendingTime: { text: string; line: number } | undefined;
  private columns: { pid: number; cpu: number; time: number; command: number } | undefined;
  /** Rows read, for the input's summary. */
  matched = 0;

  constructor(private readonly source: string) {}

  push(line: string, lineNo: number): void {
    const head = /^top - (\d{1,2}:\d{2}:\d{2})\b/.exec(line);
    if (head !== null) {
      this.end();
      this.pendingTime = { text: head[1]!, line: lineNo };
      return;
    }
    if (this.columns === undefined || this.current === undefined) {
      if (/^\s*PID\s/.test(line) && line.includes('%CPU') && line.includes('COMMAND')) this.startSample(line, lineNo);
      return;
    }
    const cells = line.trim().split(/\s+/);
    if (line.trim() === '' || !/^\d+$/.test(cells[0] ?? '')) {
      this.end();
      return;
    }
    const c = this.columns;
    const pid = Number(cells[c.pid]);
    const cpuPercent = Number((cells[c.cpu] ?? '').replace(',', '.'));
    if (!Number.isFinite(pid) || !Number.isFinite(cpuPercent)) return;
    const cpuSeconds = c.time >= 0 ? timePlusSeconds(cells[c.time] ?? '') : undefined;
    this.current.threads.push({
      nativeId: `0x${pid.toString(16)}`,
      pid,
      cpuPercent,
      ...(cpuSeconds !== undefined ? { cpuSeconds } : {}),
      command: cells.slice(c.command).join(' '),
      line: lineNo,
    });
    this.matched++;
  }

  private startSample(header: string, lineNo: number): void {
    const names = header.trim().split(/\s+/);
    const at = (name: string) => names.indexOf(name);
    if (at('PID') < 0 || at('%CPU') < 0) return;
    this.columns = { pid: at('PID'), cpu: at('%CPU'), time: at('TIME+'), command: Math.max(0, at('COMMAND')) };
    this.current = { ...(this.pendingTime !== undefined ? { takenAt: this.pendingTime.text } : {}), line: this.pendingTime?.line ?? lineNo, threads: [] };
    this.pendingTime = undefined;
  }

  private end(): void {
    if (this.current !== undefined && this.current.threads.length > 0) this.samples.push({ source: this.source, ...this.current });
    this.current = undefined;
    this.columns = undefined;
  }

  /** The samples, in the order the file has them. */
  finish(): CpuSampleModel[] {
    this.end();
    return this.samples;
  }
}
