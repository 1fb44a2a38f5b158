/**
 * One block of an indexed plain HPROF (see ObjectIndex), read and parsed on its own: the loader's
 * sweeps for objects it still wants, and the naming of a path's steps, read only the blocks that
 * hold the objects they look for.
 */
import { readSync } from 'node:fs';

import type { IndexBlock } from './object-index.js';
import { type HprofHeader, HprofParser, type HprofVisitor } from './parser.js';

/** Parses block `block` of the open file `fd` (`fileSize` bytes) with `visitor`. */
export function parseIndexedBlock(fd: number, fileSize: number, header: HprofHeader, block: IndexBlock, visitor: HprofVisitor): void {
  const end = Math.min(block.end ?? fileSize, fileSize);
  const buf = Buffer.allocUnsafe(Math.max(0, end - block.offset));
  const n = readSync(fd, buf, 0, buf.length, block.offset);
  const parser = new HprofParser(visitor);
  parser.resumeAt(header, block.offset, block.segmentLeft);
  parser.push(buf, 0, n);
}
