import type { ProgressEvent } from '../model/progress.js';
/** A single throttled progress line on stderr, only for people watching a terminal. */

export interface ProgressLine {
  update(label: string, e: ProgressEvent): void;
  clear(): void;
}

export function progressLine(enabled: boolean, stream: NodeJS.WriteStream): ProgressLine {
  let last = 0;
  let drawn = false;
  return {
    update(label, e) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const mb = (e.bytesRead / 1048576).toFixed(1);
      const pct = e.totalBytes ? ` ${Math.min(100, Math.round((100 * e.bytesRead) / e.totalBytes))}%` : '';
      stream.write(`\r\u001b[2K${label}: ${mb} MB${pct}`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
