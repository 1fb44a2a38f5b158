/**
 * How each step of a path from a GC root holds the next object (`table`, `[12]`, `static INSTANCE`),
 * read from an HPROF again for just the objects of the paths (graph/root-path.ts finds the paths):
 * in one more pass, or, from a file the heap loader indexed, from the blocks that hold them.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';

import { idOf, type ObjectGraph } from '../../graph/object-graph.js';
import { feedHprof, type FeedOptions } from '../byte-source.js';
import { ClassMetadata } from '../class-metadata.js';
import { basicTypeSize, isReferenceType, readIdAt } from '../format.js';
import { parseIndexedBlock } from '../indexed-block.js';
import type { IndexedHprof } from '../object-index.js';
import { type ClassDumpRecord, HprofParser, type HprofVisitor } from '../parser.js';

/**
 * How each step of each path holds the next object (`table`, `[12]`, `static INSTANCE`), read from
 * the dump again in one pass for all the paths; per path, one name per step but the last.
 */
export async function stepNamesOfPaths(
  file: string,
  g: ObjectGraph,
  paths: ReadonlyArray<readonly number[]>,
  feed: Omit<FeedOptions, 'onProgress' | 'tee'> = {},
): Promise<string[][]> {
  const meta = new ClassMetadata();
  const namer = new StepNamer(g, paths, meta);
  const parser = new HprofParser({
    ...meta.visitor(),
    header: (h) => {
      namer.idSize = h.idSize;
    },
    classDump: (c) => {
      meta.classDumps.set(c.id, c);
      namer.classDump(c);
    },
    ...namer.objectVisitor(),
  });
  await feedHprof(file, parser, feed);
  return namer.names();
}

/**
 * The same names, read from a plain HPROF the heap loader has indexed (its plain copy of a gzip
 * dump): only the blocks that hold the paths' objects are read, and the class metadata is the
 * loader's. A full pass reads every record of the file for a handful of objects.
 */
export function stepNamesFromIndexedFile(heap: IndexedHprof, g: ObjectGraph, paths: ReadonlyArray<readonly number[]>): string[][] {
  const namer = new StepNamer(g, paths, heap.meta);
  namer.idSize = heap.header.idSize;
  for (const c of heap.meta.classDumps.values()) namer.classDump(c);
  const visitor = namer.objectVisitor();
  const blocks = [...new Set(namer.holders().flatMap((id) => heap.index.blocksFor(id)))].sort((a, b) => a - b);
  const fd = openSync(heap.path, 'r');
  try {
    const size = fstatSync(fd).size;
    for (const b of blocks) parseIndexedBlock(fd, size, heap.header, heap.index.block(b), visitor);
  } finally {
    closeSync(fd);
  }
  return namer.names();
}

/** Names the steps of paths from the records of the objects they leave. */
class StepNamer {
  idSize = 8;
  /** id of an object on a path -> ids of the objects after it (two paths may leave one object by different references) */
  readonly #next = new Map<number, number[]>();
  /** `${from} ${to}` -> how `from` holds `to` */
  readonly #names = new Map<string, string>();

  constructor(
    private readonly g: ObjectGraph,
    private readonly paths: ReadonlyArray<readonly number[]>,
    private readonly meta: ClassMetadata,
  ) {
    for (const path of paths) {
      for (let k = 0; k + 1 < path.length; k++) {
        const from = idOf(g, path[k]!);
        const to = idOf(g, path[k + 1]!);
        const list = this.#next.get(from);
        if (list === undefined) this.#next.set(from, [to]);
        else if (!list.includes(to)) list.push(to);
      }
    }
  }

  /** The ids of the objects a step leaves. */
  holders(): number[] {
    return [...this.#next.keys()];
  }

  classDump(c: ClassDumpRecord): void {
    for (const want of this.#next.get(c.id) ?? []) {
      const s = c.statics.find((x) => x.value === want);
      this.#set(
        c.id,
        want,
        s !== undefined
          ? `static ${this.meta.fieldName(s.nameId)}`
          : c.superId === want
            ? 'superclass'
            : c.loaderId === want
              ? 'class loader'
              : 'a reference of the class',
      );
    }
  }

  objectVisitor(): Pick<HprofVisitor, 'instanceHeader' | 'instanceData' | 'objectArrayHeader' | 'objectArrayData'> {
    const meta = this.meta;
    return {
      instanceHeader: (id) => this.#next.has(id),
      instanceData: (id, classId, data) => {
        for (const want of this.#next.get(id)!) {
          if (want === classId) {
            this.#set(id, want, 'its class');
            continue;
          }
          let offset = 0;
          search: for (let c = meta.classDumps.get(classId); c !== undefined; c = meta.classDumps.get(c.superId)) {
            for (const f of c.fields) {
              if (isReferenceType(f.type) && readIdAt(data, offset, this.idSize) === want) {
                this.#set(id, want, meta.fieldName(f.nameId));
                break search;
              }
              offset += basicTypeSize(f.type, this.idSize);
            }
          }
        }
      },
      objectArrayHeader: (id) => this.#next.has(id),
      objectArrayData: (id, _classId, elements) => {
        for (const want of this.#next.get(id)!) {
          const k = elements.indexOf(want);
          this.#set(id, want, k >= 0 ? `[${k}]` : 'its class');
        }
      },
    };
  }

  names(): string[][] {
    const g = this.g;
    return this.paths.map((path) =>
      path.slice(0, -1).map((v, k) => {
        const known = this.#names.get(`${idOf(g, v)} ${idOf(g, path[k + 1]!)}`);
        if (known !== undefined) return known;
        // A thread holds its locals through its stack frames, which the graph adds as its edges.
        return g.rootKindOf.get(v) === 'thread' ? 'a local variable of its stack' : '(a reference)';
      }),
    );
  }

  #set(from: number, to: number, name: string): void {
    this.#names.set(`${from} ${to}`, name);
  }
}
