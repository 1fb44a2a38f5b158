/**
 * One block of an indexed plain HPROF (see ObjectIndex), read and parsed on its own: the loader's
 * sweeps for objects it still wants, and the naming of a path's steps, read only the blocks that
 * hold the objects they look for.
 */
import { feedOpenFile } from './byte-source.js';
import type { IndexBlock } from './object-index.js';
import { type HprofHeader, HprofParser, type HprofVisitor } from './parser.js';

/**
 * Parses block `block` of the open file `fd` (`fileSize` bytes) with `visitor`, read as a pass reads
 * the file: a block holding an array of hundreds of megabytes (or the last block, which runs to the
 * file's end) is read in pieces, not whole into one buffer.
 */
export function parseIndexedBlock(fd: number, fileSize: number, header: HprofHeader, block: IndexBlock, visitor: HprofVisitor): void {
  const end = Math.min(block.end ?? fileSize, fileSize);
  if (end <= block.offset) return;
  const parser = new HprofParser(visitor);
  parser.resumeAt(header, block.offset, block.segmentLeft);
  feedOpenFile(fd, parser, block.offset, end);
}
