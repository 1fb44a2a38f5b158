/**
 * Counters teams declare in the config, so dumpsleuth can judge their own limiters without code:
 * a class, the field paths of the in-flight count and of the limit, and the frame that means "inside".
 *
 *   "counters": [{ "name": "order-limiter", "className": "com.acme.Limiter",
 *                  "active": "inFlight", "limit": "max", "insideFrame": "com.acme.OrderService.place" }]
 */
import { hexId, numberOf, valueAt } from '../heap/heap-values.js';
import type { HeapView } from '../heap/heap-view.js';
import type { HeapCounter } from './dubbo-counters.js';

export interface UserCounterSpec {
  readonly name: string;
  readonly className: string;
  /** Dotted field path to the in-flight count (atomics and boxes are read through). */
  readonly active: string;
  /** Dotted field path to the limit, or a fixed number. */
  readonly limit: string | number;
  /** `Class.method` whose presence on a stack means the thread is inside. */
  readonly insideFrame: string;
}

export function userCounters(view: HeapView, input: string, specs: readonly UserCounterSpec[]): Array<HeapCounter & { insideFrame: string }> {
  const out: Array<HeapCounter & { insideFrame: string }> = [];
  for (const spec of specs) {
    const instances = view.instancesOf(spec.className);
    instances.forEach((o, i) => {
      const active = numberOf(view, valueAt(view, o, spec.active) ?? undefined);
      if (active === undefined) return;
      const limit = typeof spec.limit === 'number' ? spec.limit : (numberOf(view, valueAt(view, o, spec.limit) ?? undefined) ?? null);
      out.push({
        kind: 'user',
        name: instances.length > 1 ? `${spec.name} #${i + 1}` : spec.name,
        service: spec.className,
        method: null,
        identity: null,
        active,
        limit,
        limitSource: typeof spec.limit === 'number' ? 'config' : `${spec.className}.${spec.limit}`,
        total: null,
        failed: null,
        object: { input, id: hexId(o.id), className: view.classNameOf(o) },
        serviceActive: null,
        insideFrame: spec.insideFrame,
      });
    });
  }
  return out;
}

/** The classes and depths the heap loader must read for these counters. */
export function userCounterRoots(specs: readonly UserCounterSpec[]): Array<{ className: string; depth: number }> {
  return specs.map((s) => ({
    className: s.className,
    depth: Math.max(s.active.split('.').length, typeof s.limit === 'string' ? s.limit.split('.').length : 0) + 2,
  }));
}
