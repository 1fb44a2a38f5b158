/**
 * The warning for a cut HPROF names a place inside the data that was there and never a negative
 * count: checked at many cut points of a real heap dump, plain and gzip (where the parser skips a
 * record it does not need, its own offset runs past the end of the data).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { heapHistogramOfFile } from '../../src/analysis/heap-file.js';
import { scratchDir } from '../helpers.js';

const heap = gunzipSync(readFileSync('fixtures/incidents/active-count-leak/heap.hprof.gz'));
const dir = scratchDir('cut-heap');

/** Every byte position and byte count the warning states. */
function figures(w: string): { positions: number[]; counts: number[] } {
  const positions = [...w.matchAll(/at byte (-?\d+)|ends at byte (-?\d+)/g)].map((m) => Number(m[1] ?? m[2]));
  const counts = [...w.matchAll(/the (-?\d+) bytes|needs (-?\d+) more bytes/g)].map((m) => Number(m[1] ?? m[2]));
  return { positions, counts };
}

describe('a cut heap dump is described with figures that exist', { timeout: 120_000 }, () => {
  // Evenly spread cut points past the header, and the last bytes, where the end records are.
  const cuts = [...Array.from({ length: 24 }, (_, i) => Math.floor(((i + 1) * heap.length) / 26)), heap.length - 1, heap.length - 7, heap.length - 19];
  for (const gzip of [false, true]) {
    it(gzip ? 'gzip' : 'plain', async () => {
      let described = 0;
      for (const at of cuts) {
        const file = join(dir, `cut-${at}.hprof${gzip ? '.gz' : ''}`);
        const bytes = heap.subarray(0, at);
        writeFileSync(file, gzip ? gzipSync(bytes, { level: 1 }) : bytes);
        const h = await heapHistogramOfFile(file);
        const cut = h.warnings.filter((w) => /heap dump ends/.test(w));
        expect(cut, `cut at ${at}`).toHaveLength(1);
        const { positions, counts } = figures(cut[0]!);
        expect(positions.length, cut[0]).toBeGreaterThan(0);
        for (const p of positions) expect(p, `${cut[0]} (cut at ${at})`).toBeLessThanOrEqual(at);
        for (const p of positions) expect(p).toBeGreaterThan(0);
        for (const c of counts) expect(c, cut[0]).toBeGreaterThan(0);
        for (const c of counts) if (/the \d+ bytes from there/.test(cut[0]!)) expect(positions[0]! + c).toBe(at);
        described++;
      }
      expect(described).toBe(cuts.length);
    });
  }
});
