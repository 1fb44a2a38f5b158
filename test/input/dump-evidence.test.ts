/**
 * A file counts as a thread dump only with real evidence: a dump banner, a thread header with its
 * format's ids, a `java.lang.Thread.State:` line or a stack frame. The non-dumps here are
 * hand-written (format edge cases): text that has lines starting with a quote, as licences,
 * scripts and man pages do.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { TextDumpParser } from '../../src/threads/text-parser.js';
import { runCli, scratchDir } from '../helpers.js';

const LICENCE = [
  '/*',
  ' * Licensed under the Apache License, Version 2.0 (the "License");',
  ' * Unless required by applicable law or agreed to in writing, software',
  ' * distributed under the License is distributed on an',
  '"AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.',
  ' */',
].join('\n');

const NOT_DUMPS: Record<string, string> = {
  'NOTICE.txt': `${LICENCE}\n`,
  'pom.xml': `<?xml version="1.0"?>\n<!--\n${LICENCE}\n-->\n<project>\n"a quoted line" in a comment\n</project>\n`,
  'start.sh': '#!/bin/sh\n# start the service\n"$JAVA_HOME/bin/java" -Xmx1g -jar app.jar "$@"\n"$@"\n',
  'tool.1': '.TH TOOL 1\n.SH NAME\ntool \\- does things\n"quoted" WORDS IN CAPS\n"another"\n',
  'app.properties': 'name=demo\n"key" VALUE\n',
};

function parse(text: string) {
  const p = new TextDumpParser('x');
  p.pushText(text);
  return p.finish();
}

describe('what is not a thread dump', { timeout: 60_000 }, () => {
  for (const [name, text] of Object.entries(NOT_DUMPS)) {
    test(`${name}: no dump`, async () => {
      expect(parse(text).dumps).toHaveLength(0);
    });
  }

  test('given by name, each is refused with one line saying it holds no thread dump', async () => {
    const dir = scratchDir('evidence');
    for (const [name, text] of Object.entries(NOT_DUMPS)) {
      writeFileSync(join(dir, name), text);
      const r = await runCli(['analyze', join(dir, name)]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(/is text with no thread dump in it/);
    }
  });

  test('in an incident directory they are skipped with a note and do not join the series', async () => {
    const dir = scratchDir('evidence');
    // Names that sort before the dumps, so a file read as a dump would shift the dump numbers.
    for (const [name, text] of Object.entries(NOT_DUMPS)) writeFileSync(join(dir, `0-${name}`), text);
    for (const n of [1, 2, 3]) writeFileSync(join(dir, `dump-${n}.txt`), readFileSync(`fixtures/incidents/http-pool-starvation/dump-${n}.txt`));
    const r = await runCli(['analyze', '--format', 'json', '--fail-on', 'never', dir]);
    const doc = JSON.parse(r.stdout);
    expect(doc.inputs.map((i: { path: string }) => i.path.slice(dir.length + 1))).toEqual(['dump-1.txt', 'dump-2.txt', 'dump-3.txt']);
    expect(doc.dumps).toHaveLength(3);
    for (const name of Object.keys(NOT_DUMPS)) expect(r.stderr).toContain(`note: skipped ${join(dir, `0-${name}`)}`);
  });

  test('a log that starts with `[` is described as a log, not as JSON', async () => {
    const dir = scratchDir('evidence');
    const file = join(dir, 'SystemOut.log');
    writeFileSync(file, '[10/1/24 12:00:00:000 UTC] 00000001 WsServerImpl  A   WSVR0001I: Server server1 open for e-business\n');
    const r = await runCli(['analyze', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a log file with no thread dump in it/);
  });

  test("a log handed over beside the dumps is read as the incident's log, as in its directory, even with nothing known in it", async () => {
    const dir = 'fixtures/incidents/shutdown-ordering';
    const r = await runCli(['analyze', '--format', 'json', '--fail-on', 'never', `${dir}/app.log`, `${dir}/dump-1.txt`]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = JSON.parse(r.stdout);
    expect(doc.inputs.map((i: { path: string; kind: string }) => [i.path, i.kind]).sort()).toEqual([
      [`${dir}/app.log`, 'log'],
      [`${dir}/dump-1.txt`, 'threads'],
    ]);
  });
});

describe('what is a thread dump, however little of it there is', () => {
  test.each([
    ['a banner and one bare header', 'Full thread dump OpenJDK 64-Bit Server VM (17.0.2+8 mixed mode):\n\n"main"\n'],
    ['a header with tid and nid', '"main" #1 prio=5 os_prio=0 tid=0x00007f nid=0x1 runnable  [0x0]\n'],
    ['a ThreadInfo header with its id', '"main" prio=5 Id=1 RUNNABLE\n'],
    ['a VisualVM header', '"main" - Thread t@1\n'],
    ['a bare header and a state line', '"worker"\n   java.lang.Thread.State: WAITING (parking)\n'],
    ['a bare header and a frame', '"worker"\n\tat com.acme.Worker.run(Worker.java:10)\n'],
  ])('%s', (_what, text) => {
    expect(parse(text).dumps).toHaveLength(1);
  });

  test('a licence line before a real dump is text around the dump, with a warning', async () => {
    const file = parse(`"AS IS" BASIS, WITHOUT WARRANTIES\n${readFileSync('fixtures/threads/deadlock/dump-1.txt', 'utf8')}`);
    expect(file.dumps).toHaveLength(1);
    expect(file.dumps[0]!.threads).toHaveLength(30);
    expect(file.warnings.join('\n')).toMatch(/line 1: "AS IS" looks like a thread header, but nothing around it is a thread dump/);
  });
});
