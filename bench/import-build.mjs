/** How a bench loads a module of a build, this one's or an older checkout's (BENCH_BEFORE). */
import { join } from 'node:path';

/** A module of a build, at its path in this layout or the one before (the bench also runs older builds). */
export async function importFirst(root, ...paths) {
  for (const p of paths) {
    try {
      return await import(join(root, p));
    } catch (e) {
      if (e?.code !== 'ERR_MODULE_NOT_FOUND' || p === paths[paths.length - 1]) throw e;
    }
  }
}
