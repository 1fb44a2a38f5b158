/**
 * What keeps an object, in the words a developer fixes it with: the field of a class
 * (`com.example.catalog.Product.status`, `com.example.catalog.Catalog.SAMPLES (static)`), found from
 * the object's referrer up through arrays, collections and their nodes, which are not where a fix goes.
 *
 * The referrers are those of the loaded objects (one look at each, no pass over the file). An object
 * with several referrers is named by the one with the lowest id, so the answer does not depend on the
 * order the load met them in.
 */
import { isJdkClass } from '../../knowledge/index.js';
import type { HeapObject } from '../heap-model.js';
import { type HeapView, isRef } from '../heap-view.js';

/** What a holder is named when nothing loaded refers to the object (a GC root holds it, or its referrer was not loaded). */
export const NO_REFERRER = 'no referrer';

/** The JDK's own classes whose instances are the inner parts of a collection (its nodes, entries, views): a holder is looked for above them. */
function isCollectionPart(name: string): boolean {
  if (!name.startsWith('java.util.')) return false;
  const inner = name.slice(name.lastIndexOf('$') + 1);
  return name.includes('$') && (/(?:Node|Entry|Segment)$/.test(inner) || COLLECTION_VIEWS.has(inner));
}

const COLLECTION_VIEWS = new Set(['KeySetView', 'KeySet', 'Values', 'EntrySet', 'ValuesView', 'EntrySetView']);

/** Classes whose instances hold elements for others: a holder is looked for above them too. */
const CONTAINER_BASES = [
  'java.util.AbstractCollection',
  'java.util.AbstractMap',
  'java.util.Dictionary',
  'java.util.Collections$SynchronizedCollection',
  'java.util.Collections$SynchronizedMap',
  'java.util.Collections$UnmodifiableCollection',
  'java.util.Collections$UnmodifiableMap',
];

/** Bound on the objects looked at up from one object (what a walk finds is kept for every container on its way). */
const MAX_STEPS = 100_000;

/** Referrers kept per object, the lowest ids: enough to leave a doubly linked chain or a tree node by its other end. */
const KEPT_REFERRERS = 3;

export class Holders {
  /** Lowest-id loaded referrer of each referenced object. */
  private readonly referrer = new Map<number, number>();
  /** The next lowest referrers, ascending, for the objects that have more than one. */
  private readonly moreReferrers = new Map<number, number[]>();
  /** A class's static field that refers to the object. */
  private readonly staticHolder = new Map<number, string>();
  /** How many loaded objects and statics refer to each object (2 means "two or more"). */
  private readonly refCount = new Map<number, number>();
  private readonly named = new Map<number, string>();
  private readonly containerClass = new Map<number, boolean>();

  constructor(private readonly view: HeapView) {
    for (const o of view.store.objects.values()) {
      if (o.kind === 'instance') {
        for (const v of o.values) if (isRef(v)) this.note(v.ref, o.id);
      } else if (o.kind === 'object-array') {
        for (const e of o.elements) if (e !== 0) this.note(e, o.id);
      }
    }
    for (const c of view.store.classes.values()) {
      for (const s of c.statics) {
        if (!isRef(s.value)) continue;
        this.count(s.value.ref);
        if (!this.staticHolder.has(s.value.ref)) this.staticHolder.set(s.value.ref, `${c.name}.${s.name} (static)`);
      }
    }
  }

  private note(target: number, from: number): void {
    const r = this.referrer.get(target);
    if (r === undefined) this.referrer.set(target, from);
    else if (from !== r) {
      // Keep the lowest ids: the first in `referrer`, the next ones in `moreReferrers`.
      const all = [r, ...(this.moreReferrers.get(target) ?? [])];
      if (!all.includes(from)) {
        all.push(from);
        all.sort((a, b) => a - b);
        this.referrer.set(target, all[0]!);
        this.moreReferrers.set(target, all.slice(1, KEPT_REFERRERS));
      }
    }
    this.count(target);
  }

  private count(target: number): void {
    this.refCount.set(target, Math.min(2, (this.refCount.get(target) ?? 0) + 1));
  }

  /** True when only this object refers to `id` (so what `id` takes is this object's alone). */
  ownedBy(id: number, owner: number): boolean {
    return this.refCount.get(id) === 1 && this.referrer.get(id) === owner;
  }

