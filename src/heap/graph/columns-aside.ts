/**
 * A graph's columns set aside in a temporary file while a step that does not read them runs, and read
 * back after it. The dominator tree's steps need the references and their own arrays, not the
 * objects' ids, classes and sizes; on a heap of 36 million objects those are 0.9 GB the process need
 * not hold while it holds the dominator arrays (another 1.2 GB). Written, the bytes are the kernel's
 * page cache: kept while memory is plentiful, dropped to disk when it is not, never the process's.
 *
 * The file is unlinked as soon as it is open: it is gone when the process ends, however it ends.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type ColumnArray = Float64Array | Int32Array | Uint32Array;

/**
 * What lends columns: the graph (its ids, classes, sizes, references), or the dominated lists. Each
 * column named is one typed array, replaced by an empty one while it is set aside.
 */
export type ColumnHolder<K extends string> = { readonly [column in K]: ColumnArray };

/** The graph's columns that may be set aside. */
export type GraphColumn = 'ids' | 'classOf' | 'shallow' | 'edgeStart' | 'edges';

/** An empty array of the same kind as `array`, or one of this length. */
function sameKind(array: ColumnArray, length: number): ColumnArray {
  return array instanceof Float64Array ? new Float64Array(length) : array instanceof Uint32Array ? new Uint32Array(length) : new Int32Array(length);
}

/** Bytes moved per system call (a single write or read is limited to 2 GiB). */
const CHUNK_BYTES = 1 << 26;

/** Where each column lies in the file, and the kind of array it is read back into. */
interface Placed {
  readonly at: number;
  readonly length: number;
  /** An empty array of the column's kind, whose kind the read-back copy takes. */
  readonly kind: ColumnArray;
}

/**
 * Graphs from which the dominator steps set columns aside (see heap-memory.ts): below this, the file
 * saves less than the heap's own overhead and costs a write and a read.
 */
export const COLUMNS_ASIDE_MIN_BYTES = 256 * 1048576;

/** Sets aside the columns of one holder at a time (a column is known by its name). */
export class ColumnsAside<K extends string> {
  private readonly fd: number;
  private end = 0;
  private readonly placed = new Map<K, Placed>();
  /** A write failed: nothing more is set aside. */
  private failed = false;

  /** Whether a graph of this many bytes would have its columns set aside: big enough, and the temporary folder takes a file. */
  static willServe(graphBytes: number): boolean {
    return graphBytes >= COLUMNS_ASIDE_MIN_BYTES && ColumnsAside.possibleIn(tmpdir());
  }

  /** Whether a file for the columns can be made in this folder (it is made, then closed). */
  static possibleIn(dir: string): boolean {
    try {
      new ColumnsAside(dir).close();
      return true;
    } catch {
      return false;
    }
  }

  /** Throws when the file cannot be made (the caller then keeps the columns in memory). */
  constructor(dir: string) {
    const path = join(dir, `dumpsleuth-columns-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    this.fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
  }

  /**
   * Writes the columns to the file and puts empty arrays in their place on the graph (its owner lends
   * them: nothing else may hold them meanwhile, or their memory stays taken). A write that fails (a
   * full disk) leaves that column, and every one after, in memory: the analysis holds more, and goes on.
   */
  putAside(holder: ColumnHolder<K>, columns: readonly K[]): void {
    const held = holder as Record<K, ColumnArray>;
    for (const column of columns) {
      if (this.placed.has(column) || this.failed) continue;
      const array = held[column];
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      try {
        for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, Math.min(CHUNK_BYTES, bytes.length - done), this.end + done);
      } catch {
        this.failed = true;
        continue;
      }
      const empty = sameKind(array, 0);
      this.placed.set(column, { at: this.end, length: array.length, kind: empty });
      this.end += bytes.length;
      held[column] = empty;
    }
  }

  /** Reads columns set aside back onto their holder (into arrays of their exact length). */
  takeBack(holder: ColumnHolder<K>, columns: readonly K[] = [...this.placed.keys()]): void {
    for (const column of columns) {
      const p = this.placed.get(column);
      if (p !== undefined) this.readInto(holder, column, sameKind(p.kind, p.length));
    }
  }

  /**
   * Sets a column aside and lends its array to the caller as room of its size (what it held is in the
   * file): a step that needs such room for a while takes no new memory, whose page faults cost more
   * than the write, and depends on no collection to give the column's back. Undefined when the write
   * failed (the column stays on its holder). `restore` puts the column back in it.
   */
  lend(holder: ColumnHolder<K>, column: K): ColumnArray | undefined {
    const array = holder[column];
    this.putAside(holder, [column]);
    return this.placed.has(column) ? array : undefined;
  }

  /** Reads a lent column back into the array it lent (the same) and puts it back on its holder. */
  restore(holder: ColumnHolder<K>, column: K, lent: ColumnArray): void {
    const p = this.placed.get(column);
    if (p === undefined) return;
    if (lent.length !== p.length || sameKind(lent, 0).constructor !== p.kind.constructor) throw new Error(`internal: ${column} given back in another array`);
    this.readInto(holder, column, lent);
  }

  private readInto(holder: ColumnHolder<K>, column: K, array: ColumnArray): void {
    const p = this.placed.get(column)!;
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let done = 0; done < bytes.length;) {
      const read = readSync(this.fd, bytes, done, Math.min(CHUNK_BYTES, bytes.length - done), p.at + done);
      if (read === 0) throw new Error(`the temporary copy of the column ${column} ended early`);
      done += read;
    }
    (holder as Record<K, ColumnArray>)[column] = array;
    this.placed.delete(column);
  }

  close(): void {
    closeSync(this.fd);
  }
}
