/**
 * Opening an input: a file path or `-` for stdin. Gzip is recognised by its magic bytes, not the
 * file name, and the text encoding (UTF-8, UTF-16 LE/BE with or without BOM) from the first bytes.
 * The result streams decoded text; nothing here holds the whole file.
 */
import { isAscii } from 'node:buffer';
import { close as fsClose, open as fsOpen, read as fsRead } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

import { InputError } from '../errors.js';
import { DEFAULT_MAX_GUNZIP_BYTES, formatBytes, inflationBomb } from '../model/bytes.js';
import { LineCarry } from '../model/line-carry.js';
import type { ProgressListener } from '../model/progress.js';
import { readFailure } from '../model/read-failure.js';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface OpenedInput {
  readonly path: string;
  readonly gzip: boolean;
  /** Size on disk (compressed when gzip); 0 for stdin read as it comes. */
  readonly fileBytes: number;
  /** First bytes after decompression, for binary format sniffing (HPROF, zip, ...). */
  readonly headBytes: Buffer;
  /** Encoding guessed from the first bytes. */
  readonly encoding: TextEncodingName;
  /** `headBytes` decoded, for text format sniffing. */
  readonly headText: string;
  /** The decoded text from the beginning, mended (see mendText); it can be read once. */
  text(): AsyncIterable<string>;
  /** What reading text() mended so far: a reader says it in a warning once it has read all. */
  readonly mended: TextMends;
  /** Lets go of the file when only the head was wanted (the text is then never read). */
  close(): void;
}

const HEAD_BYTES = 64 * 1024;
/**
 * Below Node's threshold for external strings (about 1 MB) and glibc's for mmap (128 KiB): a chunk's
 * decoded text is an ordinary young string, and no chunk is a malloc block of its own.
 */
const READ_CHUNK = 64 * 1024;
/**
 * A plain file is read this much at a time and handed on in READ_CHUNK pieces: fewer trips to the
 * thread pool, whose round trip a 64 KiB read did not hide (100 ms of a 150 MB dump's second was the
 * main thread waiting; `analyze` of it 1.08 -> 0.98 s, measured in turns).
 */
const READ_AT_ONCE = 16 * READ_CHUNK;

/**
 * `readFrom` is where the bytes of `-` are when stdin was already copied to a file (see stdin.ts);
 * messages still name the input `path`.
 */
export async function openInput(path: string, onProgress?: ProgressListener, maxGunzipBytes?: number, readFrom?: string): Promise<OpenedInput> {
  let totalBytes: number | undefined;
  let source: AsyncIterable<Buffer | string>;
  let reader: ChunkReader | undefined;
  // The copy of stdin or of a named pipe when there is one; else the path itself (stdin alone: read as it comes).
  const file = readFrom ?? (path === '-' ? undefined : path);
  if (file === undefined) {
    source = process.stdin;
  } else {
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw new InputError(`${path} is a directory`, 'pass the files inside it, or the directory to `analyze`');
      totalBytes = st.size;
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`cannot read ${path}: ${readFailure(e)}`, 'check the path');
    }
    reader = new ChunkReader(file);
    source = reader.chunks();
  }
  let bytesRead = 0;
  const counted = countBytes(source, (n) => {
    bytesRead += n;
    onProgress?.(totalBytes === undefined ? { phase: 'read', bytesRead } : { phase: 'read', bytesRead, totalBytes });
  });
  const raw = await peek(counted, 2);
  const gzip = raw.head.length >= 2 && raw.head[0] === 0x1f && raw.head[1] === 0x8b;
  // The inflater reads ahead of what it was handed, so only plain text may share one buffer.
  if (!gzip) reader?.reuseBuffers();
  const plain = gzip ? gunzipped(raw.rest, path, maxGunzipBytes) : raw.rest;
  const { head: headBytes, rest } = await peek(plain, HEAD_BYTES);
  const encoding = detectEncoding(headBytes);
  // Old Mac line ends (CR alone, no LF anywhere in the head): read as lines, not as one long line.
  const head = decodeWhole(headBytes, encoding);
  const crOnly = head.includes('\r') && !head.includes('\n');
  const mended: TextMends = { nulsDropped: 0 };
  let consumed = false;
  return {
    path,
    gzip,
    fileBytes: totalBytes ?? 0,
    headBytes,
    encoding,
    headText: crOnly ? head.replaceAll('\r', '\n') : head,
    text: () => {
      if (consumed) throw new Error('input text read twice');
      consumed = true;
      return mendText(decode(rest, encoding), mended);
    },
    mended,
    close: () => {
      reader?.close();
    },
  };
}

