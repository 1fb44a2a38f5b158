/** Objects and bytes added up by holder, listed most bytes first. */
import type { WasteHolder } from '../../model/memory-waste.js';
import { isJdkHolder } from './holders.js';

export class HolderTally {
  private readonly byHolder = new Map<string, { objects: number; bytes: number }>();

  add(holder: string, bytes: number, objects = 1): void {
    const t = this.byHolder.get(holder);
    if (t === undefined) this.byHolder.set(holder, { objects, bytes });
    else {
      t.objects += objects;
      t.bytes += bytes;
    }
  }

  /** Every holder, bytes rounded to whole bytes. */
  entries(): WasteHolder[] {
    return [...this.byHolder].map(([holder, t]) => ({ holder, objects: t.objects, wastedBytes: Math.round(t.bytes), jdk: isJdkHolder(holder) }));
  }

  /** The `n` holders with the most bytes (then the most objects, then by name). */
  top(n: number): WasteHolder[] {
    return this.entries()
      .sort((a, b) => b.wastedBytes - a.wastedBytes || b.objects - a.objects || (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0))
      .slice(0, n);
  }
}
