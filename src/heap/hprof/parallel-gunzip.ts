/**
 * jmap's `gz=N` heap dumps (JDK 15+) are written as independent gzip members of a fixed size of
 * uncompressed data, announced in the first member's comment (`HPROF BLOCKSIZE=1048576`). Members
 * can therefore be inflated on several threads and handed to the parser in order, which roughly
 * doubles the speed on two cores: inflating is most of the cost of reading a gzipped dump.
 *
 * Member starts are found by their header right after the previous member's trailer. If a member does
 * not inflate to the size its trailer states, the caller goes on sequentially from that member, so a
 * surprise costs speed only.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

import { type ProgressListener, progressStep } from '../../model/progress.js';

/** The block size from the first member's comment, or undefined for any other gzip file. */
export function jmapGzipBlockSize(path: string): number | undefined {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, 64, 0);
    if (n < 12 || head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8 || (head[3]! & 0x10) === 0 || (head[3]! & 0x0c) !== 0) return undefined;
    const m = /^HPROF BLOCKSIZE=(\d+)\0/.exec(head.toString('latin1', 10, n));
    const size = m ? Number(m[1]) : NaN;
    return Number.isSafeInteger(size) && size >= 4096 && size <= 64 * 1024 * 1024 ? size : undefined;
  } finally {
    closeSync(fd);
  }
}

interface Member {
  readonly start: number;
  readonly end: number;
}

/**
 * Member boundaries: a gzip header (jmap writes a zero mtime) right after a trailer whose ISIZE is a
 * plausible member size (jmap's members hold at most one block each). A false match is caught later:
 * the member around it does not inflate to its trailer's size.
 */
function findMembers(path: string, blockSize: number): Member[] {
  const size = statSync(path).size;
  const magic = Buffer.from([0x1f, 0x8b, 0x08]);
  const starts = [0];
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(8 * 1024 * 1024);
    const overlap = 16;
    for (let pos = 0; pos < size; pos += buf.length - overlap) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      const view = buf.subarray(0, n);
      for (let i = view.indexOf(magic, 4); i >= 0 && i + 10 <= n; i = view.indexOf(magic, i + 1)) {
        const at = pos + i;
        if (at <= starts[starts.length - 1]! || view.readUInt32LE(i + 4) !== 0 || view[i + 3]! > 0x1f) continue;
        const previousSize = view.readUInt32LE(i - 4);
        if (previousSize > 0 && previousSize <= blockSize) starts.push(at);
      }
      if (n < buf.length) break;
    }
  } finally {
    closeSync(fd);
  }
  return starts.map((start, i) => ({ start, end: starts[i + 1] ?? size }));
}

/** How long a worker may take to finish its member after being asked to stop. */
const STOP_GRACE_MS = 10_000;

