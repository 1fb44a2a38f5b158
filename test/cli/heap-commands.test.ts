/**
 * `histogram` and `extract` through the CLI: outputs, exit codes, and clear errors. Runs the CLI
 * in-process; what needs the built program (its worker threads, no terminal) runs dist/cli.js.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { readJmapHisto } from '../heap/jmap-histo.js';
import { runBuiltCli, runCli, scratchDir } from '../helpers.js';

const run = runCli;

const HEAP = 'fixtures/heap/jdk17/heap.hprof.gz';
const dir = scratchDir('cli-heap');

describe('dumpsleuth histogram', { timeout: 60_000 }, () => {
  test("jmap's own gzip (gz=1, inflated on worker threads) gives the same histogram as the plain gzip, from the command line", async () => {
    // The worker threads were unreferenced: the built program ended, exit 0, before any output (under
    // tsx a handle of its own kept the process alive, so the built CLI is run: a process that ends by itself).
    const parallel = runBuiltCli(['histogram', '--format', 'json', 'fixtures/heap/jdk17/heap-jmapgz.hprof.gz']);
    expect(parallel.code).toBe(0);
    expect(parallel.stdout.length).toBeGreaterThan(0);
    const plain = JSON.parse((await run(['histogram', '--format', 'json', HEAP])).stdout);
    expect(JSON.parse(parallel.stdout).totalInstances).toBe(plain.totalInstances);
  });

  test('text like jmap -histo, with the size model stated', async () => {
    const r = await run(['histogram', HEAP, '--top', '5']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/num\s+#instances\s+#bytes\s+class name/);
    expect(lines.filter((l) => /^\s+\d+:/.test(l))).toHaveLength(5);
    expect(r.stdout).toMatch(/^Total\s+\d+\s+\d+$/m);
    expect(r.stdout).toMatch(
      /Sizes: shallow sizes under the layout of a 64-bit HotSpot, compressed references, 12-byte object header \(16 for arrays\), 8-byte alignment/,
    );
  });

  test('json carries every class, with counts equal to jmap -histo:live for the program classes', async () => {
    const r = await run(['histogram', HEAP, '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema).toBe('dumpsleuth.histogram/1');
    const jmap = readJmapHisto('fixtures/heap/jdk17/histo-live.txt');
    for (const name of ['HeapObjects$Derived', 'HeapObjects$CollidingKey', 'java.lang.String', 'java.util.HashMap']) {
      expect(doc.rows.find((x: any) => x.className === name).instances, name).toBe(jmap.get(name));
    }
  });

  test("analyze states the heap's size: the histogram's totals", async () => {
    const histogram = JSON.parse((await run(['histogram', HEAP, '--format', 'json'])).stdout);
    const report = JSON.parse((await run(['analyze', HEAP, '--format', 'json'])).stdout);
    const input = report.inputs.find((i: any) => i.kind === 'heap');
    expect(input.heap).toEqual({ objects: histogram.totalInstances, shallowBytes: histogram.totalBytes, classes: histogram.rows.length });
    expect(input.heap.objects).toBeGreaterThan(1000);
    expect((await run(['analyze', HEAP])).stdout).toContain(
      `heap ${histogram.totalInstances.toLocaleString('en-US')} objects of ${histogram.rows.length} classes`,
    );
  });

  test('reads an extract and a V8 snapshot too', async () => {
    const out = join(dir, 'incident.json.gz');
    expect((await run(['extract', HEAP, '-o', out])).code).toBe(0);
    const fromExtract = JSON.parse((await run(['histogram', out, '--format', 'json'])).stdout);
    const fromHprof = JSON.parse((await run(['histogram', HEAP, '--format', 'json'])).stdout);
    expect(fromExtract.rows).toEqual(fromHprof.rows);
    const v8 = await run(['histogram', 'fixtures/heap-v8/markers.heapsnapshot.gz', '--format', 'json']);
    expect(JSON.parse(v8.stdout).rows.find((x: any) => x.className === 'DumpsleuthMarker').instances).toBe(1234);
  });

  test('a thread dump, a missing file and bad options are exit 2 with one clear line, no stack trace', async () => {
    const notHeap = await run(['histogram', 'fixtures/threads/deadlock/dump-1.txt']);
    expect(notHeap.code).toBe(2);
    expect(notHeap.stderr).toMatch(/is not a heap dump: it looks like a text file/);
    expect(notHeap.stderr).not.toMatch(/\n\s+at /);
    const missing = await run(['histogram', join(dir, 'nope.hprof')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
    expect((await run(['histogram', HEAP, '--top', 'x'])).code).toBe(2);
    expect((await run(['histogram', HEAP, '--format', 'xml'])).code).toBe(2);
  });
});

describe('dumpsleuth extract', { timeout: 60_000 }, () => {
  test('writes a small dumpsleuth.heap/1 file, gzip by name, with the analysis plan', async () => {
    const out = join(dir, 'pool.json.gz');
    const r = await run(['extract', HEAP, '-o', out]);
    expect(r.code).toBe(0);
    // The dump's size as analyze words it, then what the snapshot keeps.
    expect(r.stderr).toMatch(
      new RegExp(
        /wrote .*pool\.json\.gz: heap [\d,]+ objects of [\d,]+ classes, [\d.]+ \w+ shallow; /.source +
          /the snapshot keeps [\d,]+ class definitions \(every class loaded\) and the [\d,]+ objects the analysis reads \(gzip\)/.source,
      ),
    );
    // The same objects and classes as analyze counts in the dump.
    const analysed = JSON.parse((await run(['analyze', '--format', 'json', '--fail-on', 'never', HEAP])).stdout);
    const heap = analysed.inputs[0].heap;
    const [, objects, classes] = /heap ([\d,]+) objects of ([\d,]+) classes/.exec(r.stderr)!.map((x) => x.replace(/,/g, ''));
    expect([Number(objects), Number(classes)]).toEqual([heap.objects, heap.classes]);
    expect(statSync(out).size).toBeLessThan(statSync(HEAP).size);
    const doc = JSON.parse(gunzipSync(readFileSync(out)).toString('utf8'));
    expect(doc.format).toBe('dumpsleuth.heap/1');
    expect(doc.header.plan.roots.map((r: any) => r.className)).toContain('java.util.concurrent.ThreadPoolExecutor');
    // The fixture's pool and its workers are in the extract.
    const tpe = doc.classes.find((c: any) => c.name === 'java.util.concurrent.ThreadPoolExecutor');
    expect(doc.objects.some((o: any) => o.class === tpe.id)).toBe(true);
  });

  test('a missing -o is a usage error', async () => {
    expect((await run(['extract', HEAP])).code).toBe(2);
  });
});

describe('dumpsleuth ui', { timeout: 60_000 }, () => {
  test('without a terminal: exit 2 and a hint to use analyze, without loading anything', async () => {
    // The built CLI in a process of its own, whose stdin and stdout are pipes whoever runs the tests.
    const r = runBuiltCli(['ui', 'fixtures/incidents/shutdown-ordering']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/`ui` needs a terminal/);
    expect(r.stderr).toMatch(/dumpsleuth analyze/);
  });
});

describe('the memory the memory analysis may take (--max-memory)', { timeout: 120_000 }, () => {
  test('memory refuses a heap whose analysis needs more, at once, with exit 2 and what to do', async () => {
    const r = await run(['memory', '--max-memory', '1m', HEAP]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /cannot analyse the memory of fixtures\/heap\/jdk17\/heap\.hprof\.gz: it needs about [\d.]+ MiB for a heap dump of about [\d.]+ MiB, more than --max/,
    );
    expect(r.stderr).toMatch(/--max-memory with more/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('analyze says in the report why it did not compute it, and reports the rest; with room it computes it', async () => {
    const tight = JSON.parse((await run(['analyze', '--format', 'json', '--max-memory', '1m', HEAP])).stdout);
    expect(tight.model.memory[0].skipped).toMatch(/^not computed: it needs about .* more than --max-memory 1\.0 MiB \(give --max-memory with more/);
    expect(tight.model.memory[0].summary).toBeUndefined();
    const roomy = JSON.parse((await run(['analyze', '--format', 'json', '--max-memory', '16g', HEAP])).stdout);
    expect(roomy.model.memory[0].heap.reachableObjects).toBeGreaterThan(10_000);
  });

  test('a size that is none is a usage error naming the flag', async () => {
    const r = await run(['memory', '--max-memory', 'lots', HEAP]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-memory lots is not a size/);
  });
});