  /** True for collections, maps, their nodes and arrays: what a holder is looked for above. */
  isContainer(o: HeapObject): boolean {
    if (o.kind === 'object-array') return true;
    if (o.kind !== 'instance') return false;
    let known = this.containerClass.get(o.classId);
    if (known === undefined) {
      const cls = this.view.classOf(o);
      known = cls !== undefined && (isCollectionPart(cls.name) || CONTAINER_BASES.some((b) => this.view.isA(cls, b)));
      this.containerClass.set(o.classId, known);
    }
    return known;
  }

  /**
   * The field that keeps the object, through arrays and collections; NO_REFERRER when none is loaded.
   * A search up the referrers, depth first: an object that is not a container names the field; one of
   * another class than the step it is reached from is tried before one of the same (a node's list
   * before its neighbour node), and a dead end (a chain walked from the wrong end) is left for the next.
   */
  holderOf(id: number): string {
    const known = this.named.get(id);
    if (known !== undefined) return known;
    const seen = new Set<number>([id]);
    const stack: Array<{ readonly id: number; readonly candidates: HeapObject[]; next: number }> = [this.frame(id)];
    let name: string | undefined;
    for (let steps = 0; stack.length > 0 && name === undefined && steps < MAX_STEPS;) {
      const top = stack[stack.length - 1]!;
      if (top.next >= top.candidates.length) {
        // No loaded referrer leads anywhere: a static field, if one holds it.
        name = this.staticHolder.get(top.id);
        if (name === undefined) stack.pop();
        continue;
      }
      const r = top.candidates[top.next++]!;
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      if (!this.isContainer(r)) name = this.fieldNaming(r, top.id);
      else {
        name = this.named.get(r.id);
        if (name === undefined) {
          stack.push(this.frame(r.id));
          steps++;
        }
      }
    }
    if (name === undefined) {
      // Nothing found from here: what the search went through finds nothing either, and is not searched again.
      for (const s of seen) if (s !== id || this.isContainerId(s)) this.named.set(s, NO_REFERRER);
      return NO_REFERRER;
    }
    // Every container on the way up is kept by the same field: a chain of nodes is walked once.
    for (const f of stack) if (f.id !== id || this.isContainerId(f.id)) this.named.set(f.id, name);
    return name;
  }

  /** An object and its loaded referrers in the order they are tried: not containers, then other classes than its own, then by id. */
  private frame(id: number): { readonly id: number; readonly candidates: HeapObject[]; next: number } {
    const own = this.view.object(id);
    const ids = [...(this.referrer.has(id) ? [this.referrer.get(id)!] : []), ...(this.moreReferrers.get(id) ?? [])];
    const rank = (o: HeapObject) => (!this.isContainer(o) ? 0 : own !== undefined && o.kind === own.kind && sameClass(o, own) ? 2 : 1);
    const candidates = ids
      .map((r) => this.view.object(r))
      .filter((o): o is HeapObject => o !== undefined)
      .sort((a, b) => rank(a) - rank(b) || a.id - b.id);
    return { id, candidates, next: 0 };
  }

  private isContainerId(id: number): boolean {
    const o = this.view.object(id);
    return o !== undefined && this.isContainer(o);
  }

  /** `Class.field` of the instance field of `from` that refers to `to` (the declaring class's name). */
  private fieldNaming(from: HeapObject, to: number): string {
    if (from.kind === 'instance') {
      for (const f of this.view.fields(from)) if (isRef(f.value) && f.value.ref === to) return `${f.declaringClass}.${f.name}`;
    }
    return this.view.classNameOf(from);
  }
}

/**
 * True when the holder is a field of the JDK's own classes, or a class's constant pool (HotSpot
 * dumps it as the pseudo-static `<resolved_references>`): the pool holds the interned literal, the
 * one copy every use shares, so what wastes is the other copy, never the pool's.
 */
export function isJdkHolder(holder: string): boolean {
  return holder !== NO_REFERRER && (isJdkClass(holder) || holder.endsWith(`.${CONSTANT_POOL} (static)`));
}

const CONSTANT_POOL = '<resolved_references>';

function sameClass(a: HeapObject, b: HeapObject): boolean {
  return a.kind !== 'primitive-array' && b.kind !== 'primitive-array' && a.classId === b.classId;
}
