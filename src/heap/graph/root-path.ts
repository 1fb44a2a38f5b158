/**
 * The shortest path from the GC roots to an object, through strong references only: the referent
 * of a weak, soft, phantom or finalizer reference does not count, as MAT's default "Path to GC
 * roots" excludes them. Breadth-first over the graph's edges; the field names of each step are
 * read from the dump in a second pass over just the objects of the path.
 */
import { ClassMetadata } from '../hprof/class-metadata.js';
import { feedHprof, type FeedOptions } from '../hprof/byte-source.js';
import { basicTypeSize, readIdAt } from '../hprof/format.js';
import { HprofParser } from '../hprof/parser.js';
import type { ObjectGraph } from './object-graph.js';

/**
 * Object indexes from a GC root to each target (undefined when no strong path reaches it), from
 * one breadth-first walk that stops once every target is reached.
 */
export function shortestStrongPaths(g: ObjectGraph, targets: readonly number[]): Array<number[] | undefined> {
  const n = g.objects;
  const parent = new Int32Array(n).fill(-2); // -2 unseen, -1 a root
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const r of g.roots) {
    if (parent[r] !== -2) continue;
    parent[r] = -1;
    queue[tail++] = r;
  }
  const wanted = new Set(targets);
  for (const t of wanted) if (parent[t] !== -2) wanted.delete(t);
  while (head < tail && wanted.size > 0) {
    const v = queue[head++]!;
    const weakTarget = g.referents.get(v);
    for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) {
      const w = g.edges[e]!;
      if (parent[w] !== -2 || w === weakTarget) continue;
      parent[w] = v;
      queue[tail++] = w;
      wanted.delete(w);
    }
  }
  return targets.map((target) => {
    if (parent[target] === -2) return undefined;
    const path: number[] = [];
    for (let v = target; v !== -1; v = parent[v]!) path.push(v);
    return path.reverse();
  });
}

/**
 * How each step of each path holds the next object (`table`, `[12]`, `static INSTANCE`), read from
 * the dump again in one pass for all the paths; per path, one name per step but the last.
 */
export async function stepNamesOfPaths(file: string, g: ObjectGraph, paths: ReadonlyArray<readonly number[]>, feed: Omit<FeedOptions, 'onProgress' | 'tee'> = {}): Promise<string[][]> {
  // id of an object on a path -> ids of the objects after it (two paths may leave one object by different references)
  const next = new Map<number, number[]>();
  for (const path of paths) {
    for (let k = 0; k + 1 < path.length; k++) {
      const from = g.ids[path[k]!]!;
      const to = g.ids[path[k + 1]!]!;
      const list = next.get(from);
      if (list === undefined) next.set(from, [to]);
      else if (!list.includes(to)) list.push(to);
    }
  }
  const names = new Map<string, string>(); // `${from} ${to}` -> how `from` holds `to`
  const key = (from: number, to: number) => `${from} ${to}`;
  const meta = new ClassMetadata();
  let idSize = 8;
  const readId = (data: Buffer, at: number): number => readIdAt(data, at, idSize);
  const parser = new HprofParser({
    ...meta.visitor(),
    header: (h) => {
      idSize = h.idSize;
    },
    classDump: (c) => {
      meta.classDumps.set(c.id, c);
      for (const want of next.get(c.id) ?? []) {
        const s = c.statics.find((x) => x.value === want);
        names.set(key(c.id, want), s !== undefined ? `static ${meta.fieldName(s.nameId)}` : c.superId === want ? 'superclass' : c.loaderId === want ? 'class loader' : 'a reference of the class');
      }
    },
    instanceHeader: (id) => next.has(id),
    instanceData: (id, classId, data) => {
      for (const want of next.get(id)!) {
        if (want === classId) {
          names.set(key(id, want), 'its class');
          continue;
        }
        let offset = 0;
        search: for (let c = meta.classDumps.get(classId); c !== undefined; c = meta.classDumps.get(c.superId)) {
          for (const f of c.fields) {
            if ((f.type === 2 || f.type === 1) && readId(data, offset) === want) {
              names.set(key(id, want), meta.fieldName(f.nameId));
              break search;
            }
            offset += basicTypeSize(f.type, idSize);
          }
        }
      }
    },
    objectArrayHeader: (id) => next.has(id),
    objectArrayData: (id, _classId, elements) => {
      for (const want of next.get(id)!) {
        const k = elements.indexOf(want);
        names.set(key(id, want), k >= 0 ? `[${k}]` : 'its class');
      }
    },
  });
  await feedHprof(file, parser, feed);
  return paths.map((path) =>
    path.slice(0, -1).map((v, k) => {
      const known = names.get(key(g.ids[v]!, g.ids[path[k + 1]!]!));
      if (known !== undefined) return known;
      // A thread holds its locals through its stack frames, which the graph adds as its edges.
      return g.rootKindOf.get(v) === 'thread' ? 'a local variable of its stack' : '(a reference)';
    }),
  );
}
