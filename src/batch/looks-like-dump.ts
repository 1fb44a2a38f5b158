/**
 * A quick look at a file's first 64 KiB: is it a thread dump or a heap dump? For sorting the
 * files of a folder (batch's folder of incidents) before anything is analysed; the full read may
 * still refuse it.
 */
import { InputError } from '../errors.js';
import { openInput } from '../input/open.js';
import { sniff } from '../input/sniff.js';
import { TextDumpParser } from '../threads/text-parser.js';

export async function looksLikeDump(path: string): Promise<boolean> {
  let opened;
  try {
    opened = await openInput(path);
  } catch (e) {
    if (e instanceof InputError) return false;
    throw e;
  }
  // Only the head is read: the file is let go at once (a folder of incidents may hold many such files).
  opened.close();
  const kind = sniff(opened.headBytes, opened.headText);
  switch (kind.kind) {
    case 'hprof':
    case 'javacore':
    case 'json-threads':
      return true;
    case 'json-other':
      // A dumpsleuth heap snapshot (extract's output) is JSON too.
      return /^\s*\{\s*"format"\s*:\s*"dumpsleuth\.heap\//.test(opened.headText);
    case 'text': {
      const parser = new TextDumpParser(path);
      parser.pushText(opened.headText);
      return parser.finish().dumps.length > 0;
    }
    default:
      return false;
  }
}
