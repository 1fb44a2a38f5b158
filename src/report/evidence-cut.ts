/**
 * What a finding's evidence leaves out, in words every format uses: the lines a format cuts, and,
 * when the finding counts more threads than its evidence names (a rule cites the first 20 of 156
 * leaked threads), that too, so "… 12 more" is never read as "12 more threads".
 */
import { countText } from '../model/count-text.js';
import { type Finding, threadsCounted } from '../model/findings.js';

/** The note under a finding's evidence when `shown` of its lines are drawn; undefined when nothing is left out. */
export function evidenceCutNote(f: Finding, shown: number, where: string): string | undefined {
  const named = f.evidence.filter((e) => e.kind === 'thread').length;
  const counted = threadsCounted(f.facts);
  const parts: string[] = [];
  if (shown < f.evidence.length) parts.push(`${f.evidence.length - shown} more of ${f.evidence.length} evidence lines ${where}`);
  if (counted !== undefined && counted > named && named > 0)
    parts.push(`the finding counts ${countText(counted)} threads; its evidence names ${named} of them`);
  return parts.length === 0 ? undefined : `… ${parts.join('; ')}`;
}
