/**
 * The knowledge registry: every row the analysis reads, in one list, by role. Classifiers and rules
 * ask for the rows of a role (or one of the lookups below); the registry test lints the whole list.
 */
import { ACTIVITY_ROWS } from './activity.js';
import { type FrameIndex, indexFrameRows, lookupFrame } from './frame-match.js';
import { type KnowledgeRow, MATCH_KIND, type Role, type RowOf } from './row.js';
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

/** Every frame row of the registry, whatever its role: the frameworks' and servers' code it knows. */
const KNOWN_FRAMES = frameIndexOf(...(Object.keys(MATCH_KIND) as Role[]).filter((r) => MATCH_KIND[r] === 'frame'));

/** Whether a frame row of the registry names this frame (a framework's wait, loop, lease, request...). */
export function isKnownFrame(f: { readonly className: string; readonly method: string }): boolean {
  return lookupFrame(KNOWN_FRAMES, f) !== undefined;
}

/**
 * A class's library: its first two package names (`org.springframework` of
 * `org.springframework.http.client.X`), or '' for a class in a shallower package.
 */
export function libraryOf(className: string): string {
  const dot = className.indexOf('.');
  const second = dot < 0 ? -1 : className.indexOf('.', dot + 1);
  return second < 0 ? '' : className.slice(0, second);
}

/**
 * The libraries of the frameworks and servers the frame rows name by their full package
 * (`org.springframework.jms...` names `org.springframework`); rows matched as a suffix of a shaded
 * copy (`hikari.util.ConcurrentBag.borrow`) name none.
 */
const FRAMEWORK_LIBRARIES: ReadonlySet<string> = new Set(
  KNOWLEDGE.filter((r) => MATCH_KIND[r.role] === 'frame' && /^(?:com|org|io|net|ch|oracle|weblogic|jeus|akka|kotlinx|redis)\.[a-z]/.test(r.match))
    // A package prefix (`oracle.jdbc.*`) is read with its trailing dot, so it names its library too.
    .map((r) => libraryOf(`${r.match.replace(/\.?\*$/, '')}.`))
    .filter((l) => l !== '' && !isJdkClass(l + '.')),
);

/** Whether a class belongs to a framework or server library the registry knows (not the application's code). */
export function isFrameworkClass(className: string): boolean {
  const l = libraryOf(className);
  return l !== '' && FRAMEWORK_LIBRARIES.has(l);
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
