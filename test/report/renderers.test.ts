/**
 * The renderer registry is the one list of output formats: every format renders an incident through
 * the CLI, `-f` and `-o`'s extension choose the same bytes, every extension belongs to one format, and
 * what the help and the README say of the formats is the registry's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { chooseFormat } from '../../src/commands/output.js';
import { isReportFormat, RENDERERS, REPORT_FORMATS, type ReportFormat } from '../../src/report/renderers.js';
import { runCli, scratchDir } from '../helpers.js';

const INCIDENT = 'fixtures/incidents/class-init-waits-jdk25';

/** What each format's output is, so `-f` and `-o` are seen to choose the right renderer (a new format needs its line). */
const LOOKS_LIKE: Record<ReportFormat, (out: string) => void> = {
  text: (out) => expect(out).toMatch(/^dumpsleuth /),
  json: (out) => expect((JSON.parse(out) as { schema: string }).schema).toBe('dumpsleuth.report/1'),
  markdown: (out) => expect(out).toMatch(/^## dumpsleuth report/),
  html: (out) => expect(out).toMatch(/^<!doctype html>/),
};

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
/** The extensions written in a piece of help or documentation, in order. */
const extensionsIn = (s: string) => [...s.matchAll(/\.[a-z]+/g)].map((m) => m[0]);
const usualExtensions = () => REPORT_FORMATS.map((f) => RENDERERS[f].extensions[0]!);

describe('the renderer registry', () => {
  it('names each format once, with extensions that belong to it alone, and a description', () => {
    expect(REPORT_FORMATS[0], 'the first format is the default').toBe('text');
    expect(new Set(REPORT_FORMATS).size).toBe(REPORT_FORMATS.length);
    const all = REPORT_FORMATS.flatMap((f) => RENDERERS[f].extensions);
    expect(new Set(all).size, 'an extension claimed by two formats').toBe(all.length);
    for (const f of REPORT_FORMATS) {
      expect(RENDERERS[f].extensions.length, f).toBeGreaterThan(0);
      for (const e of RENDERERS[f].extensions) expect(e, f).toMatch(/^\.[a-z0-9]+$/);
      expect(RENDERERS[f].description, f).toMatch(/^\S.*\S$/);
      expect(isReportFormat(f)).toBe(true);
    }
    // Negative controls: not formats, though objects have them as keys.
    for (const name of ['yaml', 'toString', 'constructor', '']) expect(isReportFormat(name), name).toBe(false);
  });

  it('every extension implies its format, in any case and gzipped; other names imply none', () => {
    for (const f of REPORT_FORMATS) {
      for (const e of RENDERERS[f].extensions) {
        expect(chooseFormat(undefined, `r${e}`, REPORT_FORMATS), e).toEqual({ format: f });
        expect(chooseFormat(undefined, `dir/R${e.toUpperCase()}.gz`, REPORT_FORMATS), e).toEqual({ format: f });
        // And back: a command that does not write this format is not sent to it by the extension.
        const others = REPORT_FORMATS.filter((g) => g !== f);
        expect(chooseFormat(undefined, `r${e}`, others), `${e} without ${f}`).toEqual({ format: 'text' });
      }
    }
    for (const name of ['report', 'report.pdf', 'report.gz', 'md', 'r.html.bak'])
      expect(chooseFormat(undefined, name, REPORT_FORMATS), name).toEqual({ format: 'text' });
  });
});

describe('every format through the CLI: -f and each extension of -o write the same bytes', { timeout: 120_000 }, () => {
  const dir = scratchDir('renderers');
  for (const format of REPORT_FORMATS) {
    it(format, async () => {
      const asked = await runCli(['analyze', '--fail-on', 'never', '-f', format, INCIDENT]);
      expect(asked.code, asked.stderr).toBe(0);
      LOOKS_LIKE[format](asked.stdout);
      for (const e of RENDERERS[format].extensions) {
        const file = join(dir, `report-${format}${e}`);
        const written = await runCli(['analyze', '--fail-on', 'never', '-o', file, INCIDENT]);
        expect(written.code, written.stderr).toBe(0);
        expect(written.stderr, e).not.toMatch(/note: writing/);
        expect(readFileSync(file, 'utf8'), `-o ${e}`).toBe(asked.stdout);
      }
    });
  }
});

describe('what the help and the documents say of the formats is the registry', () => {
  it("analyze --help: -f's choices in the registry's order, and -o's extensions", async () => {
    const help = squash((await runCli(['analyze', '--help'])).stdout);
    expect(help).toContain(`(choices: ${REPORT_FORMATS.map((f) => `"${f}"`).join(', ')})`);
    const said = /-o, --output <file> [^(]*\(([^)]*) choose the format\)/.exec(help);
    expect(said, help).not.toBeNull();
    expect(extensionsIn(said![1]!).sort()).toEqual(usualExtensions().sort());
  });

  it("the README's usage: the -f choices, each format's description, and the extensions -o reads", () => {
    const readme = readFileSync('README.md', 'utf8');
    const usage = /^ {2}-f, --format ([a-z|]+)\n((?: +#.*\n)+)/m.exec(readme);
    expect(usage, 'the -f line of analyze in the README').not.toBeNull();
    expect(usage![1]!.split('|')).toEqual(REPORT_FORMATS);
    const described = squash(usage![2]!.replace(/^ +# ?/gm, ''));
    for (const f of REPORT_FORMATS) expect(described, f).toContain(RENDERERS[f].description);
    const extensions = /without -f the extension chooses the format \(([^)]*)\)/.exec(readme);
    expect(extensions, 'the -o line of analyze in the README').not.toBeNull();
    expect(extensionsIn(extensions![1]!).sort()).toEqual(usualExtensions().sort());
  });
});
