/**
 * The robustness harness: one input (bytes) through everything a user can run on it (load, model,
 * rules, every report format; the histogram for heaps), classified as results or a refusal. A
 * refusal is a UserError with a one-line message (exit 2); anything else escaping is a bug and
 * fails the property. Memory per case is bounded; time is not measured (a loaded machine would
 * miss any bound: speed is bench/'s, and the test timeout catches a hang).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import fc from 'fast-check';

import { heapHistogramOfFile } from '../../src/analysis/heap-file.js';
import { loadAnyInput } from '../../src/analysis/load-incident.js';
import { defaultConfig } from '../../src/engine/config.js';
import { runRules } from '../../src/engine/run-rules.js';
import { UserError } from '../../src/errors.js';
import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { buildModel } from '../../src/reconstruct/build-model.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import { RULES } from '../../src/rules/index.js';
import { buildUiData } from '../../src/ui/build-view.js';
import { scratchDir, TEST_TOOL } from '../helpers.js';

export type Outcome =
  { readonly kind: 'results'; readonly warnings: readonly string[]; readonly text: string } | { readonly kind: 'refused'; readonly message: string };

/** Seed of every property in the CI suite; `npm run fuzz` varies it. */
const SEED = Number(process.env['DUMPSLEUTH_FUZZ_SEED'] ?? 20261130);
/** Cases per property: small in CI, larger when fuzzing. */
const RUNS = Number(process.env['DUMPSLEUTH_FUZZ_RUNS'] ?? 25);
/** Resident memory above this after a case is unbounded growth (the inputs here are at most 100 MB). */
const RSS_LIMIT_MB = 3000;

const dir = scratchDir('robust');
let counter = 0;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const plainChalk = new Chalk({ level: 0 });

/** Everything `analyze` does with one file, in every format, and the data the UI draws. */
export async function analyseFile(path: string): Promise<Outcome> {
  try {
    const loaded = await loadAnyInput(path, ANALYSIS_PLAN);
    if (loaded.kind === 'log') return { kind: 'results', warnings: loaded.log.summary.warnings, text: JSON.stringify(loaded.log.events) };
    const model = loaded.kind === 'threads' ? buildModel([loaded.input]) : buildModel([], { heaps: [loaded.heap] });
    const findings = runRules(model, RULES, defaultConfig(RULES));
    const report = { tool: TEST_TOOL, model, findings };
    const text = renderText(report, plainChalk);
    renderJson(report);
    renderMarkdown(report);
    renderHtml(report);
    // What the terminal UI draws from (its screens are built from this data only).
    buildUiData(model, findings, path);
    if (loaded.kind === 'heap') await heapHistogramOfFile(path);
    return { kind: 'results', warnings: model.inputs.flatMap((i) => i.warnings), text };
  } catch (e) {
    if (e instanceof UserError) return { kind: 'refused', message: e.message };
    throw e;
  }
}

/** Writes the bytes to a temporary file (with this name) and analyses it, checking the memory bound and the refusal's form. */
export async function analyseBytes(bytes: Uint8Array, name: string): Promise<Outcome> {
  const path = join(dir, `${counter++}-${name}`);
  writeFileSync(path, bytes);
  try {
    const outcome = await analyseFile(path);
    const rssMb = process.memoryUsage().rss / 1e6;
    if (rssMb > RSS_LIMIT_MB) throw new Error(`${name}: resident memory ${rssMb.toFixed(0)} MB (bound ${RSS_LIMIT_MB} MB)`);
    if (outcome.kind === 'refused') {
      // One line a person can read: no stack, no newline, not empty.
      if (outcome.message.length === 0 || /\n|\s+at\s+\S+\s+\(/.test(outcome.message))
        throw new Error(`${name}: refusal is not one clean line: ${JSON.stringify(outcome.message.slice(0, 300))}`);
    }
    return outcome;
  } finally {
    rmSync(path, { force: true });
  }
}

/** A change to a file's bytes, as fast-check generates and shrinks it. */
export type Mutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'flip'; readonly bits: ReadonlyArray<readonly [number, number]> }
  | { readonly kind: 'run'; readonly at: number; readonly length: number; readonly byte: number }
  | { readonly kind: 'splice'; readonly at: number; readonly bytes: Uint8Array }
  | { readonly kind: 'u32'; readonly at: number; readonly value: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), bits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 16 }) }),
  fc.record({ kind: fc.constant('run' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8192 }), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 512 }) }),
  // Big numbers where lengths and counts live: what claims gigabytes.
  fc.record({ kind: fc.constant('u32' as const), at: fc.nat(), value: fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff, 0x40000000, 0x10000) }),
);

/** Applies a mutation; positions wrap around the input, so every generated value means something. */
export function mutate(base: Uint8Array, m: Mutation, focus?: { readonly from: number; readonly to: number }): Buffer {
  const out = Buffer.from(base);
  if (out.length === 0) return out;
  const lo = focus?.from ?? 0;
  const span = Math.max(1, Math.min(out.length, focus?.to ?? out.length) - lo);
  const at = (n: number) => lo + (n % span);
  switch (m.kind) {
    case 'truncate':
      return out.subarray(0, at(m.at));
    case 'flip':
      for (const [p, bit] of m.bits) out[at(p)]! ^= 1 << bit;
      return out;
    case 'run':
      out.fill(m.byte, at(m.at), Math.min(out.length, at(m.at) + m.length));
      return out;
    case 'splice': {
      const p = at(m.at);
      return Buffer.concat([out.subarray(0, p), m.bytes, out.subarray(p)]);
    }
    case 'u32': {
      const p = Math.min(at(m.at), out.length - 4);
      if (p >= 0) out.writeUInt32BE(m.value, p);
      return out;
    }
  }
}

export const propertyOptions = (runs = RUNS) => ({ seed: SEED, numRuns: runs, endOnFailure: true as const });
