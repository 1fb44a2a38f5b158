/** Thread names that carry an instance number, by the factory that writes them: what the thread-leak rule counts. */
import { rowsOf } from '../../knowledge/index.js';

export interface InstanceNaming {
  /** How every name of the scheme begins (what `pattern` asks first, as plain text). */
  readonly starts: readonly string[];
  /** The name, with the instance number in group 1. */
  readonly pattern: RegExp;
  /** The scheme as users read it, `#` for numbers. */
  readonly scheme: string;
  /** What one instance is, and what creates it. */
  readonly instance: string;
  readonly remedy: string;
  /** Each instance is one thread started by hand: many are an explosion whatever they do. */
  readonly threadPerInstance: boolean;
}

/** Thread names with an instance number, by the factory that writes them (the registry's `instance-naming` rows). */
export const INSTANCE_NAMINGS: readonly InstanceNaming[] = rowsOf('instance-naming').map((r) => ({
  starts: r.detail.starts,
  pattern: new RegExp(r.match),
  scheme: r.detail.scheme,
  instance: r.means,
  remedy: r.detail.remedy,
  threadPerInstance: r.detail.threadPerInstance === true,
}));

/**
 * The first characters any scheme's names begin with: a dump's names are read once, and most are
 * ruled out by their first character before a pattern is tried (a regular expression per name was
 * most of the rule's time on a dump of 200,000 threads).
 */
const FIRST_CHARACTERS = new Set(INSTANCE_NAMINGS.flatMap((n) => n.starts.map((s) => s.charCodeAt(0))));

/** The scheme a thread name is an instance of, with the instance number (null for none). */
export function instanceNamingOf(name: string): { readonly naming: InstanceNaming; readonly number: number | null } | undefined {
  if (!FIRST_CHARACTERS.has(name.charCodeAt(0))) return undefined;
  for (const naming of INSTANCE_NAMINGS) {
    if (!naming.starts.some((s) => name.startsWith(s))) continue;
    const m = naming.pattern.exec(name);
    if (m !== null) return { naming, number: m[1] !== undefined ? Number(m[1]) : null };
  }
  return undefined;
}
