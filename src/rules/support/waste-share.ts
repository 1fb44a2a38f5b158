/**
 * Whether a heap's memory waste is a large share of it (the memory-waste rule's check, thresholds:
 * WASTE_SHARE_OPTIONS of src/model/memory-waste.ts), as a pure function of the model.
 */
import { type MemoryWaste, WASTE_KINDS, type WasteKind, type WasteShareThresholds } from '../../model/memory-waste.js';

export interface WasteShareVerdict {
  /** True when the waste reaches both the share and the bytes of the thresholds. */
  readonly exceeds: boolean;
  readonly wastedBytes: number;
  readonly shareOfHeap: number;
  /** The kinds that reach `minKindShareOfHeap` on their own, most bytes first. */
  readonly kinds: readonly WasteKind[];
}

export function wasteShare(waste: MemoryWaste, t: WasteShareThresholds): WasteShareVerdict {
  const bytesOf = (k: WasteKind) => waste[k].wastedBytes - (t.countJdkHolders ? 0 : waste[k].jdkWastedBytes);
  const wastedBytes = WASTE_KINDS.reduce((sum, k) => sum + bytesOf(k), 0);
  const share = (b: number) => (waste.heapBytes > 0 ? b / waste.heapBytes : 0);
  const kinds = WASTE_KINDS.filter((k) => share(bytesOf(k)) >= t.minKindShareOfHeap).sort((a, b) => bytesOf(b) - bytesOf(a));
  return { exceeds: share(wastedBytes) >= t.minShareOfHeap && wastedBytes >= t.minWastedBytes, wastedBytes, shareOfHeap: share(wastedBytes), kinds };
}