/**
 * A file's bytes in chunks, each read while the one before is being parsed. Once `reuseBuffers` is
 * called, the chunks are read into two buffers in turn: a reader decodes a chunk before it asks for the
 * next, and a new buffer per chunk would leave glibc's heap as big as the most chunks the garbage
 * collector ever let live at once (80 MB of a 150 MB dump).
 */
class ChunkReader {
  // A plain descriptor, not a FileHandle: a reader that only wanted the head may never close it, and
  // a FileHandle collected open prints a warning on the user's terminal.
  private fd: number | undefined;
  private closed = false;
  private pair: [Buffer, Buffer] | undefined;
  /** The read under way: the descriptor is closed only after it, so no read lands on a reused descriptor. */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string) {}

  reuseBuffers(): void {
    this.pair ??= [Buffer.allocUnsafeSlow(READ_AT_ONCE), Buffer.allocUnsafeSlow(READ_AT_ONCE)];
  }

  async *chunks(): AsyncGenerator<Buffer> {
    try {
      const fd = await openFile(this.file);
      if (this.closed) return void closeFile(fd);
      this.fd = fd;
      let turn = 0;
      const readInto = (): Promise<Buffer> => {
        const buffer = this.pair?.[turn++ & 1] ?? Buffer.allocUnsafeSlow(READ_AT_ONCE);
        const read = readChunk(fd, buffer);
        // Handled here too: a reader that lets go without reading on leaves this read unawaited.
        this.inFlight = read.catch(() => undefined);
        return read;
      };
      let next = readInto();
      for (;;) {
        const chunk = await next;
        if (chunk.length === 0 || this.closed) return;
        // The other buffer is free: the chunk before this one was handed out and read.
        next = readInto();
        for (let at = 0; at < chunk.length; at += READ_CHUNK) yield chunk.subarray(at, at + READ_CHUNK);
      }
    } finally {
      this.close();
    }
  }

  close(): void {
    this.closed = true;
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) void this.inFlight.then(() => closeFile(fd));
  }
}

function openFile(path: string): Promise<number> {
  return new Promise((resolve, reject) => fsOpen(path, 'r', (e, fd) => (e === null ? resolve(fd) : reject(e))));
}

function readChunk(fd: number, buffer: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    fsRead(fd, buffer, 0, buffer.length, null, (e, bytesRead) => (e === null ? resolve(buffer.subarray(0, bytesRead)) : reject(e))),
  );
}

function closeFile(fd: number): void {
  fsClose(fd, () => undefined);
}

async function* countBytes(source: AsyncIterable<Buffer | string>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    onBytes(b.length);
    yield b;
  }
}

/**
 * The inflated stream, stopped (with a TruncatedInputError, so the text before it is kept) at
 * `maxBytes`, or, when no limit was given, at the default limit or where it inflates like a bomb.
 */
