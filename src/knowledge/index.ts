/**
 * The knowledge registry: every row the analysis reads, in one list, by role. Classifiers and rules
 * ask for the rows of a role (or one of the lookups below); the registry test lints the whole list.
 */
import { ACTIVITY_ROWS } from './activity.js';
import { type FrameIndex, indexFrameRows } from './frame-match.js';
import type { KnowledgeRow, Role, RowOf } from './row.js';
import { STACK_IDIOM_ROWS } from './stack-idioms.js';
import { THREAD_NAME_ROWS } from './thread-names.js';

export const KNOWLEDGE: readonly KnowledgeRow[] = [...ACTIVITY_ROWS, ...STACK_IDIOM_ROWS, ...THREAD_NAME_ROWS];

export function rowsOf<R extends Role>(role: R): ReadonlyArray<RowOf<R>> {
  return KNOWLEDGE.filter((r): r is RowOf<R> => r.role === role);
}

/** An index over the frame rows of some roles, in registry order. */
export function frameIndexOf<R extends Role>(...roles: R[]): FrameIndex<RowOf<R>> {
  return indexFrameRows(KNOWLEDGE.filter((r): r is RowOf<R> => (roles as Role[]).includes(r.role)));
}

const JDK_PREFIXES = rowsOf('jdk-code').map((r) => r.match.replace(/\*$/, ''));

/** Whether a class (or a `Class.method` name) is the JDK's own, by its package. */
export function isJdkClass(c: string): boolean {
  for (const p of JDK_PREFIXES) if (c.startsWith(p)) return true;
  return false;
}

/**
 * The name rows of some roles as one test: most names match none, and are then read once, not once
 * per row. Anchored once, outside the alternation (every name row starts with `^`): with each row's
 * own anchor inside it, the engine tried the alternatives at every position of the name.
 */
export function nameMatcher<R extends Role>(...roles: R[]): (name: string) => RowOf<R> | undefined {
  const rows = KNOWLEDGE.filter((r): r is RowOf<R> => (roles as Role[]).includes(r.role)).map((r) => ({ row: r, re: new RegExp(r.match) }));
  const any = new RegExp(`^(?:${rows.map((r) => `(?:${r.row.match.replace(/^\^/, '')})`).join('|')})`);
  return (name) => (any.test(name) ? rows.find((r) => r.re.test(name))?.row : undefined);
}

/** The method-name rows of a role as one test (each row's pattern is anchored at both ends). */
export function methodNameTest(role: 'work-wait-method' | 'next-message-method' | 'native-input-method'): RegExp {
  return new RegExp(
    rowsOf(role)
      .map((r) => `(?:${r.match})`)
      .join('|'),
  );
}

export { lookupFrame } from './frame-match.js';
export type { KnowledgeRow, Role, RowOf } from './row.js';
