/**
 * A class histogram: instances and shallow bytes per class, like `jmap -histo`.
 * Every heap source (HPROF, dumpsleuth's JSON snapshot, V8 .heapsnapshot) produces this shape.
 */

export interface HistogramRow {
  /** Java class name as people write it (`java.lang.String`, `int[]`, `java.lang.Object[]`); for V8, the constructor or node name. */
  readonly className: string;
  readonly instances: number;
  /** Shallow bytes, estimated where the format does not record object sizes (see `sizeModel`). */
  readonly shallowBytes: number;
}

export interface Histogram {
  readonly source: string;
  readonly format: 'hprof' | 'dumpsleuth-heap' | 'v8-heapsnapshot';
  /** Rows sorted by shallow bytes, largest first, then by name. */
  readonly rows: HistogramRow[];
  readonly totalInstances: number;
  readonly totalBytes: number;
  /** How shallow sizes were computed, in one sentence (HPROF does not record the JVM's object layout). */
  readonly sizeModel: string;
  /** Truncation, skipped records and the like: what the numbers may be missing. */
  readonly warnings: string[];
  /** Why the dump was not read whole (it ends mid-record, a size limit stopped it); also among the warnings. */
  readonly cut?: string;
}

/** Sorts rows the way `jmap -histo` does: by bytes, largest first; ties by name for stable output. */
export function sortHistogramRows(rows: HistogramRow[]): HistogramRow[] {
  return rows.sort((a, b) => b.shallowBytes - a.shallowBytes || (a.className < b.className ? -1 : a.className > b.className ? 1 : 0));
}
