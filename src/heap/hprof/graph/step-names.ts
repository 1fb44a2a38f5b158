/**
 * How each step of a path from a GC root holds the next object (`table`, `[12]`, `static INSTANCE`),
 * read from an HPROF again for just the objects of the paths (graph/root-path.ts finds the paths):
 * in one more pass, or, from a file the heap loader indexed, from the blocks that hold them.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';

import { idOf, type ObjectGraph } from '../../graph/object-graph.js';
import type { WasteNames, WasteNamesWanted } from '../../waste/graph-waste.js';
import { feedHprof, type FeedOptions } from '../byte-source.js';
import { ClassMetadata } from '../class-metadata.js';
import { basicTypeSize, HprofType, isReferenceType, readIdAt } from '../format.js';
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
  waste?: WasteNamesWanted,
): Promise<NamesRead> {
  const meta = new ClassMetadata();
  const namer = new StepNamer(g, paths, meta, waste);
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
  return namer.read();
}

/** The paths' step names (per path, one name per step but the last) and, when asked, the names the memory waste needs. */
export interface NamesRead {
  readonly steps: string[][];
  readonly waste?: WasteNames;
}

/**
 * The same names, read from a plain HPROF the heap loader has indexed (its plain copy of a gzip
 * dump): only the blocks that hold the paths' objects are read, and the class metadata is the
 * loader's. A full pass reads every record of the file for a handful of objects.
 */
export function stepNamesFromIndexedFile(heap: IndexedHprof, g: ObjectGraph, paths: ReadonlyArray<readonly number[]>, waste?: WasteNamesWanted): NamesRead {
  const namer = new StepNamer(g, paths, heap.meta, waste);
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
  return namer.read();
}

/**
 * Names the steps of paths from the records of the objects they leave; with the memory waste's
 * wants, also each holder edge as the field of its declaring class (`com.acme.Product.status`,
 * `com.acme.Catalog.ALL (static)`) and the characters of a few Strings.
 */
class StepNamer {
  idSize = 8;
  /** id of an object on a path -> ids of the objects after it (two paths may leave one object by different references) */
  readonly #next = new Map<number, number[]>();
  /** `${from} ${to}` -> how `from` holds `to` */
  readonly #names = new Map<string, string>();
  /** `${from} ${to}` -> the same, with the class that declares the field */
  readonly #qualified = new Map<string, string>();
  /** Strings whose characters are wanted -> their coder (JDK 9+: 1 for UTF-16), once read */
  readonly #stringCoder = new Map<number, number>();
  /** Arrays holding those characters -> their bytes and element type, once read */
  readonly #arrays = new Map<number, { type: number; bytes: Buffer; length: number } | undefined>();

  constructor(
    private readonly g: ObjectGraph,
    private readonly paths: ReadonlyArray<readonly number[]>,
    private readonly meta: ClassMetadata,
    private readonly waste?: WasteNamesWanted,
  ) {
    const step = (fromIndex: number, toIndex: number) => {
      const from = idOf(g, fromIndex);
      const to = idOf(g, toIndex);
      const list = this.#next.get(from);
      if (list === undefined) this.#next.set(from, [to]);
      else if (!list.includes(to)) list.push(to);
    };
    for (const path of paths) for (let k = 0; k + 1 < path.length; k++) step(path[k]!, path[k + 1]!);
    for (const [from, to] of waste?.holderEdges ?? []) step(from, to);
    for (const t of waste?.texts ?? []) {
      this.#stringCoder.set(idOf(g, t.string), 0);
      this.#arrays.set(idOf(g, t.array), undefined);
    }
  }

