/**
 * Issue 46 (seeded fuzzing): `@name` from a dump was left as it is in the Markdown report, and GitHub
 * and GitLab notify that user when the report is pasted into an issue. A real deadlock dump with a
 * thread renamed `@octocat`, a lock class and a frame's class holding an `@name`: outside code,
 * every such `@` is followed by a zero-width joiner. Controls: `Object@1b6d3586` and
 * `java.base@17.0.15` (an `@` after a letter or digit is no mention) are left as they are.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { mdText, renderMarkdown } from '../../src/report/markdown.js';
import { analyseFiles, scratchDir, TEST_TOOL } from '../helpers.js';

const dir = scratchDir('mentions');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The report's text outside fenced code blocks and inline code spans, where trackers look for mentions. */
const outsideCode = (md: string) => md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)[^`]*?\1/g, '');
/** `@` where a mention starts: not after a letter, digit or `_`, before a name character. */
const MENTION = /(?<![\p{L}\p{N}_])@(?=[\p{L}\p{N}_])/u;

describe('Markdown: no @mention from a dump', { timeout: 60_000 }, () => {
  it('a thread named @octocat, a lock class and a frame holding an @name', async () => {
    const text = readFileSync('fixtures/threads/deadlock/dump-1.txt', 'utf8')
      .replaceAll('"mon-1"', '"@octocat"')
      .replaceAll('Deadlocks$MonitorB', 'Deadlocks$@security-team')
      .replaceAll('at Deadlocks.monitorPair(Deadlocks.java:39)', 'at com.@github.Deadlocks.monitorPair(Deadlocks.java:39)');
    const file = join(dir, 'dump.txt');
    writeFileSync(file, text);
    const { model, findings } = await analyseFiles([file]);
    const md = renderMarkdown({ tool: TEST_TOOL, model, findings });
    // The dump's names are in the report, each mention broken.
    expect(md).toContain('@\u200doctocat');
    expect(md).toContain('@\u200dsecurity-team');
    expect(outsideCode(md)).not.toMatch(MENTION);
    // Inside a code block a tracker makes no mention: the stack is left as the dump has it.
    expect(md).toContain('at com.@github.Deadlocks.monitorPair(Deadlocks.java:39)');
  });

  it('mdText breaks mentions only where they start', () => {
    expect(mdText('@octocat, (@org/team) and "@x"')).toBe('@\u200doctocat, (@\u200dorg/team) and "@\u200dx"');
    // Controls: an address and a module version, an e-mail-like name, a lone @.
    expect(mdText('java.lang.Object@1b6d3586 java.base@17.0.15 ops@example @ 1')).toBe('java.lang.Object@1b6d3586 java.base@17.0.15 ops@example @ 1');
  });
});
