/**
 * A report section as format-neutral blocks (headings, paragraphs, lists, tables, preformatted
 * lines), so the memory report's sections are worded once and drawn by text, Markdown and HTML alike
 * (doc-text.ts, doc-markdown.ts, doc-html.ts). Strings stay raw here: each drawer escapes them.
 */

/** A list item, and the lines under it (a path, what it holds). */
export interface DocItem {
  readonly text: string;
  readonly details?: readonly string[];
}

export type DocBlock =
  /** Level 1: a section; level 2: a part of one. The drawer decides what level 1 is in its format. */
  | { readonly kind: 'heading'; readonly level: 1 | 2; readonly text: string }
  /** `tone`: `muted` for how the figures were made, `warning` for what the reader must not miss (a dump read in part). */
  | { readonly kind: 'para'; readonly text: string; readonly tone?: 'muted' | 'warning' }
  | { readonly kind: 'list'; readonly items: readonly DocItem[]; readonly ordered?: boolean }
  | {
      readonly kind: 'table';
      readonly head: readonly string[];
      readonly rows: ReadonlyArray<readonly string[]>;
      /** Columns aligned right (figures). */
      readonly right?: readonly number[];
      /** What the rows leave out, in words (`… 12 more values`). */
      readonly more?: string;
    }
  /** Lines whose indentation means something (a tree). */
  | { readonly kind: 'pre'; readonly lines: readonly string[] };
