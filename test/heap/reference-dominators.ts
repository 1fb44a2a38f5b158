/** An independent reference for the dominator tree, shared by the tests of the HPROF and V8 graphs. */
import type { ObjectGraph } from '../../src/heap/graph/object-graph.js';

/** Cooper, Harvey and Kennedy's iterative dominators (reverse postorder, intersect): idom per object, -1 unreachable, n for the root. */
export function chkIdom(g: ObjectGraph): Int32Array {
  const n = g.objects;
  const root = n;
  const succ = (v: number): number[] => (v === root ? [...g.roots] : Array.from(g.edges.subarray(g.edgeStart[v]!, g.edgeStart[v + 1]!)));
  const post: number[] = [];
  const seen = new Uint8Array(n + 1);
  const stack: Array<[number, number]> = [[root, 0]];
  seen[root] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const s = succ(top[0]);
    if (top[1] < s.length) {
      const w = s[top[1]++]!;
      if (seen[w] === 0) {
        seen[w] = 1;
        stack.push([w, 0]);
      }
    } else {
      post.push(top[0]);
      stack.pop();
    }
  }
  const order = new Int32Array(n + 1).fill(-1);
  post.forEach((v, i) => (order[v] = i));
  const preds: number[][] = Array.from({ length: n + 1 }, () => []);
  for (const v of post) for (const w of succ(v)) preds[w]!.push(v);
  const idom = new Int32Array(n + 1).fill(-1);
  idom[root] = root;
  const rpo = [...post].reverse();
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! < order[b]!) a = idom[a]!;
      while (order[b]! < order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const v of rpo) {
      if (v === root) continue;
      let d = -1;
      for (const p of preds[v]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== idom[v]) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  return idom.subarray(0, n);
}