async function* gunzipped(compressed: AsyncIterable<Buffer>, path: string, maxBytes: number | undefined): AsyncGenerator<Buffer> {
  const gunzip = createGunzip({ chunkSize: READ_CHUNK });
  const input = Readable.from(inPieces(compressed, BOMB_MEASURE_CHUNK));
  input.on('error', (e) => gunzip.destroy(e));
  const limit = maxBytes ?? DEFAULT_MAX_GUNZIP_BYTES;
  let inflated = 0;
  try {
    for await (const chunk of input.pipe(gunzip) as AsyncIterable<Buffer>) {
      if (inflated + chunk.length > limit) {
        yield chunk.subarray(0, limit - inflated);
        gunzip.destroy();
        throw new TruncatedInputError(`${path}: stopped at ${formatBytes(limit)} decompressed (the --max-gunzip-size limit); the text before it was used`);
      }
      inflated += chunk.length;
      // bytesWritten: the compressed bytes handed to the inflater, at most a piece ahead of those it has inflated.
      const bomb = maxBytes === undefined ? inflationBomb(gunzip.bytesWritten, inflated) : undefined;
      if (bomb !== undefined) {
        gunzip.destroy();
        throw new TruncatedInputError(`${path}: ${bomb}; the text before it was used`);
      }
      yield chunk;
    }
  } catch (e) {
    if (e instanceof TruncatedInputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR') {
      // A truncated or damaged gzip stream: keep what was decompressed, say so.
      throw new TruncatedInputError(`${path}: gzip data ends early or is damaged (${code}); the text read so far was used`);
    }
    throw e;
  }
}

/**
 * Compressed data goes to the inflater in pieces this big, so that how much of it has been inflated
 * is known to within a piece: a bomb's megabyte inflates to a gigabyte.
 */
const BOMB_MEASURE_CHUNK = 16 * 1024;

async function* inPieces(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    for (let at = 0; at < chunk.length; at += size) yield chunk.subarray(at, at + size);
  }
}

/** The input ends early (a cut or damaged gzip stream). Readers catch it and keep what came before, with a warning. */
export class TruncatedInputError extends InputError {
  constructor(message: string) {
    super(message, 'the file was probably cut while being written or copied; take or copy it again for the rest');
  }
}

/**
 * Reads at least `n` bytes (or to the end) and hands back those plus the whole stream from byte 0.
 * A read error is deferred until `rest` reaches it, so a damaged file still shows its head.
 */
