/**
 * Batch lines read back (`batch --summary`): the NDJSON lines of several runs (the shards of one
 * sweep, run by a job engine) joined into one run's lines, in one run's order, with nothing lost or
 * counted twice without a word: a line that is not a batch line is an error naming its file and line;
 * an incident, or a place in a sweep, in two lines is an error; lines of different sweeps are an
 * error; and incidents of a sharded sweep with no line make the join incomplete, each shard saying
 * how many incidents the whole sweep has.
 */
import { InputError } from '../errors.js';
import { SEVERITIES } from '../model/findings.js';
import type { IncidentLine } from './incident-summary.js';

/** The lines of one file (or standard input), as its text lines, `source` naming it in errors. */
export function readBatchLines(text: Iterable<string>, source: string): IncidentLine[] {
  const lines: IncidentLine[] = [];
  let i = -1;
  for (const raw of text) {
    i++;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw notALine(source, i + 1, 'it is not JSON');
    }
    const why = whyNotALine(value);
    if (why !== undefined) throw notALine(source, i + 1, why);
    lines.push(value as IncidentLine);
  }
  return lines;
}

/** A line (or a file, at its first) that is not what batch writes, and what --summary takes. */
export function notALine(source: string, line: number, why: string): InputError {
  return new InputError(
    `${source}:${line} is not a line of dumpsleuth batch: ${why}`,
    'give --summary the NDJSON files batch wrote (its standard output), one file per run or shard, or - for standard input',
  );
}

const isCount = (v: unknown, least: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= least;

/** A line's shard: K of N, and a place in the sweep's list of `total` incidents that shard K takes (K, K+N, ...). */
function isShard(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const { index, count, position, total } = v as Record<string, unknown>;
  if (!isCount(index, 1) || !isCount(count, 1) || !isCount(position, 0) || !isCount(total, 1)) return false;
  return index <= count && position < total && position % count === index - 1;
}

/** Why a parsed value is not an incident line, or undefined when it is one. */
function whyNotALine(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'it is not an object';
  const line = v as Record<string, unknown>;
  if (typeof line['path'] !== 'string') return 'it has no "path"';
  if (line['status'] !== 'ok' && line['status'] !== 'error') return 'its "status" is neither "ok" nor "error"';
  const counts = line['counts'];
  if (typeof counts !== 'object' || counts === null || SEVERITIES.some((s) => typeof (counts as Record<string, unknown>)[s] !== 'number'))
    return `its "counts" lack a number for each of ${SEVERITIES.join(', ')}`;
  if (line['highest'] !== null && !SEVERITIES.includes(line['highest'] as never)) return 'its "highest" is not a severity';
  if (!Array.isArray(line['findings'])) return 'it has no "findings" list';
  if (line['shard'] !== undefined && !isShard(line['shard'])) return 'its "shard" is not a shard K of N with its place among the sweep\'s incidents';
  return undefined;
}

/** The joined lines, and what the reader should know of them (shards or incidents with no line). */
export interface JoinedLines {
  readonly lines: IncidentLine[];
  readonly notes: string[];
  /** Incidents of the sweep have no line (a shard that stopped, an output lost), or no file had a line: the sweep is not whole. */
  readonly incomplete: boolean;
}

/**
 * The lines of several runs as one run's. Lines of a sharded sweep (each says its shard, its place in
 * the whole list and the list's length) go back to their places; other lines keep the order of the
 * files given. An incident in two lines is an error (shards that overlap, or one file given twice).
 */
export function joinBatchLines(files: ReadonlyArray<{ readonly source: string; readonly lines: readonly IncidentLine[] }>): JoinedLines {
  const all = files.flatMap((f) => f.lines);
  if (all.length === 0) return { lines: [], notes: ['the files given hold no incident line'], incomplete: true };
  const notes: string[] = [];
  // Redacted paths are tokens, which two runs may give to different incidents: they are no incident's name.
  const redacted = all.some((l) => l.redacted === true);
  if (redacted)
    notes.push(
      'lines redacted by their own runs: a token may stand for different values in different shards ' +
        '(run the shards without --redact, and give --redact to --summary)',
    );
  if (!redacted) noIncidentTwice(files);
  const sharded = all.filter((l) => l.shard !== undefined);
  if (sharded.length === 0) return { lines: all, notes, incomplete: false };
  if (sharded.length < all.length)
    return { lines: all, notes: [...notes, 'some lines say their shard and others do not: kept in the order given'], incomplete: false };
  const sweeps = new Set(sharded.map((l) => `${l.shard!.count} shards of ${l.shard!.total}`));
  if (sweeps.size > 1)
    throw new InputError(
      `the lines come from different sweeps (${[...sweeps].join('; ')})`,
      'join the shards of one sweep at a time, all cut with the same --shard count',
    );
  const { count, total } = sharded[0]!.shard!;
  const byPosition = new Map<number, string>();
  for (const { source, lines } of files)
    for (const l of lines) {
      const before = byPosition.get(l.shard!.position);
      if (before !== undefined)
        throw new InputError(
          `two lines stand for incident ${l.shard!.position + 1} of the sweep, in ${before} and in ${source}`,
          "give each shard's output once, and the shards of one sweep only",
        );
      byPosition.set(l.shard!.position, source);
    }
  const lines = [...all].sort((a, b) => a.shard!.position - b.shard!.position);
  const shards = new Set(lines.map((l) => l.shard!.index));
  // A shard has incidents when the sweep has more than its number less one.
  const silent = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !shards.has(k) && k <= total);
  if (silent.length > 0) notes.push(`no line from shard${silent.length === 1 ? '' : 's'} ${silent.join(', ')} of ${count}, which had incidents`);
  const missing = total - lines.length;
  if (missing > 0)
    notes.push(`${missing} of the sweep's ${total} incidents have no line: a shard did not run, stopped before its end, or its output is missing`);
  return { lines, notes, incomplete: missing > 0 };
}

function noIncidentTwice(files: ReadonlyArray<{ readonly source: string; readonly lines: readonly IncidentLine[] }>): void {
  const seen = new Map<string, string>();
  for (const { source, lines } of files)
    for (const l of lines) {
      const before = seen.get(l.path);
      if (before !== undefined)
        throw new InputError(
          `the incident ${l.path} has a line in ${before} and in ${source}`,
          'give each shard\'s output once; shards of one sweep must use the same "--shard K/N" count and the same paths',
        );
      seen.set(l.path, source);
    }
}
