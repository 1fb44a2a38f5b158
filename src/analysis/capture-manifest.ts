/**
 * The manifest `dumpsleuth capture` writes into an incident directory (`capture.json`): not an input
 * of its own, but what it says failed belongs in the report. A heap dump that was asked for and not
 * written is missing evidence: the analysis of the directory says so, in every format, instead of
 * reporting the rest as if the capture were complete.
 */
import { readFile, stat } from 'node:fs/promises';

/** The manifest's file name. */
export const CAPTURE_MANIFEST = 'capture.json';

/** Failed steps a report lists in full; the rest are counted. */
const STEPS_LISTED = 8;

interface ManifestStep {
  readonly what?: unknown;
  readonly ok?: unknown;
  readonly error?: unknown;
  readonly remedy?: unknown;
  readonly file?: unknown;
}

/** Far above what a capture of many dumps writes (each step is a line or two of JSON). */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * The notes a capture's manifest adds to the report: one per failed step, the heap dump's first.
 * Undefined when the file is not dumpsleuth's manifest (another tool's capture.json): the caller
 * skips it as it skips any file that is not an input.
 */
export async function captureManifestNotes(path: string): Promise<string[] | undefined> {
  let manifest: unknown;
  try {
    // dumpsleuth's manifest is a few KiB: a file far bigger is another tool's, and is not read whole to learn it.
    if ((await stat(path)).size > MAX_MANIFEST_BYTES) return undefined;
    manifest = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest === null || typeof manifest !== 'object') return undefined;
  const m = manifest as { schema?: unknown; steps?: unknown };
  if (typeof m.schema !== 'string' || !m.schema.startsWith('dumpsleuth.capture/') || !Array.isArray(m.steps)) return undefined;
  return notesOfSteps(path, m.steps as ManifestStep[]);
}

function notesOfSteps(path: string, steps: readonly ManifestStep[]): string[] {
  const failed = steps.filter((s) => s !== null && typeof s === 'object' && s.ok === false && typeof s.what === 'string');
  const heapFirst = [...failed.filter((s) => isHeapStep(s)), ...failed.filter((s) => !isHeapStep(s))];
  const notes = heapFirst.slice(0, STEPS_LISTED).map((s) => {
    const why = (typeof s.error === 'string' ? s.error : 'no reason recorded') + (typeof s.remedy === 'string' ? `; ${s.remedy}` : '');
    return isHeapStep(s)
      ? `${path}: the heap dump asked for (capture --heap) is missing: ${why}` +
          (typeof s.file === 'string' ? `; what the JVM wrote of it (${s.file}) is cut, read as far as it goes` : '; no heap dump of this capture was read')
      : `${path}: the capture's step "${s.what as string}" failed: ${why}`;
  });
  if (heapFirst.length > STEPS_LISTED) notes.push(`${path}: ${heapFirst.length - STEPS_LISTED} more steps of the capture failed (listed there)`);
  return notes;
}

function isHeapStep(s: ManifestStep): boolean {
  return typeof s.what === 'string' && isHeapStepName(s.what);
}

/** Whether a capture step of this name took the heap dump (capture names them `heap dump (live objects, gzip)`, ...). */
export function isHeapStepName(what: string): boolean {
  return what.startsWith('heap dump');
}
