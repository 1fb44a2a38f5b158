/**
 * The memory waste in dumpsleuth.memory/1 (`waste`) and in the analysis report's `model.memory`:
 * the model as it is, its shares of the heap cut to four decimals (docs/memory.schema.json).
 */
import type { MemoryWaste } from '../model/memory-waste.js';

const share = (x: number) => Number(x.toFixed(4));

export function wasteJson(w: MemoryWaste) {
  return {
    heapBytes: w.heapBytes,
    wastedBytes: w.wastedBytes,
    shareOfHeap: share(w.shareOfHeap),
    duplicateStrings: { ...w.duplicateStrings, shareOfHeap: share(w.duplicateStrings.shareOfHeap) },
    emptyCollections: { ...w.emptyCollections, shareOfHeap: share(w.emptyCollections.shareOfHeap) },
    sparseCollections: {
      ...w.sparseCollections,
      shareOfHeap: share(w.sparseCollections.shareOfHeap),
      groups: w.sparseCollections.groups.map((g) => ({ ...g, fillRatio: share(g.fillRatio) })),
    },
    boxedInCollections: { ...w.boxedInCollections, shareOfHeap: share(w.boxedInCollections.shareOfHeap) },
    zeroArrays: { ...w.zeroArrays, shareOfHeap: share(w.zeroArrays.shareOfHeap) },
    notes: [...w.notes],
  };
}
