/** Encodings and containers: the same real dump must parse identically whatever wraps it. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, test } from 'vitest';

import { InputError } from '../../src/errors.js';
import { load, scratchDir } from '../helpers.js';

const dir = scratchDir('enc');
const original = readFileSync('fixtures/threads/contention/dump-1.txt');

function write(name: string, bytes: Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

async function signature(path: string): Promise<string[]> {
  const { file } = await load(path);
  return file.dumps.flatMap((d) => d.threads.map((t) => `${t.name}|${t.state}|${t.frames.length}|${t.locks.length}`));
}

describe('containers and encodings', async () => {
  const base = await signature(write('plain.txt', original));
  const text = original.toString('utf8');
  test.each([
    ['gzip, sniffed from content under a .txt name', () => gzipSync(original)],
    ['CRLF line endings', () => Buffer.from(text.replace(/\n/g, '\r\n'))],
    ['CR-only line endings (old Mac)', () => Buffer.from(text.replace(/\n/g, '\r'))],
    ['gzip of CR-only line endings', () => gzipSync(Buffer.from(text.replace(/\n/g, '\r')))],
    ['UTF-16LE with BOM', () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
    ['UTF-16LE without BOM', () => Buffer.from(text, 'utf16le')],
    [
      'UTF-16BE with BOM',
      () => {
        const le = Buffer.from('\ufeff' + text, 'utf16le');
        return Buffer.from(le).swap16();
      },
    ],
    ['UTF-8 BOM', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original])],
    ['gzip of UTF-16LE', () => gzipSync(Buffer.from(text, 'utf16le'))],
  ])('%s', async (name, make) => {
    expect(await signature(write(name.replace(/\W+/g, '_') + '.txt', make()))).toEqual(base);
  });

  test('a truncated gzip keeps what it holds and says so', async () => {
    const gz = gzipSync(original);
    const p = write('truncated.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
    const { file } = await load(p);
    expect(file.warnings.join(' ')).toMatch(/gzip data ends early/);
    const threads = file.dumps.reduce((n, d) => n + d.threads.length, 0);
    expect(threads).toBeGreaterThan(0);
    expect(threads).toBeLessThan(base.length);
  });

  test('a dump cut in the middle of a line still yields the threads before it', async () => {
    const p = write('cut.txt', original.subarray(0, Math.floor(original.length / 2)));
    const { file } = await load(p);
    expect(file.dumps[0]!.threads.length).toBeGreaterThan(5);
  });

  test.each([
    ['binary.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0, 1, 2, 3]), /executable/],
    ['heap.hprof', Buffer.from('JAVA PROFILE 1.0.2\0\0\0\0\u0008'), /HPROF heap dump/],
    ['notes.txt', Buffer.from('hello\nthis is not a dump\n'), /text with no thread dump/],
    ['empty.txt', Buffer.alloc(0), /empty file/],
    ['data.json', Buffer.from('{"a": 1}'), /neither a jcmd nor a Spring Boot/],
  ])('%s is refused with a clear error', async (name, bytes, message) => {
    const p = write(name, bytes);
    const err = await load(p).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(message);
  });
});

describe('cut JSON dumps keep the threads before the cut', () => {
  const json = readFileSync('fixtures/threads/pool/jdk25-threads.json');
  test.each([
    ['plain', (b: Buffer) => b.subarray(0, Math.floor(b.length * 0.6))],
    [
      'gzip',
      (b: Buffer) => {
        const gz = gzipSync(b);
        return gz.subarray(0, Math.floor(gz.length * 0.6));
      },
    ],
  ])('%s', async (name, cut) => {
    const whole = (await load(write(`whole-${name}.json`, json))).file.dumps[0]!.threads.length;
    const { file } = await load(write(`cut-${name}.json`, cut(json)));
    expect(file.warnings.join(' ')).toMatch(/ends early or is damaged/);
    const kept = file.dumps[0]!.threads.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(whole);
  });
});
