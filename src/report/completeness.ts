/**
 * What every report says first when the analysis did not see all of the evidence: inputs read only
 * in part (cut files, size limits, lines over the limit) and files of the incident that were not read
 * at all. A reader of the ticket must know the answer below stands on part of the evidence.
 */
import type { LeftOutInput, Model } from '../model/model.js';
import { withoutFileName } from '../model/read-failure.js';

export interface Completeness {
  /** Every input read to its end, and no file that should have been evidence left out. */
  readonly complete: boolean;
  /** What the answer may depend on and the inputs do not hold (Model.missingEvidence). */
  readonly missing: readonly string[];
  /** Inputs read only in part, and why. */
  readonly cut: ReadonlyArray<{ readonly path: string; readonly why: string }>;
  /** Files not read at all: evidence first (given by name, or named like a dump), then stray files. */
  readonly leftOut: readonly LeftOutInput[];
  readonly leftOutMore: number;
}

export function completenessOf(model: Model): Completeness {
  const cut = model.inputs.flatMap((i) => (i.cut !== undefined ? [{ path: i.path, why: withoutFileName(i.path, i.cut) }] : []));
  const leftOut = [...model.leftOut].sort((a, b) => Number(b.evidence) - Number(a.evidence));
  const missing = model.missingEvidence;
  return { complete: cut.length === 0 && missing.length === 0 && !leftOut.some((l) => l.evidence), missing, cut, leftOut, leftOutMore: model.leftOutMore };
}

/** The heading of the block, when there is one to show. */
export function completenessHeading(c: Completeness): string | undefined {
  if (!c.complete) return 'Incomplete: this report stands on part of the evidence';
  return c.leftOut.length > 0 || c.leftOutMore > 0 ? 'Not read' : undefined;
}

/** The model's notes less those the block at the top says already. */
export function notesBelow(model: Model): string[] {
  return model.notes.filter((n) => !model.missingEvidence.includes(n));
}

/** The block's lines, plain text (each renderer escapes and styles them). */
export function completenessLines(c: Completeness): string[] {
  return [
    ...c.missing,
    ...c.cut.map((x) => `${x.path} was read only in part: ${x.why}`),
    ...c.leftOut.map((l) => `${l.path} was not read: ${l.why}`),
    ...(c.leftOutMore > 0 ? [`${c.leftOutMore} more ${c.leftOutMore === 1 ? 'file was' : 'files were'} not read`] : []),
  ];
}
