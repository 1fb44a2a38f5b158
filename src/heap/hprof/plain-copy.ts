/**
 * A decompressed copy of a gzip heap dump in the temp directory, written during the first pass, so
 * the loader can read single blocks instead of inflating the whole file again for every level of
 * references. Bounded: past MAX_COPY_BYTES (or on any write error) the copy is dropped and the loader
 * falls back to further passes.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAX_COPY_BYTES = 4 * 1024 * 1024 * 1024;

export class PlainCopy {
  private fd: number | undefined;
  private readonly dir: string | undefined;
  private readonly path: string | undefined;
  private written = 0;

  constructor(private readonly limit = MAX_COPY_BYTES) {
    try {
      this.dir = mkdtempSync(join(tmpdir(), 'dumpsleuth-heap-'));
      this.path = join(this.dir, 'heap.hprof');
      this.fd = openSync(this.path, 'w');
    } catch {
      this.fd = undefined;
    }
  }

  write(chunk: Buffer): void {
    if (this.fd === undefined) return;
    if (this.written + chunk.length > this.limit) return this.abandon();
    try {
      writeSync(this.fd, chunk);
      this.written += chunk.length;
    } catch {
      this.abandon();
    }
  }

  /** The copy's path when it is complete, else undefined. */
  finish(): string | undefined {
    if (this.fd === undefined) return undefined;
    closeSync(this.fd);
    this.fd = undefined;
    return this.path;
  }

  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }

  private abandon(): void {
    this.remove();
  }
}
