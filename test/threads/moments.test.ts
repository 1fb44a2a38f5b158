/**
 * A Thread.print dump and the JSON thread dump of the same moment of a JDK 25 JVM whose virtual
 * threads deadlocked on two ReentrantLocks, 200 more parked behind them (fixtures/incidents/
 * virtual-thread-deadlock, fixtures/generate-virtual-deadlock.sh; truth.json holds the lock queues
 * the program read). Thread.print lists none of those virtual threads: alone, it finds nothing and
 * says why, in every format. With the JSON dump beside it, the moment is one dump with every thread
 * once, and the pile-up is found; three moments stay a series of three.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';

import type { ThreadDump } from '../../src/model/thread-dump.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import { mergeMoments } from '../../src/threads/moments.js';
import { analyse, INCIDENTS, load, TEST_TOOL } from '../helpers.js';

const DIR = join(INCIDENTS, 'virtual-thread-deadlock');
const at = (f: string) => join(DIR, f);

const truthFacts = async () =>
  JSON.parse(await readFile(at('truth.json'), 'utf8')).facts as { waitingForLedger: number; requestsParked: number; deadlocked: string[] };
const UNLISTED = /the JVM runs virtual threads \(the scheduler's thread "VirtualThread-unblocker"\).*jcmd <pid> Thread\.dump_to_file -format=json <file>/;

const dumpOf = async (f: string): Promise<ThreadDump> => (await load(at(f))).file.dumps[0]!;

describe('virtual threads a Thread.print dump does not list', () => {
  it('the Thread.print dump alone finds nothing, and says in every format that it cannot see them', async () => {
    const { model, findings } = await analyse([at('dump-1.txt')]);
    // Honest: no virtual thread is in it, so neither the deadlock nor the pile-up is.
    expect(model.dumps[0]!.threads.some((t) => t.virtual)).toBe(false);
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(model.notes.filter((n) => UNLISTED.test(n))).toHaveLength(1);
    const report = { tool: TEST_TOOL, model, findings };
    expect(renderText(report, new Chalk({ level: 0 }))).toMatch(UNLISTED);
    expect(renderMarkdown(report)).toMatch(/the JVM runs virtual threads .*Thread\.dump\\?_to\\?_file -format=json/);
    expect(renderHtml(report)).toMatch(/the JVM runs virtual threads .*Thread\.dump_to_file -format=json/);
    expect(JSON.parse(renderJson(report)).model.notes.some((n: string) => UNLISTED.test(n))).toBe(true);
  });

  it('a carrier carrying a virtual thread is a sign too (the pinned carriers of JDK 25 text dumps, given without their JSON dump)', async () => {
    const { model } = await analyse([join(INCIDENTS, 'virtual-thread-pinning', 'dump-1.txt')]);
    expect(model.notes.filter((n) => /the JVM runs virtual threads \("ForkJoinPool-1-worker-\d" carries virtual thread #\d+\)/.test(n))).toHaveLength(1);
  });

  it('negative control: a JDK 17 dump with no virtual-thread scheduler gets no such note', async () => {
    const { model } = await analyse(['fixtures/incidents/cpu-runaway/dump-1.txt']);
    expect(model.notes.some((n) => /virtual threads/.test(n))).toBe(false);
  });

  it('the pair is one moment: every thread once, the virtual threads from the JSON, and the pile-up found', async () => {
    const truth = await truthFacts();
    const { model, findings } = await analyse([at('dump-1.txt'), at('dump-1.json.gz')]);
    expect(model.dumps).toHaveLength(1);
    const dump = model.dumps[0]!;
    const text = await dumpOf('dump-1.txt');
    const json = await dumpOf('dump-1.json.gz');
    const virtual = json.threads.filter((t) => t.virtual);
    expect(dump.threads).toHaveLength(text.threads.length + virtual.length);
    // No thread twice: every Java id once (the text dump's platform threads are not added again from the JSON).
    const ids = dump.threads.flatMap((t) => (t.javaId !== undefined ? [t.javaId] : []));
    expect(new Set(ids).size).toBe(ids.length);
    // Each thread says where it came from: the platform ones from the text dump (with their lines), the virtual ones from the JSON.
    expect(dump.threads.filter((t) => t.virtual).every((t) => t.from === at('dump-1.json.gz'))).toBe(true);
    expect(dump.threads.filter((t) => !t.virtual).every((t) => t.from === undefined && t.line > 0)).toBe(true);
    expect(dump.threads.filter((t) => truth.deadlocked.includes(t.name)).map((t) => t.name)).toEqual(expect.arrayContaining(truth.deadlocked));
    // The pile-up: every thread LEDGER's queue held when the program looked (transfer-2 and the 200 requests).
    const contention = findings.find((f) => f.rule === 'lock-contention');
    expect(contention?.facts['waiters']).toBe(truth.waitingForLedger);
    const cited = contention!.evidence.filter((e) => e.kind === 'thread');
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((e) => e.kind === 'thread' && e.source === at('dump-1.json.gz'))).toBe(true);
    expect(model.notes.some((n) => n.startsWith(`${at('dump-1.json.gz')} and dump 1 of ${at('dump-1.txt')} are one moment of one JVM`))).toBe(true);
    expect(model.notes.some((n) => UNLISTED.test(n))).toBe(false);
  });

  it('the incident of three moments is a series of three, each JSON dump merged into the text dump of its moment', async () => {
    const truth = await truthFacts();
    const { model, findings } = await analyse([DIR]);
    expect(model.dumps).toHaveLength(3);
    expect(model.series).toHaveLength(1);
    expect(model.series[0]!.dumps).toHaveLength(3);
    for (const n of [1, 2, 3]) expect(model.notes.join('\n')).toContain(`${at(`dump-${n}.json.gz`)} into dump 1 of ${at(`dump-${n}.txt`)}`);
    // The deadlocked pair and the requests stay in place in every moment: stuck, behind the contended lock.
    const stuck = findings.filter((f) => f.rule === 'stuck-threads');
    expect(stuck.map((f) => f.subject).sort()).toEqual(['VirtualDeadlock.postRequest (WAITING)', 'VirtualDeadlock.transfer (WAITING)']);
    expect(stuck.find((f) => f.subject.startsWith('VirtualDeadlock.postRequest'))!.facts['threads']).toHaveLength(truth.requestsParked);
    expect(findings.find((f) => f.rule === 'lock-contention')?.facts['waiters']).toBe(truth.waitingForLedger);
  });

  it('the incident of an earlier JDK 25 capture (pinned carriers) stays a series of three, not four', async () => {
    const { model } = await analyse([join(INCIDENTS, 'virtual-thread-pinning')]);
    expect(model.dumps).toHaveLength(3);
    expect(model.series[0]!.dumps).toHaveLength(3);
  });
});

describe('which JSON dump is the moment of which text dump', () => {
  it('the nearest in time, through the zone offset of the text dump (local time) against the JSON (UTC)', async () => {
    const texts = await Promise.all([1, 2, 3].map((n) => dumpOf(`dump-${n}.txt`)));
    const jsons = await Promise.all([1, 2, 3].map((n) => dumpOf(`dump-${n}.json.gz`)));
    // The machine's clock two hours ahead of UTC (its dumps print local time), the JSON dumps given first and out of order.
    const local = texts.map((d) => ({ ...d, timestampIso: new Date(Date.parse(`${d.timestampIso!}Z`) + 2 * 3600_000).toISOString().slice(0, 19) }));
    const { dumps, merged } = mergeMoments([jsons[2]!, jsons[0]!, ...local, jsons[1]!]);
    expect(dumps).toHaveLength(3);
    expect(merged.map((m) => [m.fromSource, m.into])).toEqual(
      [3, 1, 2].map((n) => [at(`dump-${n}.json.gz`), `dump 1 of ${at(`dump-${n}.txt`)}`]).sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    );
  });

  it('text dumps of whole seconds taken a second apart: each JSON dump with the text dump of its second, not the nearest second', async () => {
    const text = await dumpOf('dump-1.txt');
    const json = await dumpOf('dump-1.json.gz');
    const second = (iso: string) => iso.slice(0, 19);
    const t0 = Date.parse(`${second(text.timestampIso!)}Z`);
    // Capture's order: a text dump at 18:10:18, its JSON dump 0.868 s later, the next text dump at 18:10:19, its JSON at .9.
    const texts = [0, 1].map((k) => ({ ...text, source: `threads-${k + 1}.txt`, timestampIso: new Date(t0 + k * 1000).toISOString().slice(0, 19) }));
    const jsons = [868, 1900].map((ms, k) => ({ ...json, source: `threads-${k + 1}.json`, timestampIso: new Date(t0 + ms).toISOString() }));
    const { merged } = mergeMoments([texts[0]!, jsons[0]!, texts[1]!, jsons[1]!]);
    expect(merged.map((m) => [m.fromSource, m.into])).toEqual([
      ['threads-1.json', 'dump 1 of threads-1.txt'],
      ['threads-2.json', 'dump 1 of threads-2.txt'],
    ]);
  });

  it('negative controls: a JSON dump minutes away, or of another JVM, is not merged', async () => {
    const text = await dumpOf('dump-1.txt');
    const json = await dumpOf('dump-1.json.gz');
    const later = { ...json, timestampIso: new Date(Date.parse(json.timestampIso!) + 5 * 60_000 + 7_000).toISOString() };
    expect(mergeMoments([text, later]).merged).toEqual([]);
    const other = (await load(join(INCIDENTS, 'virtual-thread-pinning', 'threads.json'))).file.dumps[0]!;
    const otherAtTheSameTime = { ...other, timestampIso: json.timestampIso! };
    expect(mergeMoments([text, otherAtTheSameTime]).merged).toEqual([]);
  });
});
