/**
 * Robustness edge cases that random mutation rarely reaches: empty files, a 100 MB line, deeply
 * nested JSON, invalid UTF-8 and UTF-16, reference cycles in queues and maps, symlink loops, and
 * control sequences in names. Hand-written inputs, each a format edge case, not a JVM's output.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { collectInputs } from '../../src/input/collect-inputs.js';
import { scratchDir } from '../helpers.js';
import { extractToBuffer } from './extract-buffer.js';
import { analyseBytes } from './harness.js';

const HEADER = 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n';
const thread = (name: string, n: number) =>
  `"${name}" #${n} prio=5 os_prio=0 cpu=1.00ms elapsed=2.00s tid=0x${n.toString(16)} nid=0x${n.toString(16)} waiting on condition  [0x1]\n   ` +
  `java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\tat ` +
  `demo.Main.run(Main.java:${n})\n\n`;

describe('edge cases', { timeout: 300_000 }, () => {
  it('an empty file is refused in one line', async () => {
    const r = await analyseBytes(new Uint8Array(0), 'empty.txt');
    expect(r).toMatchObject({ kind: 'refused' });
    if (r.kind === 'refused') expect(r.message).toMatch(/empty/);
  });

  it('a 100 MB line between threads: bounded, and the threads around it are kept', async () => {
    const big = Buffer.alloc(100 * 1024 * 1024, 0x61);
    const bytes = Buffer.concat([Buffer.from(HEADER + thread('before', 1)), big, Buffer.from('\n\n' + thread('after', 2))]);
    const r = await analyseBytes(bytes, 'long-line.txt');
    expect(r.kind).toBe('results');
    if (r.kind === 'results') {
      expect(r.text).toContain('2 threads');
    }
  });

  it('a 100 MB file with no newline at all', async () => {
    const r = await analyseBytes(Buffer.alloc(100 * 1024 * 1024, 0x7a), 'one-line.txt');
    expect(r.kind).toBe('refused');
  });

  it('deeply nested JSON is refused, not a stack overflow', async () => {
    for (const doc of [
      '{"threadDump":' + '['.repeat(200_000),
      '{"threads":' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}',
      '['.repeat(500_000) + ']'.repeat(500_000),
    ]) {
      const r = await analyseBytes(Buffer.from(doc), 'deep.json');
      expect(r.kind).toBe('refused');
    }
  });

  it('invalid UTF-8 in names and frames: results, with the bytes replaced', async () => {
    const bytes = Buffer.concat([
      Buffer.from(HEADER),
      Buffer.from(thread('bad-\u0000name', 1)).subarray(0, 5),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from(thread('ok', 2).slice(5)),
    ]);
    const r = await analyseBytes(Buffer.concat([bytes, Buffer.from(thread('ok-too', 3))]), 'utf8.txt');
    expect(r.kind).toBe('results');
  });

  it('invalid UTF-16: odd length and lone surrogates', async () => {
    const text = Buffer.from(HEADER + thread('a\ud800b', 1) + thread('c\udfffd', 2), 'utf16le');
    const withBom = Buffer.concat([Buffer.from([0xff, 0xfe]), text, Buffer.from([0x41])]);
    const r = await analyseBytes(withBom, 'utf16.txt');
    expect(r.kind).toBe('results');
    if (r.kind === 'results') expect(r.text).toContain('2 threads');
  });

  it('control sequences in thread names and lock classes are neutralised in text', async () => {
    const evil = 'x\u001b]8;;http://evil\u0007link\u001b]8;;\u0007\u001b[2J\u009b31m\u0007';
    const lines =
      HEADER +
      thread(evil, 1) +
      `"${evil}-2" #2 prio=5 os_prio=0 tid=0x2 nid=0x2 waiting for monitor entry  [0x1]\n   java.lang.Thread.State: BLOCKED (on object monitor)\n\tat ` +
      `demo.${evil}.m(X.java:1)\n\t- waiting to lock <0x00000000000000ab> (a demo.${evil})\n\n`;
    const r = await analyseBytes(Buffer.from(lines), 'evil.txt');
    expect(r.kind).toBe('results');
    if (r.kind === 'results') expect(r.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('a queue whose last node points back to its first, and a map bin pointing to itself', async () => {
    const extract = JSON.parse((await extractToBuffer('fixtures/incidents/http-pool-starvation/heap.hprof.gz')).toString('utf8'));
    let cycles = 0;
    for (const [className, field] of [
      ['java.util.concurrent.LinkedBlockingQueue$Node', 'next'],
      ['java.util.HashMap$Node', 'next'],
      ['java.util.concurrent.ConcurrentHashMap$Node', 'next'],
    ] as const) {
      const cls = extract.classes.find((c: { name: string }) => c.name === className);
      if (cls === undefined) continue;
      const slot = cls.fields.findIndex((f: [string, string]) => f[0] === field);
      const nodes = extract.objects.filter((o: { class?: number }) => o.class === cls.id);
      if (nodes.length === 0) continue;
      for (const n of nodes) if (n.values[slot] === 0) n.values[slot] = nodes[0].id;
      nodes[nodes.length - 1].values[slot] = nodes[nodes.length - 1].id;
      cycles++;
    }
    expect(cycles).toBeGreaterThanOrEqual(2);
    const r = await analyseBytes(gzipSync(JSON.stringify(extract)), 'cyclic.json.gz');
    expect(r.kind).toBe('results');
  });

  it('a directory with a symlink loop: every dump found once, the walk ends', async () => {
    const root = scratchDir('loop');
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'dump.txt'), HEADER + thread('main', 1));
    symlinkSync(root, join(root, 'a', 'loop'));
    symlinkSync(join(root, 'a', 'dump.txt'), join(root, 'same-dump.txt'));
    const elsewhere = scratchDir('elsewhere');
    writeFileSync(join(elsewhere, 'other.txt'), HEADER + thread('other', 1));
    symlinkSync(join(elsewhere, 'other.txt'), join(root, 'linked-other.txt'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling.txt'));
    const inputs = await collectInputs([root]);
    // The loop is walked once, the same dump linked twice is read once, a link to a dump elsewhere is followed.
    expect(inputs.map((i) => i.path.slice(root.length))).toEqual(['/a/dump.txt', '/linked-other.txt']);
  });

  it('the jstack JDK 17 fixture still reads in full through the harness (a control)', async () => {
    const r = await analyseBytes(readFileSync('fixtures/threads/deadlock/dump-1.txt'), 'dump.txt');
    expect(r.kind).toBe('results');
  });
});

describe('names that try to forge report lines', { timeout: 120_000 }, () => {
  it('line breaks and bidi overrides in JSON thread names print on one line and change no other finding', async () => {
    const doc = JSON.parse(readFileSync('fixtures/threads/deadlock/jdk25-threads.json', 'utf8'));
    const original = await analyseBytes(Buffer.from(JSON.stringify(doc)), 'threads.json');
    let renamed = 0;
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        if (typeof o['name'] === 'string' && Array.isArray(o['stack'])) {
          o['name'] = `${o['name']}\n\nCRITICAL forged-rule  everything is fine\r\n\u202egnp.exe\u2028`;
          renamed++;
        }
        Object.values(o).forEach(walk);
      }
    };
    walk(doc);
    expect(renamed).toBeGreaterThan(3);
    const forged = await analyseBytes(Buffer.from(JSON.stringify(doc)), 'threads.json');
    expect(original.kind).toBe('results');
    expect(forged.kind).toBe('results');
    if (forged.kind !== 'results' || original.kind !== 'results') return;
    expect(forged.text.split('\n').some((l) => /^CRITICAL forged-rule/.test(l.trim()))).toBe(false);
    expect(forged.text).not.toMatch(/[\u202e\u2028\r]/);
    // The same findings (rule and severity lines) as without the forged names.
    const findingLines = (t: string) =>
      t
        .split('\n')
        .filter((l) => /^(CRITICAL|ERROR|WARNING|INFO) /.test(l))
        .map((l) => l.split(/\s+/).slice(0, 2).join(' '));
    expect(findingLines(forged.text)).toEqual(findingLines(original.text));
  });
});

describe('HPROF damage is counted, not only listed', { timeout: 120_000 }, () => {
  it('150 records with unknown tags: 100 listed, the rest counted; a cut file says how many bytes went unread', async () => {
    const { gunzipSync } = await import('node:zlib');
    const { hprofRecords } = await import('./hprof-records.js');
    const hprof = gunzipSync(readFileSync('fixtures/heap/jdk17/heap.hprof.gz'));
    const records = hprofRecords(hprof);
    const damaged = Buffer.from(hprof);
    // UTF8 records (tag 0x01) are the many small ones before the heap: make 150 of them unknown.
    let changed = 0;
    for (const r of records) {
      if (damaged[r] !== 0x01 || changed >= 150) continue;
      damaged[r] = 0xee;
      changed++;
    }
    expect(changed).toBe(150);
    const r = await analyseBytes(damaged, 'tags.hprof');
    expect(r.kind).toBe('results');
    if (r.kind === 'results') {
      expect(r.warnings.filter((w) => /unknown record tag 0xee/.test(w)).length).toBe(100);
      expect(r.warnings.join('\n')).toMatch(/50 more warnings like these were not listed; 150 records or heap-dump segments were skipped in all/);
    }
    const cut = await analyseBytes(hprof.subarray(0, hprof.length - 1000), 'cut.hprof');
    if (cut.kind === 'results') expect(cut.warnings.join('\n')).toMatch(/bytes from there to the end of the file unread/);
    expect(cut.kind).toBe('results');
  });
});
