/** Escaping for the Markdown report: text from a dump that cannot become markup, a link or a mention. */
import { stripControl } from './sanitize.js';

/** Text from a dump, inert in Markdown and in the HTML trackers allow inside it. */
export function mdText(s: string): string {
  return (
    stripControl(s)
      .replace(/[\r\n]+/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // `$` too: GitHub renders `$…$` as math.
      .replace(/([\\`*_[\]#|~!$])/g, '\\$1')
      // A URL or a `www.` host from a dump must stay text: GitHub's autolinks do not read past an
      // escaped `:` of `://` or `.` of `www.` (and the text still reads `http://`, `www.`).
      .replace(/:\/\//g, '\\://')
      .replace(/\b(www)\./gi, '$1\\.')
      // `@name` from a dump would notify that user (or team) on GitHub and GitLab: a zero-width joiner
      // after the `@` breaks the mention and reads the same. Not after a letter or digit (`Object@1b6d`,
      // `java.base@17` are no mentions and stay as they are, to be copied and searched).
      .replace(MENTION, '@\u200d')
  );
}

/** An `@` where GitHub and GitLab start a mention: not after a letter, digit or `_`, before a name character. */
const MENTION = /(?<![\p{L}\p{N}_])@(?=[\p{L}\p{N}_])/gu;

/** Text in a fence longer than any run of backticks inside it, so no line of a dump can close it. */
export function fenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${fence}text\n${text}\n${fence}`;
}
