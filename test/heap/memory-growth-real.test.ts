/**
 * `memory --baseline` on two heap dumps, two minutes apart, of a JVM that is no fixture program of its
 * own: a service caching in Debian's Guava (fixtures/generate-guava-cache-growth.sh), whose growth sits
 * in LocalCache's segments. The ground truth is `jmap -histo:live`, taken beside each dump while the JVM
 * was quiet: the growth of every class of the program and of Guava that the report lists is the
 * difference of the two histograms, and the holder is the static field the cache sits in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, test } from 'vitest';

import { runCli } from '../helpers.js';

const DIR = 'fixtures/heap/guava-cache-growth';
const PRIMITIVES: Record<string, string> = { B: 'byte', C: 'char', I: 'int', J: 'long', S: 'short', Z: 'boolean', F: 'float', D: 'double' };

/** A class as jmap names it (`[B`, `[Lcom.acme.X;`) in the words the report uses (`byte[]`, `com.acme.X[]`). */
function javaName(jvm: string): string {
  const dims = /^\[*/.exec(jvm)![0].length;
  if (dims === 0) return jvm;
  const rest = jvm.slice(dims);
  return (rest.startsWith('L') ? rest.slice(1, -1) : PRIMITIVES[rest]!) + '[]'.repeat(dims);
}

function histo(n: number): Map<string, { instances: number; bytes: number }> {
  const rows = new Map<string, { instances: number; bytes: number }>();
  for (const line of readFileSync(join(DIR, `histo-live-${n}.txt`), 'utf8').split('\n')) {
    const m = /^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (m === null) continue;
    const name = javaName(m[3]!);
    const e = rows.get(name) ?? { instances: 0, bytes: 0 };
    rows.set(name, { instances: e.instances + Number(m[1]), bytes: e.bytes + Number(m[2]) });
  }
  return rows;
}

test(
  'a Guava cache growing over two minutes: the growth per class is what jmap counted, held by the static field of the cache',
  { timeout: 120_000 },
  async () => {
    const r = await runCli(['memory', '-f', 'json', '--no-progress', '--baseline', join(DIR, 'heap-1.hprof.gz'), join(DIR, 'heap-2.hprof.gz')]);
    expect(r.code).toBe(0);
    const g = JSON.parse(r.stdout).growth;
    const [before, after] = [histo(1), histo(2)];
    const zero = { instances: 0, bytes: 0 };
    // The program's and the library's classes; the JDK's own differ by the few objects jmap's attach makes between the histogram and the dump.
    const ours = (g.classes as Array<{ class: string; change: { instances: number; shallow: number } }>).filter((c) =>
      /^com\.(example|google)\./.test(c.class),
    );
    expect(ours.map((c) => c.class)).toEqual(
      expect.arrayContaining(['com.google.common.cache.LocalCache$StrongAccessEntry', 'com.example.pricing.PriceCacheService$PricedQuote']),
    );
    for (const c of ours) {
      const [a, b] = [before.get(c.class) ?? zero, after.get(c.class) ?? zero];
      expect(c.change, c.class).toEqual({ ...c.change, instances: b.instances - a.instances, shallow: b.bytes - a.bytes });
    }
    const entries = ours.find((c) => c.class.endsWith('$StrongAccessEntry'))!;
    expect(entries.change.instances).toBeGreaterThan(0);
    // The holder: the cache's segments, under the static field the service keeps the cache in; grown itself.
    const holder = g.holders[0];
    expect(holder.heldBy).toBe('com.example.pricing.PriceCacheService.QUOTES (static)');
    expect(holder.holds.map((c: { class: string }) => c.class)).toContain('com.google.common.cache.LocalCache$StrongAccessEntry');
    expect(holder.retained[1] - holder.retained[0]).toBeGreaterThan(entries.change.shallow);
  },
);
