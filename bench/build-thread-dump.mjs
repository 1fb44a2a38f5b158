/**
 * Builds a large thread dump for the benchmarks by repeating real thread blocks (header to blank
 * line) from fixtures taken by real JVMs, with unique names and native ids.
 */
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `uniqueBodies`: every lock address in a thread's body is made its own (as when each thread holds
 * its own objects), so no two bodies are alike and the parser's cache of repeated bodies never hits:
 * the worst case for the text parser, next to the repeated real blocks of the default.
 */
export async function buildThreadDump(file, threads, { uniqueBodies = false } = {}) {
  const sources = ['fixtures/threads/pool/dump-1.txt', 'fixtures/threads/contention/dump-1.txt', 'fixtures/threads/series/dump-1.txt'];
  const blocks = [];
  for (const s of sources) {
    const text = readFileSync(join(root, s), 'utf8');
    for (const b of text.split(/\n(?=")/)) if (b.startsWith('"') && b.includes('\tat ')) blocks.push(b.trimEnd() + '\n\n');
  }
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  await write('2026-11-30 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n');
  for (let i = 0; i < threads; i++) {
    const b = blocks[i % blocks.length];
    // Unique names and native ids, as in a real 100k-thread JVM.
    let block = b.replace(/^"([^"]*)"/, `"$1-b${i}"`).replace(/ nid=0x[0-9a-f]+/, ` nid=0x${(0x10000 + i).toString(16)}`);
    if (uniqueBodies) {
      const own = (0x100000 + i).toString(16);
      block = block.replace(/<0x([0-9a-f]+)>/g, (_, hex) => `<0x${hex.slice(0, -own.length)}${own}>`);
      // A body with no lock line at all is made unique by its frame's line number instead.
      if (!/\n\t- /.test(block)) block = block.replace(/\.java:(\d+)\)/, `.java:$1${i})`);
    }
    await write(block);
  }
  await write('JNI global refs: 15, weak refs: 0\n');
  await new Promise((r) => out.end(r));
}

/** Real thread blocks of the fixtures' text dumps with at least `minFrames` frames (deep framework stacks). */
function deepBlocks(minFrames) {
  const blocks = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.txt')) {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('Full thread dump')) continue;
        for (const b of text.split(/\n(?=")/)) {
          const block = b.trimEnd();
          // A thread's lines only: a block running into the dump's trailer (a blank line, then text) is left out.
          if (!block.startsWith('"') || /\n\n\S/.test(block)) continue;
          if ((block.match(/\n\tat /g) ?? []).length >= minFrames) blocks.push(block + '\n\n');
        }
      }
    }
  };
  for (const dir of ['fixtures/threads', 'fixtures/incidents']) walk(join(root, dir));
  return blocks;
}

/**
 * A series of dumps of deep stacks, as a service with big framework stacks printed every few seconds
 * into one file: `dumps` dumps of the same `threadsPerDump` threads (each block a real one of >= 30
 * frames from the fixtures, named apart), to about `bytes` in all. Fewer, longer threads than
 * buildThreadDump's: the shape of most big dumps handed over (150 MB of 42k threads in 12 dumps).
 */
export async function buildDeepSeries(file, { bytes = 150_000_000, threadsPerDump = 3568 } = {}) {
  const blocks = deepBlocks(30);
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  let written = 0;
  let threads = 0;
  for (let dump = 0; written < bytes; dump++) {
    const header =
      `${dump > 0 ? 'JNI global refs: 15, weak refs: 0\n\n' : ''}2026-11-30 10:${String(dump).padStart(2, '0')}:00\n` +
      'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n';
    await write(header);
    written += header.length;
    for (let i = 0; i < threadsPerDump && written < bytes; i++, threads++) {
      // The same thread in every dump of the series: its name and native id depend on its place only.
      const block = blocks[i % blocks.length].replace(/^"([^"]*)"/, `"$1-b${i}"`).replace(/ nid=0x[0-9a-f]+/, ` nid=0x${(0x10000 + i).toString(16)}`);
      await write(block);
      written += block.length;
    }
  }
  await write('JNI global refs: 15, weak refs: 0\n');
  await new Promise((r) => out.end(r));
  return { threads, blocks: blocks.length };
}
