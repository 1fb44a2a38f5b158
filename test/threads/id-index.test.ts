import { describe, expect, it } from 'vitest';

import { addressValue, IdIndex } from '../../src/threads/id-index.js';

/** A small deterministic generator, so a failure names the seed that made it. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

describe('IdIndex', () => {
  it('numbers ids in the order first seen, as a Map of the texts would, across growth', () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      const index = new IdIndex();
      const reference = new Map<string, number>();
      const seen: string[] = [];
      for (let k = 0; k < 20000; k++) {
        let id: string;
        const r = next();
        if (r < 0.3 && seen.length > 0) id = seen[Math.floor(next() * seen.length)]!;
        else if (r < 0.85)
          id = `0x0000${Math.floor(next() * 2 ** 40)
            .toString(16)
            .padStart(12, '0')}`;
        else if (r < 0.95)
          id = `${Math.floor(next() * 1e6)}`; // javacore-like or JSON ids
        else id = `0x${'f'.repeat(16)}${Math.floor(next() * 100)}`; // beyond exact doubles: kept as text
        seen.push(id);
        const want = reference.get(id) ?? reference.size;
        if (!reference.has(id)) reference.set(id, want);
        expect(index.add(id), `seed ${seed}, id ${id}`).toBe(want);
      }
      // Asked again, every id keeps its number, and a new one gets the next.
      for (const [id, n] of reference) expect(index.add(id)).toBe(n);
      expect(index.add('0x7fffffffffff8')).toBe(reference.has('0x7fffffffffff8') ? reference.get('0x7fffffffffff8') : reference.size);
    }
  });

  it('reads hex addresses exactly, and refuses what is not one', () => {
    expect(addressValue('0x000000076ab2c3d8')).toBe(0x76ab2c3d8);
    expect(addressValue('0x00007F7DE0017F60')).toBe(0x7f7de0017f60);
    expect(addressValue('0xfffffffffffff')).toBe(2 ** 52 - 1);
    // 14 significant digits could lose bits in a double: such ids stay texts.
    expect(addressValue('0x10000000000000')).toBe(-1);
    for (const id of ['', '0x', '12345', '0x12g4', 'x123', '<0x12>']) expect(addressValue(id), id).toBe(-1);
  });

  it('keeps apart addresses that differ only in bits a weak hash would drop', () => {
    const index = new IdIndex();
    // Aligned addresses with equal low bits and different high words.
    const ids = Array.from({ length: 5000 }, (_, k) => `0x${(k * 2 ** 32 + 0x1000).toString(16)}`);
    ids.forEach((id, k) => expect(index.add(id)).toBe(k));
    ids.forEach((id, k) => expect(index.add(id)).toBe(k));
  });
});
