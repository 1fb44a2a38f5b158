/**
 * Known log lines inside a thread-dump file (kill -3 output in catalina.out, with the application's
 * log around it) count as if the log were its own file: the same events, the same findings.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analyseIncident, INCIDENTS, scratchDir } from '../helpers.js';

describe('log lines around dumps in one file', { timeout: 120_000 }, () => {
  for (const incident of ['limit-saturated', 'active-count-leak']) {
    it(`${incident}: app.log interleaved with the jstack dumps in one catalina.out gives the same events`, async () => {
      const dir = join(INCIDENTS, incident);
      const separate = await analyseIncident(dir);
      expect(separate.model.logEvents.length).toBeGreaterThan(0);

      // The log split in as many parts as there are dumps, each dump written after its part, as a
      // JVM's kill -3 output lands in the middle of the application's log.
      const log = readFileSync(join(dir, 'app.log'), 'utf8').split('\n');
      const dumps = readdirSync(dir)
        .filter((f) => /^dump-\d+\.txt$/.test(f))
        .sort();
      const combined: string[] = [];
      dumps.forEach((d, i) => {
        combined.push(...log.slice(Math.floor((i * log.length) / dumps.length), Math.floor(((i + 1) * log.length) / dumps.length)));
        combined.push(readFileSync(join(dir, d), 'utf8'));
      });
      const out = scratchDir('catalina');
      writeFileSync(join(out, 'catalina.out'), combined.join('\n'));
      for (const f of readdirSync(dir)) if (f.startsWith('heap')) copyFileSync(join(dir, f), join(out, f));
      const together = await analyseIncident(out);

      const events = (m: typeof separate.model) =>
        m.logEvents.map((e) => ({ kind: e.kind, count: e.count, facts: e.facts, service: e.service, method: e.method }));
      expect(events(together.model)).toEqual(events(separate.model));
      expect(together.findings.map((f) => `${f.rule} ${f.severity}`)).toEqual(separate.findings.map((f) => `${f.rule} ${f.severity}`));
    });
  }
});