async function peek(source: AsyncIterable<Buffer>, n: number): Promise<{ head: Buffer; rest: AsyncIterable<Buffer> }> {
  const it = source[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let have = 0;
  let done = false;
  let pendingError: unknown;
  while (have < n) {
    try {
      const r = await it.next();
      if (r.done) {
        done = true;
        break;
      }
      // Copied: the source may read its next chunk into the same buffer.
      taken.push(Buffer.from(r.value));
      have += r.value.length;
    } catch (e) {
      pendingError = e;
      done = true;
      break;
    }
  }
  const head = Buffer.concat(taken);
  async function* rest(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (pendingError !== undefined) throw pendingError;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { head, rest: rest() };
}

/** UTF-16 without a BOM shows up as zero bytes in every other position of ASCII text. */
function detectEncoding(head: Buffer): TextEncodingName {
  if (head.length >= 2) {
    if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
    if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  }
  const n = Math.min(head.length, 4096) & ~1;
  if (n >= 8) {
    let evenZeros = 0;
    let oddZeros = 0;
    for (let i = 0; i < n; i += 2) {
      if (head[i] === 0) evenZeros++;
      if (head[i + 1] === 0) oddZeros++;
    }
    const pairs = n / 2;
    if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
    if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  }
  return 'utf-8';
}

/** Decodes a complete buffer (the head), dropping a trailing half character. */
function decodeWhole(bytes: Buffer, encoding: TextEncodingName): string {
  if (encoding === 'utf-16be') return new TextDecoder('utf-16le').decode(swapPairs(bytes.subarray(0, bytes.length & ~1)));
  return new TextDecoder(encoding).decode(bytes);
}

/** TextDecoder's utf-16be needs full ICU; swapping byte pairs keeps this independent of the Node build. */
function swapPairs(even: Buffer): Buffer {
  return Buffer.from(even).swap16();
}

async function* decode(chunks: AsyncIterable<Buffer>, encoding: TextEncodingName): AsyncGenerator<string> {
  if (encoding === 'utf-16be') {
    const dec = new TextDecoder('utf-16le', { ignoreBOM: false });
    let carry: Buffer | null = null;
    for await (const chunk of chunks) {
      const b: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      const even = b.length & ~1;
      carry = even < b.length ? b.subarray(even) : null;
      yield dec.decode(swapPairs(b.subarray(0, even)), { stream: true });
    }
    yield dec.decode();
    return;
  }
  const dec = new TextDecoder(encoding, { ignoreBOM: false });
  // Most dumps are ASCII: latin1 decoding of an ASCII chunk is exact and several times faster.
  // Once a chunk is not ASCII the decoder takes over for good, since it may hold a partial sequence.
  let asciiSoFar = encoding === 'utf-8';
  for await (const chunk of chunks) {
    if (asciiSoFar && isAscii(chunk)) {
      yield chunk.toString('latin1');
      continue;
    }
    asciiSoFar = false;
    yield dec.decode(chunk, { stream: true });
  }
  const tail = dec.decode();
  if (tail.length > 0) yield tail;
}

/** Splits decoded text chunks into lines (without the `\n`; a trailing `\r` is left for the parser). */
/** Calls onLine for each line of the text; returns how many lines were cut at MAX_LINE_CHARS (see LineCarry). */
export async function forEachLine(chunks: AsyncIterable<string>, onLine: (line: string) => void): Promise<number> {
  const carry = new LineCarry();
  for await (const text of chunks) {
    let start = 0;
    if (!carry.isEmpty) {
      const nl = text.indexOf('\n');
      if (nl < 0) {
        carry.add(text);
        continue;
      }
      onLine(carry.close(text.slice(0, nl)));
      start = nl + 1;
    }
    let nl = text.indexOf('\n', start);
    while (nl >= 0) {
      onLine(text.slice(start, nl));
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (start < text.length) carry.add(text.slice(start));
  }
  if (!carry.isEmpty) onLine(carry.close());
  return carry.cut;
}

/** What mendText changed in a text: NUL characters dropped. */
export interface TextMends {
  nulsDropped: number;
}

/**
 * The text as lines a parser can read, whatever mix of line ends and damage it has: a CR alone (an
 * old Mac line end, or one line of a file pasted or transferred into another) ends a line as LF and
 * CR LF do (a CR LF is left whole: the parsers drop the CR), so no line with a thread header is
 * glued to the one before it; NUL characters, which no dump writes (a file damaged or written over,
 * a log rotated under its writer), are dropped and counted in `mends`, so a header they fall in is
 * still read. A CR at the end of a chunk waits for the next, which may start with its LF.
 */
export async function* mendText(text: AsyncIterable<string>, mends: TextMends): AsyncGenerator<string> {
  let heldCr = false;
  for await (const piece of text) {
    let chunk = heldCr ? `\r${piece}` : piece;
    heldCr = false;
    if (chunk.includes('\0')) {
      const before = chunk.length;
      chunk = chunk.replaceAll('\0', '');
      mends.nulsDropped += before - chunk.length;
    }
    if (chunk.includes('\r')) {
      if (chunk.endsWith('\r')) {
        heldCr = true;
        chunk = chunk.slice(0, -1);
      }
      chunk = chunk.replace(LONE_CR, '\n');
    }
    if (chunk.length > 0) yield chunk;
  }
  if (heldCr) yield '\n';
}

const LONE_CR = /\r(?!\n)/g;

/** The warning for NUL characters dropped from a text input (see mendText). */
export function nulsDroppedWarning(nuls: number): string {
  return (
    `${nuls} NUL character${nuls === 1 ? ' was' : 's were'} dropped from the text (no dump writes one: ` +
    'the file may be damaged or written over); the lines they were in were read without them'
  );
}
