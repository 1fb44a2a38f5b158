/** How a long read tells whoever shows progress how far it got: every layer reports in this shape. */
export interface ProgressEvent {
  readonly phase: string;
  readonly bytesRead: number;
  readonly totalBytes?: number;
}

export type ProgressListener = (e: ProgressEvent) => void;

/**
 * How many bytes a pass reads between two progress reports: a hundredth of what it reads, at least
 * 1 MiB and at most 32 MiB, so a 30 MB heap moves the bar as a 3 GB one does (the screens throttle
 * what they draw; a report is only a call).
 */
export function progressStep(totalBytes: number): number {
  return Math.min(32 * 1024 * 1024, Math.max(1024 * 1024, Math.floor(totalBytes / 100)));
}
