/**
 * A sparse index of where objects sit in an HPROF file: every Nth object's id, offset and the state
 * of its heap-dump segment there. HotSpot writes objects in address order (ids ascend, or ascend in
 * a few runs with parallel dumps), so a wanted id is found by a binary search and a read of one small
 * block, instead of another pass over the whole file. Memory: 24 bytes per N objects.
 */
import type { ClassMetadata } from './class-metadata.js';
import type { HprofHeader } from './parser.js';

const INDEX_EVERY = 256;
/** More ascending runs than this and a lookup would read too many blocks: passes are used instead. */
const MAX_RUNS = 8;

/**
 * A plain HPROF file as the heap loader leaves it after its load: the file (its plain copy of a gzip
 * dump), where its objects are, and its class metadata, so later readers can read single objects.
 */
export interface IndexedHprof {
  readonly path: string;
  readonly header: HprofHeader;
  readonly index: ObjectIndex;
  readonly meta: ClassMetadata;
}

export interface IndexBlock {
  readonly offset: number;
  readonly segmentLeft: number;
  /** Where the block ends (the next indexed object), or undefined for the last block. */
  readonly end: number | undefined;
}

export class ObjectIndex {
  private ids: number[] = [];
  private offsets: number[] = [];
  private segmentLefts: number[] = [];
  /** Start positions (in the arrays) of each ascending run of ids. */
  private runStarts: number[] = [0];
  private lastId = -1;
  private seen = 0;

  /** Called for every object, in file order. */
  note(id: number, at: { readonly recordOffset: number; readonly recordSegmentRemaining: number }): void {
    if (id < this.lastId) {
      this.runStarts.push(this.ids.length);
      // A new run starts a new block (the block before ends where it begins), so every block ascends.
      this.seen = 0;
    }
    this.lastId = id;
    if (this.seen % INDEX_EVERY === 0) {
      this.ids.push(id);
      this.offsets.push(at.recordOffset);
      this.segmentLefts.push(at.recordSegmentRemaining);
    }
    this.seen++;
  }

  get usable(): boolean {
    return this.ids.length > 0 && this.runStarts.length <= MAX_RUNS;
  }

  /** The blocks that may hold the id: at most one per ascending run. */
  blocksFor(id: number): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.runStarts.length; r++) {
      const lo0 = this.runStarts[r]!;
      const hi0 = (this.runStarts[r + 1] ?? this.ids.length) - 1;
      if (hi0 < lo0 || id < this.ids[lo0]!) continue;
      let lo = lo0;
      let hi = hi0;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.ids[mid]! <= id) lo = mid;
        else hi = mid - 1;
      }
      out.push(lo);
    }
    return out;
  }

  block(i: number): IndexBlock {
    return { offset: this.offsets[i]!, segmentLeft: this.segmentLefts[i]!, end: this.offsets[i + 1] };
  }
}
