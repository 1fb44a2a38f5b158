/** A dumpsleuth.heap/1 snapshot of a real heap, in memory, as `dumpsleuth extract` writes it. */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { openHeapFile } from '../../src/analysis/heap-file.js';
import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { writeHeapSnapshotFile } from '../../src/heap/json/snapshot-writer.js';
import { scratchDir } from '../helpers.js';

export async function extractToBuffer(heapPath: string): Promise<Buffer> {
  const dir = scratchDir('extract');
  try {
    const out = join(dir, 'incident.json');
    const store = await openHeapFile(heapPath, ANALYSIS_PLAN);
    await writeHeapSnapshotFile(store, out, { createdBy: 'dumpsleuth robustness tests', plan: ANALYSIS_PLAN.roots }, false);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
