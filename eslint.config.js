// Lint: typescript-eslint's recommended rules, sorted imports, and the layers of docs/architecture.md:
// each folder of src/ imports only the folders below it, so no import runs back up.
import js from '@eslint/js';
import redos from 'eslint-plugin-redos';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/** What each folder of src/ may import besides itself (src/errors.ts is everyone's). */
const LAYERS = {
  model: [],
  // Knowledge of frameworks, servers and the JVM: rows every classifier and rule reads.
  knowledge: ['model'],
  input: ['model', 'knowledge'],
  threads: ['model', 'knowledge'],
  logs: ['model', 'knowledge'],
  capture: ['model'],
  // A heap dump's own thread stacks are built with the thread model's builder.
  heap: ['model', 'knowledge', 'threads'],
  reconstruct: ['model', 'knowledge', 'threads', 'heap', 'logs'],
  rules: ['model', 'knowledge', 'threads', 'heap', 'logs', 'reconstruct'],
  engine: ['model', 'knowledge', 'rules', 'reconstruct'],
  analysis: ['model', 'knowledge', 'input', 'threads', 'heap', 'logs', 'reconstruct', 'rules', 'engine'],
  report: ['model'],
  ui: ['model', 'knowledge', 'threads', 'analysis', 'report'],
  batch: ['model', 'knowledge', 'input', 'threads', 'analysis', 'report'],
  commands: ['model', 'knowledge', 'input', 'threads', 'heap', 'logs', 'capture', 'reconstruct', 'rules', 'engine', 'analysis', 'report', 'ui', 'batch'],
  // The entry (src/cli/, and src/cli.ts beside it): the options and commands of the command line, wired to commands/.
  cli: ['model', 'report', 'ui', 'batch', 'commands'],
};

const FOLDERS = Object.keys(LAYERS);

/**
 * The heap's own floors, read top to bottom as memory, then formats, then graph (docs/architecture.md):
 * outside src/heap, code reaches the heap through its front door (heap/memory/) and its top-level
 * model files only, never a format's reader or the graph's algorithms; the formats build the graph and
 * never call the memory analysis above them; the graph is format-neutral.
 */
const HEAP_INSIDE = {
  regex: '^\\.\\.?/(?:\\.\\./)*heap/(?:hprof|graph|v8|json)/',
  message: 'outside src/heap, import the heap through heap/memory/ or its top-level files (docs/architecture.md)',
};
const HEAP_FLOORS = {
  graph: {
    regex: '^\\.\\./(?:\\.\\./)*(?:heap/)?(?:hprof|v8|json|memory)/',
    message: 'heap/graph is format-neutral: it imports no format and not heap/memory',
  },
  hprof: { regex: '^\\.\\./(?:\\.\\./)*(?:heap/)?memory/', message: 'a heap format builds the graph; heap/memory calls it, never the other way' },
};
HEAP_FLOORS.v8 = HEAP_FLOORS.hprof;
HEAP_FLOORS.json = HEAP_FLOORS.hprof;

function layerPattern(folder) {
  const allowed = LAYERS[folder];
  const banned = FOLDERS.filter((f) => f !== folder && !allowed.includes(f));
  return {
    // `cli` is a folder (src/cli/) and a file (src/cli.ts): both are the entry, which nothing imports.
    regex: `^\\.\\.?/(?:\\.\\./)*(?:${banned.join('|')})(?:/|\\.js$)`,
    message: `src/${folder} may import only ${allowed.length > 0 ? allowed.join(', ') : 'nothing of the project'} (docs/architecture.md)`,
  };
}

const restrict = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

const layerRules = [
  ...Object.keys(LAYERS).map((folder) =>
    restrict([`src/${folder}/**/*.{ts,tsx}`], folder === 'heap' ? [layerPattern(folder)] : [layerPattern(folder), HEAP_INSIDE]),
  ),
  // The files at the root of src/ (the entry, errors, cleanup) are outside the heap too.
  restrict(['src/*.{ts,tsx}'], [HEAP_INSIDE]),
  // After the heap's own row: a file takes the last config's patterns, so each floor repeats the row's.
  ...Object.entries(HEAP_FLOORS).map(([floor, pattern]) => restrict([`src/heap/${floor}/**/*.{ts,tsx}`], [layerPattern('heap'), pattern])),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'fixtures/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setImmediate: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        globalThis: 'readonly',
        fetch: 'readonly',
      },
    },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      // Non-null assertions follow checks the compiler cannot see (noUncheckedIndexedAccess on indexes just bounded).
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Prettier wraps code at 160 columns; this catches what it cannot wrap (strings, comments, expressions).
      'max-len': ['error', { code: 160 }],
    },
  },
  {
    // Tests read untyped JSON documents and mock loosely typed APIs, and check that control characters
    // from dumps never reach a terminal (so their expressions match control characters on purpose).
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-control-regex': 'off' },
  },
  {
    // Every expression of the program may see untrusted text (a dump's lines, names, log lines): each
    // must run in time linear in its input. recheck decides it statically, with no clock.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { redos },
    rules: { 'redos/no-vulnerable': ['error', { ignoreErrors: false, timeout: 10_000 }] },
  },
  ...layerRules,
);
