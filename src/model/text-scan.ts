/**
 * Text taken apart in code where a regular expression would backtrack on hostile input (a long run of
 * one character with no match at its end): each helper reads its input once.
 */

/** The text without its `key=value` words (a word with an `=` that has characters on both sides). */
export function withoutKeyValues(text: string): string {
  return text
    .split(' ')
    .map((w) => {
      const eq = w.indexOf('=');
      return eq > 0 && eq < w.length - 1 ? '' : w;
    })
    .join(' ');
}

/** The text without a last `[...]` group (and the spaces after it) at its end. */
export function withoutTrailingBracket(text: string): string {
  const t = text.trimEnd();
  if (!t.endsWith(']')) return text;
  const open = t.lastIndexOf('[');
  if (open < 0 || t.indexOf(']', open) !== t.length - 1) return text;
  return t.slice(0, open);
}

/** The text without the characters `c` at its end (a path's trailing slashes). */
export function trimEndChar(text: string, c: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === c) end--;
  return text.slice(0, end);
}

/** Characters of a URL's scheme (RFC 3986: a letter, then letters, digits, `+`, `.`, `-`). */
const isSchemeChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isWordChar = (c: number) => isLetter(c) || (c >= 48 && c <= 57) || c === 95;

/**
 * Where URLs begin: for each `://`, the first letter of the scheme in front of it that starts a word.
 * One pass over the text (the runs of scheme characters in front of two `://` never overlap), where
 * a regular expression tried at every position read a long run of letters once per position.
 */
export function* urlStarts(text: string): Generator<number> {
  let from = 0;
  for (;;) {
    const k = text.indexOf('://', from);
    if (k < 0) return;
    let start = k;
    while (start > 0 && isSchemeChar(text.charCodeAt(start - 1))) start--;
    for (let p = start; p < k; p++) {
      if (isLetter(text.charCodeAt(p)) && (p === 0 || !isWordChar(text.charCodeAt(p - 1)))) {
        yield p;
        break;
      }
    }
    from = k + 3;
  }
}

/**
 * Replaces the matches of a sticky expression tried only at the given starts (in increasing order):
 * the expression is anchored at each start, so the whole runs in time linear in the text.
 */
export function replaceAt(text: string, starts: Iterable<number>, sticky: RegExp, replace: (m: RegExpExecArray) => string): string {
  let out = '';
  let done = 0;
  for (const s of starts) {
    if (s < done) continue;
    sticky.lastIndex = s;
    const m = sticky.exec(text);
    if (m === null) continue;
    out += text.slice(done, s) + replace(m);
    done = s + m[0].length;
  }
  return done === 0 ? text : out + text.slice(done);
}
