/**
 * How frame rows are matched: `Class.method` as a suffix at a package boundary (a shaded copy such
 * as `io.grpc.netty.shaded.io.netty...` is the same code), or `prefix.*` as a package or class
 * prefix (or a class and the first letters of a method: `Class.put*`), also after a shading prefix. One index per set of rows; looked up per distinct frame.
 */
import type { StackFrame } from '../model/thread-dump.js';
import type { KnowledgeRow } from './row.js';

type FrameParts = Pick<StackFrame, 'className' | 'method'>;

export interface FrameIndex<T extends KnowledgeRow> {
  readonly byMethod: ReadonlyMap<string, ReadonlyArray<{ readonly cls: string; readonly row: T }>>;
  readonly prefixes: ReadonlyArray<{ readonly prefix: string; readonly row: T }>;
}

export function indexFrameRows<T extends KnowledgeRow>(rows: readonly T[]): FrameIndex<T> {
  const byMethod = new Map<string, Array<{ cls: string; row: T }>>();
  const prefixes: Array<{ prefix: string; row: T }> = [];
  for (const r of rows) {
    if (r.match.endsWith('*')) {
      prefixes.push({ prefix: r.match.replace(/\.?\*$/, ''), row: r });
      continue;
    }
    const dot = r.match.lastIndexOf('.');
    const method = r.match.slice(dot + 1);
    const list = byMethod.get(method) ?? [];
    list.push({ cls: r.match.slice(0, dot), row: r });
    byMethod.set(method, list);
  }
  return { byMethod, prefixes };
}

/** `cls` names the frame's class, or its tail at a package boundary (shaded copies match). */
function classMatches(className: string, cls: string): boolean {
  return className === cls || (className.endsWith(cls) && /[.$]/.test(className.charAt(className.length - cls.length - 1)));
}

/** `prefix` begins the frame's `Class.method` (a package, a class, or a class and a method's first letters). */
function prefixMatches(qualified: string, prefix: string): boolean {
  return qualified.startsWith(prefix) || qualified.indexOf('.' + prefix) > 0;
}

/** The first row of the index that names this frame. */
export function lookupFrame<T extends KnowledgeRow>(index: FrameIndex<T>, f: FrameParts): T | undefined {
  const candidates = index.byMethod.get(f.method);
  if (candidates !== undefined) for (const c of candidates) if (classMatches(f.className, c.cls)) return c.row;
  if (index.prefixes.length === 0) return undefined;
  const qualified = `${f.className}.${f.method}`;
  for (const p of index.prefixes) if (prefixMatches(qualified, p.prefix)) return p.row;
  return undefined;
}
