/**
 * A heap dump whose file changes while it is read (cut by a copy that started again, or still being
 * written by jcmd) ends where its bytes end, never loops on a read that returns nothing, and says that
 * the file changed size, so the reader knows whether to wait or to take the dump again. The heap is
 * built by hand (a format edge case: an object array of over 64 MiB, so that reading reports progress,
 * where the test changes the file).
 */
import { appendFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { feedHprof } from '../../src/heap/hprof/byte-source.js';
import { truncationWarning } from '../../src/heap/hprof/hprof-warnings.js';
import { HprofParser, MAX_DELIVERED_BODY } from '../../src/heap/hprof/parser.js';
import { scratchDir } from '../helpers.js';
import { chainHeap } from './hand-hprof.js';

const NODES = [0x1000, 0x1010, 0x1020, 0x1030];
// Three times the size at which reading reports progress, where the test changes the file.
const LENGTH = (3 * MAX_DELIVERED_BODY) / 8;

describe('a heap file that changes size while it is read', { timeout: 120_000 }, () => {
  const dir = scratchDir('changing');
  const heap = chainHeap(NODES, LENGTH);

  it('cut while read: ends at its new end, said as a file that shrank', async () => {
    const file = join(dir, 'shrinks.hprof');
    writeFileSync(file, heap);
    let cut = false;
    const parser = new HprofParser({ objectArrayHeader: () => true, objectArrayPiece: () => undefined });
    const fed = await feedHprof(file, parser, {
      onProgress: () => {
        if (cut) return;
        cut = true;
        truncateSync(file, 1024 * 1024);
      },
    });
    expect(cut).toBe(true);
    expect(fed.truncatedAt).toBeDefined();
    expect(fed.resized).toEqual({ from: heap.length, to: 1024 * 1024 });
    expect(truncationWarning(fed)).toMatch(/the file shrank from \d+ to 1048576 bytes while it was read: it was cut or replaced meanwhile/);
  });

  it('still being written: what was there, said as a file that grew', async () => {
    const file = join(dir, 'grows.hprof');
    // The dump so far: its first 70 MiB; the writer adds the rest while it is read.
    writeFileSync(file, heap.subarray(0, 70 * 1024 * 1024));
    let grown = false;
    const parser = new HprofParser({ objectArrayHeader: () => true, objectArrayPiece: () => undefined });
    const fed = await feedHprof(file, parser, {
      onProgress: () => {
        if (grown) return;
        grown = true;
        appendFileSync(file, heap.subarray(70 * 1024 * 1024));
      },
    });
    expect(grown).toBe(true);
    expect(fed.truncatedAt).toBeDefined();
    expect(fed.resized).toEqual({ from: 70 * 1024 * 1024, to: statSync(file).size });
    expect(truncationWarning(fed)).toMatch(/the file grew from \d+ to \d+ bytes while it was read: it is still being written; wait for jcmd or jmap to finish/);
  });

  it('negative control: a file that does not change is read whole, with nothing said', async () => {
    const file = join(dir, 'still.hprof');
    writeFileSync(file, heap);
    const fed = await feedHprof(file, new HprofParser({}), {});
    expect(fed.truncatedAt).toBeUndefined();
    expect(fed.resized).toBeUndefined();
  });
});
