/**
 * Scores the analysis against the senior engineer's labels of the thread-dump corpus
 * (../shared/corpus/threaddumps/LABELS.json, rubric in LABELS.md) and prints precision, recall and
 * every false alarm and miss. Run: `npx tsx scripts/score-labels.ts [--verbose]`. With `--blind`, the
 * same for the blind corpus of this repository (fixtures/blind, every LABELS*.json there); with
 * `--blind --sets D,E`, only the sets of those collectors (LABELS-D.json, LABELS-E.json): a new set's
 * first contact is scored alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { BLIND, blindCases, type CaseScore, findingsOfCase, type LabelCase, scoreCase, totals } from '../test/corpus/labels-scoring.js';
import { CORPUS } from '../test/helpers.js';

const blind = process.argv.includes('--blind');
const labelsPath = join(CORPUS, 'LABELS.json');
if (!blind && !existsSync(labelsPath)) {
  console.error(`no labels: ${labelsPath} does not exist (the corpus sits in ../shared next to the checkout)`);
  process.exit(2);
}
const verbose = process.argv.includes('--verbose');
const setsAt = process.argv.indexOf('--sets');
const sets = setsAt > 0 ? (process.argv[setsAt + 1] ?? '').split(',').filter((x) => x !== '') : undefined;
const cases = blind ? blindCases(sets) : (JSON.parse(readFileSync(labelsPath, 'utf8')) as LabelCase[]);
const root = blind ? BLIND : CORPUS;
const scores: CaseScore[] = [];
for (const c of cases) {
  const s = scoreCase(c, await findingsOfCase(c, root));
  scores.push(s);
  if (s.falseAlarms.length > 0 || s.misses.length > 0 || verbose) {
    console.log(
      `${c.case}: ${s.counted} warning+, ${s.trueFindings} true, ${s.allowedFindings} allowed, ${s.falseAlarms.length} false, must ` +
        `${s.mustFound}/${s.mustTotal}`,
    );
    for (const f of s.falseAlarms) console.log(`   FALSE ${f.rule} | ${f.subject} | ${f.message.slice(0, 200)}`);
    for (const m of s.misses) console.log(`   MISS  ${m.rule} /${m.match}/`);
  }
}
const t = totals(scores);
console.log(
  `\n${t.cases} cases: ${t.counted} warning+ findings, ${t.trueFindings} true, ${t.allowedFindings} allowed, ${t.falseAlarms} false alarms; ` +
    `precision ${(t.precision * 100).toFixed(1)} %, recall ${t.mustFound}/${t.mustTotal} (${(t.recall * 100).toFixed(1)} %); ` +
    `cases fully right ${scores.filter((s) => s.falseAlarms.length === 0 && s.misses.length === 0).length}/${t.cases}`,
);