// Runs in each worker (CommonJS, with none of the parent's node flags): reads a member, skips its header, inflates its body. No checksum is checked
// (raw inflate); a damaged member fails to inflate or inflates to the wrong size, and is then redone
// sequentially with the checksum.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, readSync } = require('node:fs');
const { inflateRawSync } = require('node:zlib');
let fd = -1;
parentPort.on('message', (m) => {
  if (m.path !== undefined) { fd = openSync(m.path, 'r'); return; }
  // Told to stop: end once the member in hand is done (the port closing lets the thread exit).
  if (m.stop) { parentPort.close(); return; }
  try {
    const gz = Buffer.allocUnsafe(m.end - m.start);
    const n = readSync(fd, gz, 0, gz.length, m.start);
    const flags = gz[3];
    let p = 10;
    if (flags & 4) p += 2 + gz.readUInt16LE(p);
    if (flags & 8) p = gz.indexOf(0, p) + 1;
    if (flags & 16) p = gz.indexOf(0, p) + 1;
    if (flags & 2) p += 2;
    let out = inflateRawSync(gz.subarray(p, n - 8));
    // The trailer's ISIZE is the size this member must inflate to; anything else is not a member.
    if (out.length % 4294967296 !== gz.readUInt32LE(n - 4)) throw new Error('member size mismatch');
    if (out.byteOffset !== 0 || out.buffer.byteLength !== out.length) out = Buffer.from(out);
    parentPort.postMessage({ index: m.index, data: out.buffer }, [out.buffer]);
  } catch (e) {
    parentPort.postMessage({ index: m.index, error: String(e && e.message) });
  }
});
`;

/**
 * Compressed bytes below which one thread inflates the file: starting a worker costs about 30 ms,
 * and one thread inflates 16 MB of jmap's gzip (about 130 MB of HPROF) in about 0.4 s, so smaller
 * dumps finish sooner without them.
 */
const PARALLEL_MIN_COMPRESSED_BYTES = 16 * 1024 * 1024;

/**
 * Inflates the members on worker threads and calls onChunk in order. Returns done when every member
 * was handed over (or `stop` said so), else the compressed offset to go on from sequentially.
 */
export async function parallelGunzip(
  path: string,
  blockSize: number,
  onChunk: (b: Buffer) => void,
  stop: () => boolean,
  onProgress?: ProgressListener,
  threadCount?: number,
  minCompressedBytes = PARALLEL_MIN_COMPRESSED_BYTES,
): Promise<{ done: true } | { done: false; resumeAt: number }> {
  const size = statSync(path).size;
  if (size < minCompressedBytes) return { done: false, resumeAt: 0 };
  const members = findMembers(path, blockSize);
  if (members.length < 4) return { done: false, resumeAt: 0 };
  const threads = threadCount ?? Math.max(1, Math.min(4, availableParallelism()));
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_SOURCE, { eval: true, execArgv: [] }));
  // Listened for from the start, so a worker that has already ended is not waited for.
  const exits = workers.map((w) => new Promise<void>((resolve) => w.once('exit', () => resolve())));
  // The workers stay referenced while members are awaited: unreferenced, they let the process end
  // with the inflate half done whenever this thread had nothing else to wait for (a big jmap gz=1
  // file printed no histogram at all, exit 0). They are stopped in the finally below.
  for (const w of workers) w.postMessage({ path });
  const AHEAD = threads * 4;
  const ready = new Map<number, Buffer>();
  let nextToSend = 0;
  let nextToFeed = 0;
  let lastReport = 0;
  let failedAt = Infinity;
  try {
    return await new Promise((resolve, reject) => {
      let settled = false;
      const finish = (r: { done: true } | { done: false; resumeAt: number }) => {
        if (!settled) {
          settled = true;
          resolve(r);
        }
      };
      const send = (w: Worker) => {
        if (nextToSend < members.length && nextToSend < failedAt && nextToSend - nextToFeed < AHEAD) {
          const m = members[nextToSend]!;
          w.postMessage({ index: nextToSend++, start: m.start, end: m.end });
          return true;
        }
        return false;
      };
      const idle: Worker[] = [];
      const drain = () => {
        if (nextToFeed === failedAt) return finish({ done: false, resumeAt: members[failedAt]!.start });
        while (ready.has(nextToFeed)) {
          const data = ready.get(nextToFeed)!;
          ready.delete(nextToFeed);
          onChunk(data);
          nextToFeed++;
          if (stop() || nextToFeed === members.length) return finish({ done: true });
          if (nextToFeed === failedAt) return finish({ done: false, resumeAt: members[failedAt]!.start });
          if (onProgress && members[nextToFeed]!.start - lastReport > progressStep(size)) {
            lastReport = members[nextToFeed]!.start;
            onProgress({ phase: 'heap', bytesRead: lastReport, totalBytes: size });
          }
        }
        while (idle.length > 0 && send(idle[idle.length - 1]!)) idle.pop();
      };
      for (const w of workers) {
        w.on('message', (msg: { index: number; data?: ArrayBuffer; error?: string }) => {
          if (settled) return;
          // A member that fails is redone sequentially, after the members before it are handed over.
          if (msg.error !== undefined || msg.data === undefined) failedAt = Math.min(failedAt, msg.index);
          else ready.set(msg.index, Buffer.from(msg.data));
          if (!send(w)) idle.push(w);
          try {
            drain();
          } catch (e) {
            settled = true;
            reject(e);
          }
        });
        w.on('error', (e) => {
          if (!settled) {
            settled = true;
            reject(e);
          }
        });
        if (!send(w)) idle.push(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w, i) => stopWorker(w, exits[i]!)));
  }
}

/**
 * Asks a worker to finish the member in hand and exit. Not terminate(): terminating a thread inside
 * zlib's set-up (between creating its handle and initialising it) makes Node abort the whole process
 * at the thread's clean-up ("close before init", found by fuzzing damaged jmap dumps).
 */
async function stopWorker(w: Worker, exited: Promise<void>): Promise<void> {
  w.postMessage({ stop: true });
  // A member takes milliseconds; a thread still busy after this long is stuck, and is stopped hard.
  const timer = setTimeout(() => void w.terminate(), STOP_GRACE_MS);
  timer.unref();
  await exited;
  clearTimeout(timer);
}
