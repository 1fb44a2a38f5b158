/**
 * A path from a GC root, in the words every memory section uses for it (`GC root (static) class
 * com.acme.Audit -> ENTRIES -> java.util.ArrayList -> …`). Raw: each renderer strips or escapes it.
 */
import { type PathStep, retainedObjectName } from '../model/memory.js';

export function rootPathText(steps: readonly PathStep[]): string {
  return steps
    .map((st, k) => (k === 0 ? `GC root (${st.rootKind ?? 'root'}) ${retainedObjectName(st.object)}` : `${st.via ?? '?'} -> ${retainedObjectName(st.object)}`))
    .join(' -> ');
}
