/**
 * The built CLI fuzzed end to end (see cli-fuzz.ts): a few seeded cases of each of the ten classes
 * on every run, new ones with each seed. `DUMPSLEUTH_CLI_FUZZ_SEED=<seed>` reproduces a failure (its
 * message names the seed and the case); `npm run fuzz -- --cli --minutes 30` runs seed after seed.
 */
import { rmSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { caseDirectory, CLASSES, Random, runCase } from './cli-fuzz.js';

const SEED = Number(process.env['DUMPSLEUTH_CLI_FUZZ_SEED'] ?? 20261203);
const CASES_PER_CLASS = Number(process.env['DUMPSLEUTH_CLI_FUZZ_CASES'] ?? 2);

describe(`the built CLI, fuzzed end to end (seed ${SEED}, ${CASES_PER_CLASS} cases a class)`, { timeout: 600_000 }, () => {
  for (const [className, generate] of Object.entries(CLASSES)) {
    it(className, () => {
      // One stream of cases per class, so a class's cases do not change when another class changes.
      const random = new Random(SEED ^ hash(className));
      const problems: string[] = [];
      for (let k = 0; k < CASES_PER_CLASS; k++) {
        const dir = caseDirectory();
        const c = generate(random, dir);
        const { problem } = runCase(c, dir);
        if (problem !== undefined) problems.push(`seed ${SEED}, case ${k} (${c.name}): ${problem}`);
        rmSync(dir, { recursive: true, force: true });
      }
      expect(problems).toEqual([]);
    });
  }
});

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
