/**
 * What a capture step wrote, checked before the step counts as taken: jcmd exits 0 when the JVM
 * could not write a heap dump (`Unable to create …: No such file or directory`, `Dump file is
 * incomplete: File too large`), and the file it names may be missing, empty, or cut. A step is taken
 * when its file exists, is not empty and starts the way its format does.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

/**
 * Lines a JDK tool prints on stdout while exiting 0, when the JVM failed the command (HotSpot's
 * heap dumper and jcmd's own messages; Thread.dump_to_file prints the exception it caught).
 */
const TOOL_FAILURE =
  /^.*(?:Unable to create|Dump failed|Dump file is incomplete|Exception|Error:|No such file|Permission denied|not enough space|No space left).*$/m;

/**
 * The line of a tool's output that says the JVM failed the command, or undefined. `file`: the path
 * the tool was given, which its output echoes (`Dumping heap to …`): a folder named `Exceptions` or
 * `Error:` says nothing about the command.
 */
export function toolSaysFailed(output: string, file?: string): string | undefined {
  const line = TOOL_FAILURE.exec(file === undefined || file === '' ? output : output.split(file).join('<file>'))?.[0];
  return line === undefined ? undefined : (file === undefined ? line : line.split('<file>').join(file)).trim().slice(0, 300);
}

const HPROF_MAGIC = 'JAVA PROFILE 1.0.';
/** `JAVA PROFILE 1.0.2`, its NUL, the id size (4 bytes) and the time (8 bytes). */
const HPROF_HEADER_BYTES = 19 + 4 + 8;
const HEAD_BYTES = 64 * 1024;

function readHead(path: string, bytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The first bytes a gzip stream inflates to (what a cut stream gave before it ended). */
function inflatedStart(head: Buffer, want: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let got = 0;
    const z = createGunzip();
    const done = () => resolve(Buffer.concat(parts).subarray(0, want));
    z.on('data', (d: Buffer) => {
      parts.push(d);
      got += d.length;
      if (got >= want) {
        z.removeAllListeners('data');
        z.destroy();
        done();
      }
    });
    // The head is a piece of a longer stream: it ends early, which is no failure here.
    z.on('error', done);
    z.on('end', done);
    z.end(head);
  });
}

/** Why the file at `path` is not a written file of its kind: missing or empty; undefined when it has bytes. */
function sizeProblem(path: string): string | undefined {
  try {
    const s = statSync(path);
    if (!s.isFile()) return `${path} is not a file`;
    if (s.size === 0) return `${path} is empty`;
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${path} was not written` : `${path} cannot be read (${code ?? (e as Error).message})`;
  }
}

/** Why `path` is not an HPROF heap dump (plain, or gzip whose inflated start is one), or undefined when it is. */
export async function heapFileProblem(path: string): Promise<string | undefined> {
  const missing = sizeProblem(path);
  if (missing !== undefined) return missing;
  const head = readHead(path, HEAD_BYTES);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const start = gzip ? await inflatedStart(head, HPROF_HEADER_BYTES) : head.subarray(0, HPROF_HEADER_BYTES);
  if (!start.subarray(0, HPROF_MAGIC.length).equals(Buffer.from(HPROF_MAGIC, 'latin1')))
    return `${path} does not start with an HPROF header${gzip ? ' once inflated' : ''} (a cut or damaged heap dump)`;
  // The whole header, as the reader needs it: the version's NUL, an id size of 4 or 8, the time.
  const idSize = start.length >= HPROF_HEADER_BYTES && start[HPROF_MAGIC.length + 1] === 0 ? start.readUInt32BE(HPROF_MAGIC.length + 2) : 0;
  if (idSize === 4 || idSize === 8) return undefined;
  return `${path} ends within its HPROF header, or the header is damaged${gzip ? ' once inflated' : ''} (a cut heap dump: nothing of it can be read)`;
}

/** Why `path` is not a jcmd JSON thread dump (`{"threadDump": …`), or undefined when it is. */
export function jsonThreadDumpProblem(path: string): string | undefined {
  const missing = sizeProblem(path);
  if (missing !== undefined) return missing;
  const head = readHead(path, 4096).toString('utf8');
  return /^\s*\{\s*"threadDump"\s*:/.test(head) ? undefined : `${path} is not a JSON thread dump (it does not open with "threadDump")`;
}

/** Why a Thread.print / jstack output is not a thread dump (no `Full thread dump` banner at its start), or undefined. */
export function threadDumpTextProblem(text: string): string | undefined {
  if (text.trim() === '') return 'the tool printed nothing';
  const head = text.slice(0, 4096);
  if (/^Full thread dump /m.test(head)) return undefined;
  const first = head.split('\n').find((l) => l.trim() !== '') ?? '';
  return `the tool's output is not a thread dump (no "Full thread dump" banner; first line: "${first.trim().slice(0, 120)}")`;
}
