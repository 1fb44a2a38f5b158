/** How the memory waste names what keeps an object, where no field does, and which holders are the JDK's own. */
import { isJdkClass } from '../../knowledge/index.js';

/** What a holder is named when no object refers to the object (only a GC root holds it). */
export const NO_REFERRER = 'no referrer';

/**
 * True when the holder is a field of the JDK's own classes, or a class's constant pool (HotSpot
 * dumps it as the pseudo-static `<resolved_references>`): the pool holds the interned literal, the
 * one copy every use shares, so what wastes is the other copy, never the pool's.
 */
export function isJdkHolder(holder: string): boolean {
  return holder !== NO_REFERRER && (isJdkClass(holder) || holder.endsWith(`.${CONSTANT_POOL} (static)`));
}

const CONSTANT_POOL = '<resolved_references>';
