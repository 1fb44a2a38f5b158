/** How a long read tells whoever shows progress how far it got: every layer reports in this shape. */
export interface ProgressEvent {
  readonly phase: string;
  readonly bytesRead: number;
  readonly totalBytes?: number;
}

export type ProgressListener = (e: ProgressEvent) => void;
