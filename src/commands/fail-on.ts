/** `--fail-on <severity|never>`, the same for analyze and batch: checked up front, then applied to what was found. */
import { UsageError } from '../errors.js';
import { SEVERITIES, type Severity, severityRank } from '../model/findings.js';

export function checkFailOn(failOn: string): void {
  if (failOn !== 'never' && !(SEVERITIES as readonly string[]).includes(failOn)) {
    throw new UsageError(`unknown --fail-on ${failOn}`, `use one of ${SEVERITIES.join(', ')}, never`);
  }
}

/** True when any severity found is at or above the `--fail-on` threshold (exit code 1). */
export function failsOn(failOn: string, found: Iterable<Severity | null>): boolean {
  if (failOn === 'never') return false;
  const threshold = severityRank(failOn as Severity);
  for (const s of found) if (s !== null && severityRank(s) >= threshold) return true;
  return false;
}
