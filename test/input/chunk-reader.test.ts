/**
 * A plain file is read into two buffers in turn (src/input/open.ts): every chunk must reach the reader
 * as it was on disk, whatever size the file is, and a reader that stops early must leave no read behind.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { openInput } from '../../src/input/open.js';
import { scratchDir } from '../helpers.js';

const dir = scratchDir('chunks');

/** Lines that say their own number, so a chunk read over another shows as a line out of place. */
function numberedLines(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`line ${i} ${'x'.repeat(i % 97)}`);
  return lines.join('\n') + '\n';
}

async function readAll(path: string): Promise<string> {
  const opened = await openInput(path);
  let text = '';
  for await (const chunk of opened.text()) text += chunk;
  return text;
}

describe('reading a file in chunks', () => {
  test.each([
    ['smaller than a chunk', 100],
    ['a few chunks', 5_000],
    ['many chunks', 60_000],
  ])('%s: the text read is the file', async (_, count) => {
    const text = numberedLines(count);
    const path = join(dir, `plain-${count}.txt`);
    writeFileSync(path, text);
    expect(await readAll(path)).toBe(text);
  });

  test('a gzip file of many chunks inflates to its text (its chunks are never shared)', async () => {
    const text = numberedLines(60_000);
    const path = join(dir, 'many.txt.gz');
    writeFileSync(path, gzipSync(text));
    expect(await readAll(path)).toBe(text);
  });

  test.each([
    ['stops its loop after the first chunk', true],
    ['takes one chunk and lets go of the reader without ending it', false],
  ])('a reader that %s frees the file with no error or warning left behind', async (_, endsLoop) => {
    const path = join(dir, `stop-early-${String(endsLoop)}.txt`);
    writeFileSync(path, numberedLines(60_000));
    const leftBehind: unknown[] = [];
    const onRejection = (e: unknown) => leftBehind.push(e);
    const onWarning = (w: Error) => leftBehind.push(w.message);
    process.on('unhandledRejection', onRejection);
    process.on('warning', onWarning);
    try {
      const opened = await openInput(path);
      if (endsLoop) {
        for await (const chunk of opened.text()) {
          expect(chunk.startsWith('line 0 ')).toBe(true);
          break;
        }
      } else {
        const first = await opened.text()[Symbol.asyncIterator]().next();
        expect(first.value).toMatch(/^line 0 /);
      }
      opened.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      globalThis.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(leftBehind).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      process.off('warning', onWarning);
    }
  });
});
