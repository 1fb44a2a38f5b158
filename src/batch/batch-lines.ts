/**
 * Batch lines read back (`batch --summary`): the NDJSON lines of several runs (the shards of one
 * sweep, run by a job engine) joined into one run's lines, in one run's order, with nothing lost or
 * counted twice without a word: a line that is not a batch line is an error naming its file and line,
 * an incident in two lines is an error, and shards or incidents missing from a sharded sweep are said.
 */
import { InputError } from '../errors.js';
import { SEVERITIES } from '../model/findings.js';
import type { IncidentLine } from './incident-summary.js';

/** The lines of one file (or standard input), `source` naming it in errors. */
export function readBatchLines(text: string, source: string): IncidentLine[] {
  const lines: IncidentLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw notALine(source, i + 1, 'it is not JSON');
    }
    const why = whyNotALine(value);
    if (why !== undefined) throw notALine(source, i + 1, why);
    lines.push(value as IncidentLine);
  });
  return lines;
}

function notALine(source: string, line: number, why: string): InputError {
  return new InputError(
    `${source}:${line} is not a line of dumpsleuth batch: ${why}`,
    'give --summary the NDJSON files batch wrote (its standard output), one file per run or shard, or - for standard input',
  );
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
  return undefined;
}

/** The joined lines, and what the reader should know of them (shards or incidents with no line). */
export interface JoinedLines {
  readonly lines: IncidentLine[];
  readonly notes: string[];
  /** Incidents of the sweep have no line (a shard stopped before its end): the sweep is not whole. */
  readonly incomplete: boolean;
}

/**
 * The lines of several runs as one run's. Lines of a sharded sweep (each says its shard and its place
 * in the whole list) go back to that place; other lines keep the order of the files given. An incident
 * in two lines is an error (shards that overlap, or one file given twice).
 */
export function joinBatchLines(files: ReadonlyArray<{ readonly source: string; readonly lines: readonly IncidentLine[] }>): JoinedLines {
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
  const all = files.flatMap((f) => f.lines);
  const sharded = all.filter((l) => l.shard !== undefined);
  if (sharded.length === 0 || sharded.length < all.length)
    return { lines: all, notes: sharded.length > 0 ? ['some lines say their shard and others do not: kept in the order given'] : [], incomplete: false };
  const counts = new Set(sharded.map((l) => l.shard!.count));
  if (counts.size > 1)
    throw new InputError(`the lines come from sweeps cut in different numbers of shards (${[...counts].join(', ')})`, 'join the shards of one sweep at a time');
  const count = sharded[0]!.shard!.count;
  const lines = [...all].sort((a, b) => a.shard!.position - b.shard!.position);
  const notes: string[] = [];
  const shards = new Set(lines.map((l) => l.shard!.index));
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !shards.has(k));
  if (missing.length > 0)
    notes.push(
      `no line from shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${count}: ` +
        'a shard with no incident writes none; one that had some did not run or its output is missing',
    );
  const gaps = lines.length > 0 ? lines[lines.length - 1]!.shard!.position + 1 - lines.length : 0;
  if (gaps > 0)
    notes.push(
      `${gaps} incident${gaps === 1 ? '' : 's'} of the sweep before its last line have no line: a shard stopped before its end, or its output is missing`,
    );
  return { lines, notes, incomplete: gaps > 0 };
}
