/**
 * analyze's report of the classloader-leak heap (fixtures/heap/memory-beyond/classloader-leak) in
 * every format: the memory section says which class many loaders define and what keeps them, the
 * finding is memory-leak-suspect's, and the JSON is valid under dumpsleuth.report/1 with the
 * memory schema's classLoaders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import Ajv2020 from 'ajv/dist/2020.js';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';

import { RENDERERS } from '../../src/report/renderers.js';
import { analyseIncidentAfresh, runCli, scratchDir, TEST_TOOL } from '../helpers.js';

const DIR = 'fixtures/heap/memory-beyond/classloader-leak';
const truth = JSON.parse(readFileSync(`${DIR}/truth.json`, 'utf8')) as { class: string; loadersAlive: number; keptByStatic: number; staticHolder: string };

describe('analyze: classes defined by several class loaders', { timeout: 60_000 }, () => {
  it('in text, Markdown, HTML and JSON, with its finding', async () => {
    const { model, findings } = await analyseIncidentAfresh(DIR);
    const report = { tool: TEST_TOOL, model, findings };
    const context = { chalk: new Chalk({ level: 0 }) };
    const kept = `${truth.keptByStatic} through static ${truth.staticHolder}`;
    const finding = findings.find((f) => f.rule === 'memory-leak-suspect' && f.subject === truth.class)!;
    expect(finding.facts).toMatchObject({ kind: 'class-loaders', loaders: truth.loadersAlive, loadersKeptAlive: truth.loadersAlive });
    const text = RENDERERS.text.render(report, context);
    expect(text).toContain(`defined by several class loaders: ${truth.class} is defined by ${truth.loadersAlive} class loaders`);
    expect(text).toContain(kept);
    const md = RENDERERS.markdown.render(report, context);
    expect(md).toContain(`- defined by several class loaders: ${truth.class}`);
    expect(md).toMatch(/ {2}- java\.net\.URLClassLoader "report-plugin-deploy-\d+" 0x[0-9a-f]+ retains/);
    const html = RENDERERS.html.render(report, context);
    expect(html).toContain('<strong>Defined by several class loaders</strong>');
    // The thread's name is quoted: escaped in HTML.
    expect(html).toMatch(/on thread &quot;request-worker-1&quot;/);
    const doc = JSON.parse(RENDERERS.json.render(report, context));
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addSchema(JSON.parse(readFileSync('docs/memory.schema.json', 'utf8')));
    const validate = ajv.compile(JSON.parse(readFileSync('docs/report.schema.json', 'utf8')));
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
    expect(doc.model.memory[0].classLoaders.classes[0]).toMatchObject({ class: truth.class, loaderCount: truth.loadersAlive });
  });
});

describe('an extract of the classloader-leak heap', { timeout: 60_000 }, () => {
  it('carries the section, and a damaged one is dropped where it is damaged, never drawn with wrong types', async () => {
    const dir = scratchDir('loaders');
    const snapshot = join(dir, 'extract.json');
    expect((await runCli(['extract', `${DIR}/heap.hprof.gz`, '-o', snapshot])).code).toBe(0);
    const shown = await runCli(['analyze', snapshot]);
    expect(shown.stdout).toContain(`defined by several class loaders: ${truth.class} is defined by ${truth.loadersAlive} class loaders`);
    expect(shown.stdout).toContain(`${truth.keptByStatic} through static ${truth.staticHolder}`);
    // Damaged: a class whose count is text, and a loader with no object: both left out, the rest drawn.
    const doc = JSON.parse(readFileSync(snapshot, 'utf8'));
    const c = doc.header.memory.classLoaders.classes[0];
    doc.header.memory.classLoaders.classes = [
      { ...c, loaderCount: 'many' },
      { ...c, className: 'com.example.Other', loaders: [{ name: 'x' }, ...c.loaders] },
    ];
    const damaged = join(dir, 'damaged.json');
    writeFileSync(damaged, JSON.stringify(doc));
    const run = await runCli(['analyze', '-f', 'json', damaged]);
    expect(run.code, run.stderr).toBeLessThan(2);
    const classes = JSON.parse(run.stdout).model.memory[0].classLoaders.classes;
    expect(classes.map((x: { class: string; loaders: unknown[] }) => [x.class, x.loaders.length])).toEqual([['com.example.Other', c.loaders.length]]);
  });
});
