/**
 * The shallow sizes the waste analysis counts in: the object graph's, worked out under the JVM's own
 * layout as the dump shows it (compressed references, header, alignment), so waste and the rest of
 * the memory report count one object the same.
 */
import type { ObjectGraph } from '../graph/object-graph.js';

export interface ShallowSizes {
  /** The object's shallow size in bytes; undefined when the dump has no object of that id. */
  of(id: number): number | undefined;
  /** Every object's shallow size added up: what a share of the heap is a share of. */
  readonly heapBytes: number;
  /** Objects in the dump. */
  readonly objects: number;
}

/** Sizes by dump id from an object graph (its id table when it kept one, else one made here). */
export function graphShallowSizes(graph: ObjectGraph): ShallowSizes {
  let heapBytes = 0;
  for (let i = 0; i < graph.objects; i++) heapBytes += graph.shallow[i]!;
  let indexOf = graph.indexOfId;
  if (indexOf === undefined) {
    const table = new Map<number, number>();
    for (let i = 0; i < graph.objects; i++) table.set(graph.ids[i]! * graph.idScale, i);
    indexOf = (id) => table.get(id) ?? -1;
  }
  const at = indexOf;
  return {
    of: (id) => {
      const i = at(id);
      return i < 0 ? undefined : graph.shallow[i];
    },
    heapBytes,
    objects: graph.objects,
  };
}
