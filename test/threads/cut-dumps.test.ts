/**
 * A HotSpot dump cut before its closing `JNI global refs` line is said to be cut, even where no thread
 * count notices (the JVM's own threads come last and are not in the SMR list). JVMs that never print
 * that line (1.4, 1.5, Spring Boot's text format under a HotSpot banner) are not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { closesDumpsWithJniLine } from '../../src/threads/jvm-identity.js';
import { CORPUS, corpusAvailable, FIXTURES, parseLineByLine } from '../helpers.js';

const DUMP = readFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), 'utf8');
const LINES = DUMP.split('\n');
const CUT_WARNING = /without the "JNI global refs" line HotSpot closes every dump with: it was cut/;

describe('a dump cut before its closing line', () => {
  it('cut among the JVM threads: said, and where', () => {
    const vmThread = LINES.findIndex((l) => l.startsWith('"VM Thread"'));
    const file = parseLineByLine(LINES.slice(0, vmThread + 2).join('\n'));
    const warning = file.warnings.find((w) => CUT_WARNING.test(w));
    expect(warning).toMatch(/among the JVM's own threads/);
    // The SMR count does not notice: the JVM's threads are not Java threads.
    expect(file.warnings.some((w) => /SMR/.test(w))).toBe(false);
  });

  it('control: the whole dump, and the dump followed by another', () => {
    expect(parseLineByLine(DUMP).warnings.filter((w) => CUT_WARNING.test(w))).toEqual([]);
    expect(parseLineByLine(`${DUMP}\n${DUMP}`).warnings.filter((w) => CUT_WARNING.test(w))).toEqual([]);
  });

  it('a cut dump followed by a whole one: only the first is said', () => {
    const vmThread = LINES.findIndex((l) => l.startsWith('"VM Thread"'));
    const file = parseLineByLine(`${LINES.slice(0, vmThread + 1).join('\n')}\n${DUMP}`);
    expect(file.dumps).toHaveLength(2);
    expect(file.warnings.filter((w) => CUT_WARNING.test(w))).toEqual([expect.stringMatching(/^line 2: /)]);
  });

  it('which banners promise the closing line', () => {
    for (const promise of [
      'OpenJDK 64-Bit Server VM (21.0.2+13-LTS mixed mode, sharing)',
      'Java HotSpot(TM) 64-Bit Server VM (25.202-b08 mixed mode)',
      'Java HotSpot(TM) 64-Bit Server VM (9-ea+132 mixed mode)',
      'Java HotSpot(TM) 64-Bit Server VM (20.14-b01 mixed mode)',
    ])
      expect(closesDumpsWithJniLine(promise), promise).toBe(true);
    for (const none of [
      'Java HotSpot(TM) Client VM (1.5.0_13-119 mixed mode, sharing)',
      'Java HotSpot(TM) Client VM 1.6.0_03-b05',
      'Java HotSpot(TM) Client VM (1.4.2_05-b04 mixed mode)',
      '[Tue Mar 15 14:48:56 KST 2008]',
    ])
      expect(closesDumpsWithJniLine(none), none).toBe(false);
  });

  it.skipIf(!corpusAvailable)('corpus controls: Spring Boot text under a JDK 17 banner, and JDK 1.5, are not called cut', () => {
    for (const f of ['yusuke__samurai/SpringBoot/spring-boot-2.5.4-java8-text.dmp', 'irockel__tda/test64bit.log']) {
      const file = parseLineByLine(readFileSync(join(CORPUS, f), 'latin1'));
      expect(file.dumps.length, f).toBeGreaterThan(0);
      expect(
        file.warnings.filter((w) => CUT_WARNING.test(w)),
        f,
      ).toEqual([]);
    }
  });
});