  /** The ids of the objects to read: those a step leaves, and the Strings and arrays whose characters are wanted. */
  holders(): number[] {
    return [...new Set([...this.#next.keys(), ...this.#stringCoder.keys(), ...this.#arrays.keys()])];
  }

  classDump(c: ClassDumpRecord): void {
    for (const want of this.#next.get(c.id) ?? []) {
      const s = c.statics.find((x) => x.value === want);
      if (s !== undefined) this.#qualified.set(`${c.id} ${want}`, `${this.meta.className(c.id)}.${this.meta.fieldName(s.nameId)} (static)`);
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

  objectVisitor(): Pick<
    HprofVisitor,
    'instanceHeader' | 'instanceData' | 'objectArrayHeader' | 'objectArrayData' | 'primitiveArrayHeader' | 'primitiveArrayData'
  > {
    const meta = this.meta;
    return {
      instanceHeader: (id) => this.#next.has(id) || this.#stringCoder.has(id),
      instanceData: (id, classId, data) => {
        if (this.#stringCoder.has(id)) this.#stringCoder.set(id, this.coderOf(classId, data));
        for (const want of this.#next.get(id) ?? []) {
          if (want === classId) {
            this.#set(id, want, 'its class');
            continue;
          }
          let offset = 0;
          search: for (let c = meta.classDumps.get(classId); c !== undefined; c = meta.classDumps.get(c.superId)) {
            for (const f of c.fields) {
              if (isReferenceType(f.type) && readIdAt(data, offset, this.idSize) === want) {
                this.#set(id, want, meta.fieldName(f.nameId));
                this.#qualified.set(`${id} ${want}`, `${meta.className(c.id)}.${meta.fieldName(f.nameId)}`);
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
      primitiveArrayHeader: (id) => this.#arrays.has(id),
      primitiveArrayData: (id, type, data) => {
        // A copy: the parser's buffer is reused. Enough for the characters a report shows.
        this.#arrays.set(id, { type, bytes: Buffer.from(data.subarray(0, TEXT_BYTES)), length: data.length });
      },
    };
  }

  /** A String's coder field (JDK 9+: 0 Latin-1, 1 UTF-16); 0 when it has none. */
  private coderOf(classId: number, data: Buffer): number {
    let offset = 0;
    for (let c = this.meta.classDumps.get(classId); c !== undefined; c = this.meta.classDumps.get(c.superId)) {
      for (const f of c.fields) {
        if (this.meta.fieldName(f.nameId) === 'coder' && f.type === HprofType.BYTE) return offset < data.length ? data[offset]! : 0;
        offset += basicTypeSize(f.type, this.idSize);
      }
    }
    return 0;
  }

  read(): NamesRead {
    const steps = this.names();
    if (this.waste === undefined) return { steps };
    const g = this.g;
    const holders = this.waste.holderEdges.map(([from, to]) => this.#qualified.get(`${idOf(g, from)} ${idOf(g, to)}`));
    const texts = this.waste.texts.map((t) => {
      const array = this.#arrays.get(idOf(g, t.array));
      if (array === undefined) return undefined;
      const coder = this.#stringCoder.get(idOf(g, t.string)) ?? 0;
      const wide = array.type === HprofType.CHAR || coder === 1;
      return { text: stringText(array.type, array.bytes, coder), length: wide ? array.length >>> 1 : array.length };
    });
    return { steps, waste: { holders, texts } };
  }

  private names(): string[][] {
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

/** Bytes of a String's characters read: a report shows at most a few hundred characters. */
const TEXT_BYTES = 4096;

/** The characters of a String's value array: JDK 6-8 char[] (big-endian, as HPROF writes arrays); JDK 9+ byte[] by its coder. */
function stringText(type: number, bytes: Buffer, coder: number): string {
  if (type === HprofType.CHAR) {
    let s = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) s += String.fromCharCode(bytes.readUInt16BE(i));
    return s;
  }
  // JDK 9+ UTF-16 strings are copied raw by the dumper: the machine's byte order, little-endian on the platforms JVMs run on.
  if (coder === 1) return bytes.subarray(0, bytes.length & ~1).toString('utf16le');
  return bytes.toString('latin1');
}
