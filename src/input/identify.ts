/**
 * What a file is, decided once from its first bytes (decompressed when it is gzip): the kind every
 * later step routes on, so no reader sniffs the same file again.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

import { InputError } from '../errors.js';
import type { HeapInputKind } from '../model/input-kind.js';
import { openInput, type TextEncodingName } from './open.js';
import { sniff, type SniffedKind } from './sniff.js';

export const ACCEPTED_HEAP_INPUTS =
  'accepted: HPROF heap dumps (jmap, -XX:+HeapDumpOnOutOfMemoryError, actuator /heapdump; ' +
  'plain or gzip), dumpsleuth heap snapshots (dumpsleuth extract), V8 .heapsnapshot files';

/** dumpsleuth's own JSON heap snapshot opens with its format id; other JSON is told apart by sniff. */
const HEAP_SNAPSHOT_HEAD = /^\s*\{\s*"format"\s*:\s*"dumpsleuth\.heap\/\d+"/;

export interface IdentifiedInput {
  /** The name the user gave (`-` for stdin). */
  readonly path: string;
  /** The file holding its bytes (stdin's copy for `-`). */
  readonly file: string;
  readonly gzip: boolean;
  readonly encoding: TextEncodingName;
  /** Size on disk, compressed when gzip. */
  readonly fileBytes: number;
  readonly sniffed: SniffedKind;
  /** Set when the file is a heap dump of a kind dumpsleuth reads. */
  readonly heapKind: HeapInputKind | undefined;
}

/** A file's kind from its head. Throws InputError when it cannot be read (missing, a directory). */
export async function identifyInput(
  path: string,
  file: string = path,
  options: { maxGunzipBytes?: number; directoryRemedy?: string } = {},
): Promise<IdentifiedInput> {
  await requireReadable(path, file);
  let opened;
  try {
    opened = await openInput(path, undefined, options.maxGunzipBytes, file);
  } catch (e) {
    if (e instanceof InputError && options.directoryRemedy !== undefined && e.message === `${path} is a directory`)
      throw new InputError(e.message, options.directoryRemedy);
    throw e;
  }
  // Only the head is wanted: the reader that takes the file opens it again from its start.
  opened.close();
  const sniffed = sniff(opened.headBytes, opened.headText);
  if (sniffed.kind === 'binary' && sniffed.cutHprof === true)
    throw new InputError(`${path} is ${sniffed.description}: nothing of it can be read`, 'take or copy the heap dump again, whole');
  return { path, file, gzip: opened.gzip, encoding: opened.encoding, fileBytes: opened.fileBytes, sniffed, heapKind: heapKindOf(sniffed, opened.headText) };
}

/**
 * A file that exists but cannot be read says so: the head reader keeps a read error for later (a
 * damaged file still shows its head), so an unreadable file would otherwise look like an empty text.
 */
async function requireReadable(path: string, file: string): Promise<void> {
  if (path === '-' && file === path) return;
  try {
    await access(file, constants.R_OK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EACCES')
      throw new InputError(`cannot read ${path}: permission denied`, "check the file's permissions, or copy it somewhere readable");
  }
}

function heapKindOf(sniffed: SniffedKind, headText: string): HeapInputKind | undefined {
  if (sniffed.kind === 'hprof') return 'hprof';
  if (sniffed.kind === 'v8-heapsnapshot') return 'v8-heapsnapshot';
  if (HEAP_SNAPSHOT_HEAD.test(headText)) return 'dumpsleuth-heap';
  return undefined;
}

/** The heap kind of a file a heap command was given; anything else is an error saying what it looked like. */
export function requireHeapKind(input: IdentifiedInput): HeapInputKind {
  if (input.heapKind !== undefined) return input.heapKind;
  const s = input.sniffed;
  const what =
    s.kind === 'binary' ? s.description : s.kind === 'text' || s.kind === 'javacore' ? 'a text file (a thread dump or a log?)' : 'JSON of another kind';
  throw new InputError(`${input.path} is not a heap dump: it looks like ${what}`, ACCEPTED_HEAP_INPUTS);
}
