/**
 * The heap's floors, as lint holds them (eslint.config.js): outside src/heap, code reaches the heap
 * through heap/memory/ and its top-level files only; heap/graph/ imports no format and not the
 * memory analysis; a format does not import the memory analysis. Each case lints one import as if it
 * were written in that file, with negative controls that must pass.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The messages of no-restricted-imports for a file holding only this import. */
async function restricted(filePath: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\n\nexport const y = x;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const CASES: ReadonlyArray<{ file: string; from: string; refused?: RegExp }> = [
  { file: 'src/analysis/probe.ts', from: '../heap/hprof/parser.js', refused: /outside src\/heap, import the heap through heap\/memory\// },
  { file: 'src/reconstruct/probe.ts', from: '../heap/graph/dominators.js', refused: /outside src\/heap/ },
  { file: 'src/commands/probe.ts', from: '../heap/json/snapshot-writer.js', refused: /outside src\/heap/ },
  { file: 'src/commands/probe.ts', from: '../heap/v8/v8-graph.js', refused: /outside src\/heap/ },
  { file: 'src/probe.ts', from: './heap/hprof/hprof-loader.js', refused: /outside src\/heap/ },
  { file: 'src/heap/graph/probe.ts', from: '../hprof/byte-source.js', refused: /heap\/graph is format-neutral/ },
  { file: 'src/heap/graph/probe.ts', from: '../v8/v8-graph.js', refused: /heap\/graph is format-neutral/ },
  { file: 'src/heap/graph/probe.ts', from: '../memory/budget.js', refused: /heap\/graph is format-neutral/ },
  { file: 'src/heap/hprof/graph/probe.ts', from: '../../memory/plan.js', refused: /heap\/memory calls it, never the other way/ },
  { file: 'src/heap/v8/probe.ts', from: '../memory/analyse-memory.js', refused: /heap\/memory calls it/ },
  // The heap's own layer row still holds on its floors.
  { file: 'src/heap/graph/probe.ts', from: '../../input/identify.js', refused: /src\/heap may import only/ },
  // Negative controls: the front door, the top-level files, and each floor importing the one below.
  { file: 'src/analysis/probe.ts', from: '../heap/memory/plan.js' },
  { file: 'src/commands/probe.ts', from: '../heap/open-heap.js' },
  { file: 'src/reconstruct/probe.ts', from: '../heap/heap-view.js' },
  { file: 'src/heap/memory/probe.ts', from: '../hprof/hprof-loader.js' },
  { file: 'src/heap/memory/probe.ts', from: '../graph/heap-memory.js' },
  { file: 'src/heap/hprof/graph/probe.ts', from: '../../graph/object-graph.js' },
  { file: 'src/heap/graph/probe.ts', from: '../../model/memory.js' },
];

describe("the heap's front door and floors, as lint holds them", () => {
  for (const c of CASES) {
    test(`${c.file} importing ${c.from}: ${c.refused !== undefined ? 'refused' : 'allowed'}`, async () => {
      const messages = await restricted(c.file, c.from);
      if (c.refused === undefined) expect(messages).toEqual([]);
      else
        expect(
          messages.some((m) => c.refused!.test(m)),
          messages.join('\n'),
        ).toBe(true);
    }, 60_000);
  }
});
