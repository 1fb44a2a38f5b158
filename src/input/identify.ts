/**
 * What a file is, decided once from its first bytes (decompressed when it is gzip): its input format
 * (formats.ts), which every later step routes on, so no reader sniffs the same file again.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

import { InputError } from '../errors.js';
import { acceptedInputs, formatOfHead, type KnownInputFormat } from './formats.js';
import { openInput, type TextEncodingName } from './open.js';
import { type InputHead, inputHead } from './sniff.js';

export const ACCEPTED_HEAP_INPUTS = acceptedInputs('heap');

/** A file's format from its head, with what the head is made of and what it looks like to a user. */
export interface HeadFormat {
  /** Undefined for binary data that is no input format (a zip archive, an image, a PHD). */
  readonly format: KnownInputFormat | undefined;
  readonly form: InputHead['form'];
  /** What the file is, in a sentence's words (`a zip archive`, `text with no thread dump in it (first line: ...)`), for errors. */
  readonly looksLike: string;
}

/** The format of a head already read (a caller that opened the file itself: a test, a bench). */
export function formatOf(bytes: Buffer, text: string): HeadFormat {
  return formatOfPrepared(inputHead(bytes, text));
}

function formatOfPrepared(head: InputHead): HeadFormat {
  const format = formatOfHead(head);
  return { format, form: head.form, looksLike: format !== undefined ? format.describe(head) : (head.binary ?? 'binary data') };
}

export interface IdentifiedInput extends HeadFormat {
  /** The name the user gave (`-` for stdin). */
  readonly path: string;
  /** The file holding its bytes (stdin's copy for `-`). */
  readonly file: string;
  readonly gzip: boolean;
  readonly encoding: TextEncodingName;
  /** Size on disk, compressed when gzip. */
  readonly fileBytes: number;
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
  const head = inputHead(opened.headBytes, opened.headText);
  if (head.cutHprof === true) throw new InputError(`${path} is ${head.binary}: nothing of it can be read`, 'take or copy the heap dump again, whole');
  return { path, file, gzip: opened.gzip, encoding: opened.encoding, fileBytes: opened.fileBytes, ...formatOfPrepared(head) };
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

/** A heap dump's format, of a file a heap command was given; anything else is an error saying what it looked like. */
export function requireHeapFormat(input: IdentifiedInput): Extract<KnownInputFormat, { role: 'heap' }> {
  const format = input.format;
  if (format?.role === 'heap') return format;
  const what = input.form === 'binary' ? input.looksLike : input.form === 'text' ? 'a text file (a thread dump or a log?)' : 'JSON of another kind';
  throw new InputError(`${input.path} is not a heap dump: it looks like ${what}`, ACCEPTED_HEAP_INPUTS);
}
