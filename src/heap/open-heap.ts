/**
 * Heap inputs by what their content says they are: HPROF (plain or gzip), dumpsleuth's JSON heap
 * snapshot, or a V8 .heapsnapshot. Anything else gets a clear error saying what it looked like.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';
import type { ProgressListener } from '../input/open.js';
import { sniff } from '../input/sniff.js';
import type { HeapStore } from './heap-model.js';
import type { Histogram } from './histogram.js';
import { hprofHistogram } from './hprof/hprof-histogram.js';
import { loadHprof, type LoadHooks, type LoadPlan } from './hprof/hprof-loader.js';
import { HprofFormatError } from './hprof/parser.js';
import { readHeapSnapshot } from './json/snapshot-reader.js';
import { readV8HeapSnapshotHistogram } from './v8/v8-snapshot.js';

export type HeapInputKind = 'hprof' | 'dumpsleuth-heap' | 'v8-heapsnapshot';

export const ACCEPTED_HEAP_INPUTS =
  'accepted: HPROF heap dumps (jmap, -XX:+HeapDumpOnOutOfMemoryError, actuator /heapdump; plain or gzip), dumpsleuth heap snapshots (dumpsleuth extract), V8 .heapsnapshot files';

const HEAD = 64 * 1024;

/** The first bytes of the file, decompressed when it is gzip. */
async function headOf(path: string): Promise<{ head: Buffer; gzip: boolean }> {
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw new InputError(`${path} is a directory`, 'pass a heap dump file');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, 'check the path');
  }
  const raw = await readPrefix(createReadStream(path, { start: 0, end: HEAD - 1 }));
  const gzip = raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b;
  if (!gzip) return { head: raw, gzip };
  const file = createReadStream(path);
  const gunzip = createGunzip();
  file.pipe(gunzip);
  try {
    return { head: await readPrefix(gunzip), gzip };
  } finally {
    file.destroy();
    gunzip.destroy();
  }
}

async function readPrefix(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream) {
      parts.push(chunk);
      n += chunk.length;
      if (n >= HEAD) break;
    }
  } catch {
    // A damaged gzip stream: whatever came out before the damage is the head.
  }
  return Buffer.concat(parts).subarray(0, HEAD);
}

/** The heap format of the file, or undefined when it is not a heap dump (no error: the caller tries other readers). */
export async function detectHeapKind(path: string): Promise<HeapInputKind | undefined> {
  const { head } = await headOf(path);
  const text = head.toString('utf8');
  const kind = sniff(head, text);
  if (kind.kind === 'hprof') return 'hprof';
  if (kind.kind === 'v8-heapsnapshot') return 'v8-heapsnapshot';
  if (/^\s*\{\s*"format"\s*:\s*"dumpsleuth\.heap\/\d+"/.test(text)) return 'dumpsleuth-heap';
  return undefined;
}

export async function heapInputKind(path: string): Promise<HeapInputKind> {
  const { head } = await headOf(path);
  const text = head.toString('utf8');
  const kind = sniff(head, text);
  if (kind.kind === 'hprof') return 'hprof';
  if (kind.kind === 'v8-heapsnapshot') return 'v8-heapsnapshot';
  if (/^\s*\{\s*"format"\s*:\s*"dumpsleuth\.heap\/\d+"/.test(text)) return 'dumpsleuth-heap';
  const what = kind.kind === 'binary' ? kind.description : kind.kind === 'text' || kind.kind === 'javacore' ? 'a text file (a thread dump or a log?)' : 'JSON of another kind';
  throw new InputError(`${path} is not a heap dump: it looks like ${what}`, ACCEPTED_HEAP_INPUTS);
}

/** The same store, named as the user gave it (stdin's copy is a temporary file, shown as `-`). */
export function heapStoreNamed(store: HeapStore, file: string, name: string): HeapStore {
  if (file === name) return store;
  const rename = (s: string) => s.split(file).join(name);
  return { ...store, source: { ...store.source, path: name }, warnings: store.warnings.map(rename) };
}

/** The objects the analyses need, from an HPROF or an extract. `hooks`: see loadHprof (an extract's snapshot has no file to share, and is not asked). */
export async function openHeap(path: string, plan: LoadPlan, onProgress?: ProgressListener, hooks?: LoadHooks): Promise<HeapStore> {
  const kind = await heapInputKind(path);
  if (kind === 'v8-heapsnapshot') throw new InputError(`${path} is a V8 .heapsnapshot (Node.js/Chrome): it has no Java objects to analyse`, 'use `dumpsleuth memory` (what holds its memory) or `dumpsleuth histogram` for it');
  if (kind === 'dumpsleuth-heap') return readHeapSnapshot(path, plan.maxGunzipBytes);
  return withHprofErrors(path, () => loadHprof(path, plan, onProgress, hooks));
}

export async function heapHistogram(path: string, onProgress?: ProgressListener): Promise<Histogram> {
  const kind = await heapInputKind(path);
  if (kind === 'v8-heapsnapshot') return readV8HeapSnapshotHistogram(path, onProgress ? { onProgress: (bytesRead, totalBytes) => onProgress(totalBytes === undefined ? { phase: 'heap', bytesRead } : { phase: 'heap', bytesRead, totalBytes }) } : {});
  if (kind === 'dumpsleuth-heap') {
    const store = await readHeapSnapshot(path);
    if (store.histogram === undefined) throw new InputError(`${path}: this heap snapshot carries no histogram`, 'run `dumpsleuth histogram` on the HPROF it came from');
    return { ...store.histogram, source: path, format: 'dumpsleuth-heap', warnings: [...store.histogram.warnings, ...store.warnings] };
  }
  return withHprofErrors(path, () => hprofHistogram(path, onProgress));
}

async function withHprofErrors<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HprofFormatError) throw new InputError(`${path}: ${e.message}`, ACCEPTED_HEAP_INPUTS);
    throw e;
  }
}
