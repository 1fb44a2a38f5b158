/** IdSlots against a Map on ids shaped like HPROF's (aligned addresses past 2^32), through growth. */
import { describe, expect, it } from 'vitest';

import { IdSlots } from '../../src/heap/hprof/id-slots.js';

describe('IdSlots', () => {
  it('agrees with a Map on 200,000 ids, with replacements and misses', () => {
    const slots = new IdSlots(4);
    const map = new Map<number, number>();
    let seed = 12345;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 200_000; i++) {
      // Addresses 8-aligned, some below 2^32, most above (up to 2^47).
      const id = i % 3 === 0 ? random() * 8 : (random() % 32768) * 4294967296 + random() * 8;
      slots.set(id, i);
      map.set(id, i);
    }
    expect(slots.size).toBe(map.size);
    for (const [id, v] of map) expect(slots.get(id)).toBe(v);
    for (let i = 0; i < 1000; i++) if (!map.has(i * 8 + 1)) expect(slots.get(i * 8 + 1)).toBe(-1);
  });
});
