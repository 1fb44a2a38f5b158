/**
 * Builds the ObjectGraph of a V8 `.heapsnapshot` (Node.js, Chrome), so the dominator tree, retained
 * sizes and leak suspects of an HPROF serve JavaScript heaps too. Its semantics follow DevTools:
 * weak edges do not retain, and shortcut edges count only from the snapshot's root (where they mark
 * the user's global objects). The synthetic nodes ("(GC roots)", "(Strong roots)", ...) are not
 * objects here: what they reach, directly or through one another, is a GC root of the kind they
 * name, under the graph's virtual root.
 */
import { InputError } from '../../errors.js';
import type { ProgressListener } from '../../model/progress.js';
import type { NamedObjectGraph } from '../graph/heap-memory.js';
import type { ObjectGraph } from '../graph/object-graph.js';
import { groupClassName, scanV8HeapSnapshot } from './v8-snapshot.js';
import type { V8RawGraph } from './v8-snapshot-scanner.js';

/** The node types whose name is a constructor's, as DevTools' Summary groups them. */
const NAMED_TYPES = new Set(['object', 'native']);

export async function v8ObjectGraph(path: string, onProgress?: ProgressListener): Promise<NamedObjectGraph> {
  const summary = await scanV8HeapSnapshot(path, {
    collectGraph: true,
    ...(onProgress !== undefined
      ? { onProgress: (bytesRead, totalBytes) => onProgress({ phase: 'reading', bytesRead, ...(totalBytes !== undefined ? { totalBytes } : {}) }) }
      : {}),
  });
  const raw = summary.graph!;
  const fieldOf = (fields: readonly string[], name: string) => {
    const k = fields.indexOf(name);
    if (k < 0)
      throw new InputError(
        `${path}: the snapshot's meta has no "${name}" field, which the memory analysis needs`,
        'take the heap snapshot with a current Node.js or Chrome',
      );
    return k;
  };
  const nf = summary.nodeFields;
  const nodeStride = nf.length;
  const [typeF, nameF, idF, sizeF, edgeCountF] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => fieldOf(nf, f)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ef = raw.edgeFields;
  const edgeStride = ef.length;
  const [eTypeF, eNameF, eToF] = ['type', 'name_or_index', 'to_node'].map((f) => fieldOf(ef, f)) as [number, number, number];
  const nodes = raw.nodes;
  const edges = raw.edges;
  const nodeCount = nodes.length / nodeStride;
  const syntheticType = summary.nodeTypes.indexOf('synthetic');
  const weakType = raw.edgeTypes.indexOf('weak');
  const shortcutType = raw.edgeTypes.indexOf('shortcut');
  const typeOfNode = (n: number) => nodes[n * nodeStride + typeF]!;

  // Objects are the nodes that are not synthetic, numbered densely in node order.
  const objectOf = new Int32Array(nodeCount).fill(-1);
  let objects = 0;
  for (let n = 0; n < nodeCount; n++) if (typeOfNode(n) !== syntheticType) objectOf[n] = objects++;
  const nodeOf = new Int32Array(objects);
  for (let n = 0; n < nodeCount; n++) if (objectOf[n]! >= 0) nodeOf[objectOf[n]!] = n;

  // Where each node's edges start: the edges are stored node after node.
  const firstEdge = new Float64Array(nodeCount + 1);
  for (let n = 0; n < nodeCount; n++) firstEdge[n + 1] = firstEdge[n]! + nodes[n * nodeStride + edgeCountF]!;
  const edgesRead = edges.length / edgeStride;
  const retains = (fromNode: number, type: number) => type !== weakType && (type !== shortcutType || fromNode === 0);

  const ids = new Float64Array(objects);
  const classOf = new Int32Array(objects);
  const shallow = new Float64Array(objects);
  const classIndex = new Map<string, number>();
  const classNames: string[] = [];
  const typeNames = summary.nodeTypes;
  let missingReferences = 0;
  let outgoing = 0;
  for (let o = 0; o < objects; o++) {
    const base = nodeOf[o]! * nodeStride;
    ids[o] = nodes[base + idF]!;
    shallow[o] = nodes[base + sizeF]!;
    const typeName = typeNames[nodes[base + typeF]!];
    const nameIndex = nodes[base + nameF]!;
    const name = groupClassName({
      typeName,
      nameIndex: typeName !== undefined && NAMED_TYPES.has(typeName) ? nameIndex : -1,
      name: raw.strings.get(nameIndex),
    });
    let c = classIndex.get(name);
    if (c === undefined) classIndex.set(name, (c = classNames.push(name) - 1));
    classOf[o] = c;
  }
  // Two passes over each object's edges: count, then fill the compressed-sparse-row arrays.
  const targetOf = (e: number): number => {
    const to = edges[e * edgeStride + eToF]! / nodeStride;
    return Number.isInteger(to) && to < nodeCount ? to : -1;
  };
  const edgeStart = new Int32Array(objects + 1);
  for (let o = 0; o < objects; o++) {
    const n = nodeOf[o]!;
    for (let e = firstEdge[n]!; e < Math.min(firstEdge[n + 1]!, edgesRead); e++) {
      const to = targetOf(e);
      if (to < 0) missingReferences++;
      else if (objectOf[to]! >= 0 && retains(n, edges[e * edgeStride + eTypeF]!)) outgoing++;
    }
    edgeStart[o + 1] = outgoing;
  }
  const targets = new Int32Array(outgoing);
  const viaEdge = new Float64Array(outgoing); // the raw edge of each graph edge, to name path steps
  for (let o = 0, k = 0; o < objects; o++) {
    const n = nodeOf[o]!;
    for (let e = firstEdge[n]!; e < Math.min(firstEdge[n + 1]!, edgesRead); e++) {
      const to = targetOf(e);
      if (to < 0 || objectOf[to]! < 0 || !retains(n, edges[e * edgeStride + eTypeF]!)) continue;
      viaEdge[k] = e;
      targets[k++] = objectOf[to]!;
    }
  }

  // GC roots: the objects the synthetic nodes reach, walking through synthetic nodes from node 0.
  const rootKindOf = new Map<number, string>();
  const rootKinds: Record<string, number> = {};
  const seenSynthetic = new Uint8Array(nodeCount);
  const stack = nodeCount > 0 ? [0] : [];
  if (nodeCount > 0) seenSynthetic[0] = 1;
  while (stack.length > 0) {
    const n = stack.pop()!;
    const kind = n === 0 ? 'global object' : (raw.strings.get(nodes[n * nodeStride + nameF]!) ?? 'synthetic').replace(/^\((.*)\)$/, '$1');
    for (let e = firstEdge[n]!; e < Math.min(firstEdge[n + 1]!, edgesRead); e++) {
      const to = targetOf(e);
      if (to < 0 || !retains(n, edges[e * edgeStride + eTypeF]!)) continue;
      if (objectOf[to]! < 0) {
        if (seenSynthetic[to] === 0) {
          seenSynthetic[to] = 1;
          stack.push(to);
        }
      } else if (!rootKindOf.has(objectOf[to]!)) {
        rootKindOf.set(objectOf[to]!, kind);
        rootKinds[kind] = (rootKinds[kind] ?? 0) + 1;
      }
    }
  }

  const graph: ObjectGraph = {
    objects,
    ids,
    idScale: 1,
    classOf,
    classNames,
    shallow,
    edgeStart,
    edges: targets,
    roots: Int32Array.from(rootKindOf.keys()),
    rootKinds,
    missingReferences,
    warnings: summary.warnings,
    classObjectNames: new Map(),
    // Weak edges are left out of the graph, so no referent needs skipping on a strong path.
    referents: { references: new Int32Array(0), referents: new Int32Array(0) },
    rootKindOf,
    idNotation: 'node-id',
  };
  return {
    graph,
    stepNames: async (paths) =>
      paths.map((path) => path.slice(0, -1).map((v, k) => stepName(raw, edgeStride, eTypeF, eNameF, viaEdgeOf(graph, viaEdge, v, path[k + 1]!)))),
  };
}

/** The raw edge behind the graph edge from `from` to `to` (the first, when several lead there). */
function viaEdgeOf(g: ObjectGraph, viaEdge: Float64Array, from: number, to: number): number {
  for (let k = g.edgeStart[from]!; k < g.edgeStart[from + 1]!; k++) if (g.edges[k] === to) return viaEdge[k]!;
  return -1;
}

/** How DevTools words an edge: a property or variable by name, an element by index. */
function stepName(raw: V8RawGraph, stride: number, typeField: number, nameField: number, e: number): string {
  if (e < 0) return '(a reference)';
  const type = raw.edgeTypes[raw.edges[e * stride + typeField]!] ?? 'edge';
  const nameOrIndex = raw.edges[e * stride + nameField]!;
  if (type === 'element' || type === 'hidden') return `[${nameOrIndex}]`;
  const name = raw.strings.get(nameOrIndex) ?? `#${nameOrIndex}`;
  return type === 'context' ? `context ${name}` : type === 'internal' ? `internal ${name}` : name;
}
