/**
 * What a heap dump says about its JVM, for jvm-identity.ts: every live java.lang.Thread object, by
 * its Java id (`tid`), with the address of its JavaThread (`eetop`), which is what jstack prints as
 * `tid=`. A thread alive in both a heap dump and a thread dump of one JVM shows the same pair.
 */
import { numberOf, threadNameOf } from '../heap/heap-values.js';
import type { HeapView } from '../heap/heap-view.js';
import type { JvmSighting, SightedThread } from '../threads/jvm-identity.js';

export function sightingOfHeap(view: HeapView, label: string): JvmSighting {
  const threads = new Map<string, SightedThread>();
  for (const t of view.instancesOf('java.lang.Thread', { subclasses: true })) {
    const eetop = view.field(t, 'eetop');
    // 0 for a thread not started or already ended: it has no JavaThread to compare.
    const address = typeof eetop === 'bigint' ? eetop : typeof eetop === 'number' && Number.isSafeInteger(eetop) ? BigInt(eetop) : 0n;
    const tid = numberOf(view, view.field(t, 'tid') ?? undefined);
    if (address === 0n || tid === undefined) continue;
    threads.set(`#${tid}`, { name: threadNameOf(view, t) ?? '', address });
  }
  return { label, threads };
}
