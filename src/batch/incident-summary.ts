/**
 * One incident analysed for `batch`: the same loading, model and rules as `analyze`, reduced to the
 * line batch prints (path, status, counts per severity, findings). Used in worker threads and in process.
 */
import { analyseIncident } from '../analysis/analyse.js';
import { InputError, UserError } from '../errors.js';
import { SEVERITIES, type Severity } from '../model/findings.js';
import type { LeftOutInput } from '../model/model.js';
import { completenessOf } from '../report/completeness.js';

export interface IncidentLine {
  readonly path: string;
  readonly status: 'ok' | 'error';
  readonly error?: string;
  readonly inputs: number;
  readonly counts: Readonly<Record<Severity, number>>;
  readonly highest: Severity | null;
  readonly findings: ReadonlyArray<{
    readonly id: string;
    readonly rule: string;
    readonly severity: Severity;
    readonly subject: string;
    readonly message: string;
  }>;
  readonly seconds: number;
  /**
   * Files the incident's directory held that were not read, each with why (not a dump, unreadable,
   * a link outside it): the first SKIPPED_NOTES_KEPT, then a count. Absent when there are none.
   */
  readonly skipped?: readonly string[];
  /**
   * False when the analysis stood on part of the evidence: an input read only in part (`incomplete`
   * says which and why), or a file of the incident that should have been evidence not read (see
   * `skipped`). Absent on an error line.
   */
  readonly complete?: boolean;
  readonly incomplete?: ReadonlyArray<{ readonly path: string; readonly why: string }>;
  /** Present and true when `--redact` masked the line. */
  readonly redacted?: boolean;
  /**
   * With `--shard K/N`: the shard (K of N), the incident's place in the whole sweep's list (from 0)
   * and that list's length, so that `batch --summary` puts the shards' lines back in one run's order
   * and sees every incident that has no line.
   */
  readonly shard?: { readonly index: number; readonly count: number; readonly position: number; readonly total: number };
}

/** Skipped files named in a line; past them, counted (a folder of thousands of other files). */
const SKIPPED_NOTES_KEPT = 20;

const NO_COUNTS = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;

export async function analyseIncidentForBatch(path: string, configPath: string | undefined, maxGunzipBytes?: number): Promise<IncidentLine> {
  const started = process.hrtime.bigint();
  // Milliseconds are what a batch's timing can tell apart; more digits are noise in every line.
  const seconds = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6) / 1000;
  const failed = (error: string): IncidentLine => ({
    path,
    status: 'error',
    error,
    inputs: 0,
    counts: NO_COUNTS,
    highest: null,
    findings: [],
    seconds: seconds(),
  });
  try {
    // Heaps inflate, and their memory analysis runs, on this thread: batch's workers already keep every core busy.
    const limits = { inflateThreads: 0, memoryOnThisThread: true, ...(maxGunzipBytes !== undefined ? { maxGunzipBytes } : {}) };
    // Inside an incident directory, a file that is not a dump is skipped, as analyze does.
    const result = await analyseIncident({ paths: [path], ...(configPath !== undefined ? { configPath } : {}), limits });
    if (result.outcome === 'nothing-to-analyse')
      throw new InputError(`${path}: no thread dump or heap dump found`, 'an incident is a dump file or a directory holding dumps');
    const { model, findings } = result;
    const completeness = completenessOf(model);
    const counts = { ...NO_COUNTS };
    for (const f of findings) counts[f.severity]++;
    return {
      path,
      status: 'ok',
      inputs: model.inputs.length,
      counts,
      highest: findings[0]?.severity ?? null,
      findings: findings.map((f) => ({ id: f.id, rule: f.rule, severity: f.severity, subject: f.subject, message: f.message })),
      seconds: seconds(),
      ...skippedOf(model.leftOut, model.leftOutMore),
      complete: completeness.complete,
      ...(completeness.cut.length > 0 ? { incomplete: completeness.cut } : {}),
    };
  } catch (e) {
    // One incident that cannot be read is its own line; the batch goes on.
    return failed(e instanceof UserError ? e.message : `internal error (a bug in dumpsleuth): ${(e as Error)?.message ?? String(e)}`);
  }
}

/** The line's `skipped`, from what the model says was not read: the first SKIPPED_NOTES_KEPT, then a count. */
function skippedOf(leftOut: readonly LeftOutInput[], more: number): { skipped?: string[] } {
  if (leftOut.length === 0) return {};
  const named = leftOut.slice(0, SKIPPED_NOTES_KEPT).map((l) => `skipped ${l.path}: ${l.why}`);
  const rest = leftOut.length - named.length + more;
  return { skipped: rest > 0 ? [...named, `and ${rest} more files skipped`] : named };
}
