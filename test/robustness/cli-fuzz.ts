/**
 * Seeded end-to-end fuzzing of the built CLI, as a new user meets it: ten classes of hostile input
 * (HPROF structure, gzip, thread-dump text, text built to make a regular expression backtrack, JSON
 * inputs, files and directories, output targets, unsafe strings, batch, and evidence nothing may lose
 * in silence: a heap on stdin, NUL bytes and mixed line ends, a heap cut anywhere, a damaged heap), each case made from real
 * JVM output (the fixtures) by a generator driven by one seed. Every case is run as a process of its
 * own with a private TMPDIR and judged by the same oracle: it ends in time, with an exit code of the
 * CLI contract (never 70, never a signal it was not sent), no stack trace, an error said in one line,
 * no terminal control sequence in its output, no file left behind; and by the checks of its class.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { BUILT_CLI, scratchDir } from '../helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const fixture = (p: string) => join(ROOT, 'fixtures', p);

/** A small, fast, seedable generator (mulberry32): the same seed gives the same cases on every machine. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** What a case runs: the CLI's arguments (paths inside `dir`), with stdin, in `dir`. */
export interface CliCase {
  readonly name: string;
  readonly args: readonly string[];
  readonly stdin?: Buffer;
  /** Exit codes allowed beyond the contract's 0, 1 and 2 (none so far). */
  readonly timeoutMs?: number;
  /** Checks of the case's own, after the common oracle: a message when something is wrong. */
  readonly check?: (run: CliRun, dir: string) => string | undefined;
}

export interface CliRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

type Generator = (r: Random, dir: string) => CliCase;

const text = (p: string) => readFileSync(fixture(p), 'utf8');
const JSTACK = () => text('threads/deadlock/dump-1.txt');
const HEAP = () => gunzipSync(readFileSync(fixture('heap/jdk17/heap.hprof.gz')));

const put = (dir: string, name: string, data: string | Buffer) => {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), data);
  return name;
};

/** The offsets of the top-level records of an HPROF (after its header), to damage records where they start. */
function recordStarts(hprof: Buffer): number[] {
  const starts: number[] = [];
  let p = hprof.indexOf(0) + 13;
  while (p + 9 <= hprof.length && starts.length < 100_000) {
    starts.push(p);
    p += 9 + hprof.readUInt32BE(p + 5);
  }
  return starts;
}

const hprofCases: Generator = (r, dir) => {
  const heap = HEAP();
  const starts = recordStarts(heap);
  const at = r.pick(starts);
  const damaged = Buffer.from(heap);
  const kind = r.pick(['cut', 'tag', 'length', 'second-dump', 'huge-name', 'flip-segment'] as const);
  let bytes: Buffer = damaged;
  if (kind === 'cut') bytes = heap.subarray(0, r.int(heap.length));
  else if (kind === 'tag') damaged[at] = r.int(256);
  else if (kind === 'length') damaged.writeUInt32BE(r.pick([0, 1, 0x7fffffff, 0xffffffff, r.int(1 << 24)]), at + 5);
  else if (kind === 'second-dump') {
    const segment = starts.find((s) => heap[s] === 0x1c)!;
    bytes = Buffer.concat([heap, heap.subarray(segment)]);
  } else if (kind === 'huge-name') {
    const name = starts.find((s) => heap[s] === 0x01)!;
    damaged.writeUInt32BE(0x10000 + r.int(1 << 20), name + 5);
  } else {
    const segment = starts.find((s) => heap[s] === 0x1c)!;
    for (let i = 0; i < 16; i++) damaged[segment + 9 + r.int(heap.readUInt32BE(segment + 5))] = r.int(256);
  }
  const command = r.pick(['histogram', 'memory', 'analyze']);
  return {
    name: `hprof ${kind} at ${at}, ${command}`,
    args: [command, ...(command === 'analyze' ? ['--fail-on', 'never'] : []), put(dir, 'heap.hprof', bytes)],
  };
};

const gzipCases: Generator = (r, dir) => {
  const dump = Buffer.from(JSTACK());
  const level = 1 + r.int(9);
  const kind = r.pick(['cut', 'flip', 'members', 'bomb-after-dump', 'bomb-alone', 'twice'] as const);
  let bytes = gzipSync(dump, { level });
  if (kind === 'cut') bytes = bytes.subarray(0, 10 + r.int(bytes.length - 10));
  else if (kind === 'flip') {
    bytes = Buffer.from(bytes);
    for (let i = 0; i < 4; i++) bytes[10 + r.int(bytes.length - 10)] = r.int(256);
  } else if (kind === 'members') bytes = Buffer.concat([bytes, gzipSync(dump, { level })]);
  else if (kind === 'bomb-after-dump') bytes = gzipSync(Buffer.concat([dump, Buffer.alloc((40 + r.int(40)) << 20, r.pick([0, 10, 32]))]), { level });
  else if (kind === 'bomb-alone') bytes = gzipSync(Buffer.alloc((40 + r.int(40)) << 20, r.pick([0, 10])), { level });
  else bytes = gzipSync(bytes);
  return {
    name: `gzip ${kind}, level ${level}`,
    // Tens of megabytes of padding need not inflate far enough to be called a bomb (gzip-bombs.test.ts
    // has the ratios): what every case must do is end in time, said clearly.
    args: ['analyze', '--fail-on', 'never', put(dir, 'dump.txt.gz', bytes)],
  };
};

const textCases: Generator = (r, dir) => {
  const lines = JSTACK().split('\n');
  const kind = r.pick(['delete', 'duplicate', 'shuffle-block', 'cut-mid-line', 'cr', 'utf16', 'bytes', 'prefix'] as const);
  let out = lines;
  const i = r.int(lines.length);
  if (kind === 'delete') out = lines.filter((_, k) => k < i || k > i + r.int(40));
  else if (kind === 'duplicate') out = [...lines.slice(0, i), ...lines.slice(i, i + r.int(60)), ...lines.slice(i)];
  else if (kind === 'shuffle-block') {
    const j = r.int(lines.length);
    out = [...lines.slice(0, Math.min(i, j)), ...lines.slice(Math.max(i, j)), ...lines.slice(Math.min(i, j), Math.max(i, j))];
  } else if (kind === 'cut-mid-line') out = [...lines.slice(0, i), (lines[i] ?? '').slice(0, r.int(40))];
  else if (kind === 'prefix') out = lines.map((l) => `2026-12-03T10:00:00.${String(r.int(1000)).padStart(3, '0')}Z stdout F ${l}`);
  let bytes = Buffer.from(out.join(kind === 'cr' ? '\r' : '\n'));
  if (kind === 'utf16') bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(out.join('\n'), 'utf16le')]);
  if (kind === 'bytes') {
    bytes = Buffer.from(bytes);
    for (let k = 0; k < 64; k++) bytes[r.int(bytes.length)] = r.int(256);
  }
  return { name: `text ${kind} at line ${i}`, args: ['analyze', '--fail-on', 'never', '-f', r.pick(['text', 'json']), put(dir, 'dump.txt', bytes)] };
};

/** Line contexts where a parser meets untrusted text, and the runs that once made expressions backtrack. */
const CONTEXTS = [
  '"x" ',
  '"worker-1" #12 daemon prio=5 ',
  '\tat ',
  '\t- waiting on <',
  '\t- locked <0x',
  '   java.lang.Thread.State: ',
  'Full thread dump ',
  '3XMTHREADINFO      "',
  '"Main Thread" id=1 idx=0x4 tid=',
  '2026-12-03 10:00:00,123 ERROR ',
  'cpu=',
];
const RUNS = ['"', '0x', '(', '<', '[', ' ', '\t', 'a', '-', ':', '=', '9', '@', '.', '/', '\\', 'ms', '$', ',', '" "'];

const regexCases: Generator = (r, dir) => {
  const context = r.pick(CONTEXTS);
  const run = r.pick(RUNS);
  const length = (16 + r.int(240)) * 1024;
  const line = context + run.repeat(Math.ceil(length / run.length)) + r.pick(['', '!', '"', ')', ']', '>']);
  const dump = JSTACK();
  const at = dump.indexOf('\n"', 200) + 1;
  const lines = Array.from({ length: 1 + r.int(4) }, () => line).join('\n');
  return {
    name: `regex run of ${JSON.stringify(run)} (${length >> 10} KiB) after ${JSON.stringify(context)}`,
    args: ['analyze', '--fail-on', 'never', put(dir, 'dump.txt', `${dump.slice(0, at)}${lines}\n${dump.slice(at)}`)],
    // A linear pass over under a megabyte: far under this, however loaded the machine.
    timeoutMs: 30_000,
  };
};

const jsonCases: Generator = (r, dir) => {
  const json = text(r.pick(['threads/deadlock/jdk25-threads.json', 'threads/pool/jdk25-threads.json']));
  const kind = r.pick(['cut', 'deep', 'repeat-key', 'wrong-types', 'escapes', 'flip'] as const);
  let out: string;
  if (kind === 'cut') out = json.slice(0, r.int(json.length));
  else if (kind === 'deep')
    out = json.replace('"threadDump"', `"deep": ${'['.repeat(2000 + r.int(5000))}${']'.repeat(r.int(2) === 0 ? 0 : 7000)}, "threadDump"`);
  else if (kind === 'repeat-key') {
    const body = json.slice(json.indexOf('"threadDump"'), json.lastIndexOf('}'));
    out = `${json.slice(0, json.lastIndexOf('}'))}, ${body}}`;
  } else if (kind === 'wrong-types')
    out = json.replace(
      /"(name|tid|state|threads)"\s*:\s*("[^"]*"|\[)/,
      `"$1": ${r.pick(['123', 'null', '{}', 'true', '"x"'])}${r.int(2) === 0 ? '' : ', "_": ['}`,
    );
  else if (kind === 'escapes') out = json.replace(/"name"\s*:\s*"[^"]*"/, `"name": "${r.pick(['\\ud800', '\\u001b[2J', '\\u202e', '\\\\\\"', '\\u0000'])}x"`);
  else {
    const b = Buffer.from(json);
    for (let k = 0; k < 8; k++) b[r.int(b.length)] = r.int(256);
    out = b.toString('latin1');
  }
  return { name: `json ${kind}`, args: ['analyze', '--fail-on', 'never', '-f', 'json', put(dir, 'threads.json', out)] };
};

const fileCases: Generator = (r, dir) => {
  const kind = r.pick(['link-loop', 'link-to-root', 'dangling', 'empty-dir', 'many-files', 'same-twice', 'device', 'heap-dir'] as const);
  put(dir, 'incident/dump-1.txt', JSTACK());
  const incident = join(dir, 'incident');
  if (kind === 'link-loop') symlinkSync('..', join(incident, 'loop'));
  if (kind === 'link-to-root') symlinkSync('/', join(incident, 'root'));
  if (kind === 'dangling') symlinkSync(join(dir, 'nowhere'), join(incident, 'gone.txt'));
  if (kind === 'many-files') for (let k = 0; k < 300 + r.int(500); k++) put(dir, `incident/notes-${k}.txt`, `note ${k}\n`);
  const args: Record<typeof kind, string[]> = {
    'link-loop': ['analyze', '--fail-on', 'never', 'incident'],
    'link-to-root': ['analyze', '--fail-on', 'never', 'incident'],
    dangling: ['analyze', '--fail-on', 'never', 'incident'],
    'empty-dir': (mkdirSync(join(dir, 'empty')), ['analyze', 'empty']),
    'many-files': ['analyze', '--fail-on', 'never', 'incident'],
    'same-twice': ['analyze', '--fail-on', 'never', 'incident/dump-1.txt', './incident/dump-1.txt', 'incident'],
    device: [r.pick(['analyze', 'histogram', 'memory']), r.pick(['/dev/zero', '/dev/urandom', '/dev/null'])],
    'heap-dir': [r.pick(['histogram', 'memory', 'extract']), 'incident'],
  };
  return {
    name: `files ${kind}`,
    args: args[kind],
    // A folder of hundreds of other files is counted, not listed.
    check: (run) => (run.stderr.split('\n').length > 40 ? `${run.stderr.split('\n').length} lines on stderr` : undefined),
  };
};

const outputCases: Generator = (r, dir) => {
  const kind = r.pick(['symlink', 'hardlink', 'device', 'full', 'directory', 'missing-folder', 'replace'] as const);
  const report = join(dir, 'report.md');
  if (kind === 'symlink' || kind === 'hardlink' || kind === 'replace') put(dir, 'old.md', 'old report\n');
  if (kind === 'symlink') symlinkSync(join(dir, 'old.md'), report);
  if (kind === 'hardlink') linkSync(join(dir, 'old.md'), report);
  if (kind === 'directory') mkdirSync(report);
  const target = {
    symlink: report,
    hardlink: report,
    device: '/dev/null',
    full: '/dev/full',
    directory: report,
    'missing-folder': join(dir, 'no/such/report.md'),
    replace: join(dir, 'old.md'),
  }[kind];
  const command = r.pick([
    ['analyze', '--fail-on', 'never', '-f', 'markdown', put(dir, 'dump.txt', JSTACK())],
    ['extract', fixture('heap/jdk17/heap.hprof.gz')],
    ['memory', fixture('heap/jdk17/heap.hprof.gz')],
  ]);
  return {
    name: `output ${kind}, ${command[0]}`,
    args: [...command, '-o', target],
    check: (run) => {
      if (kind === 'device' && !statSync('/dev/null').isCharacterDevice()) return '/dev/null is no longer a device';
      if (kind === 'symlink' && !lstatSync(report).isSymbolicLink()) return 'the symbolic link was replaced by a file';
      if (kind === 'hardlink' && run.status === 0 && readFileSync(join(dir, 'old.md'), 'utf8') === 'old report\n')
        return "the hard link's other name kept the old report";
      if (kind === 'full' && run.status !== 2) return `a full disk ended with ${run.status}`;
      const parts = readdirSync(dir).filter((f) => f.endsWith('.part'));
      return parts.length > 0 ? `left behind: ${parts.join(', ')}` : undefined;
    },
  };
};

/** Names a dump may hold that must not reach a terminal or a report as markup. */
const HOSTILE = [
  '\u001b[2J\u001b[31mred',
  '\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
  '\u202eevil',
  '<script>alert(1)</script>',
  '](javascript:alert(1))',
  '| a | b |',
  '`code`',
  'http://evil.example/x',
  '\u0007bell',
  '\r\nforged: line',
  '@octocat',
];

const unsafeCases: Generator = (r, dir) => {
  const hostile = r.pick(HOSTILE);
  const dump = JSTACK().replace(
    /"ring-1"/g,
    JSON.stringify(`ring-1 ${hostile}`)
      .replace(/\\u001b/g, '\u001b')
      .replace(/\\u0007/g, '\u0007')
      .replace(/\\r\\n/g, ' '),
  );
  const format = r.pick(REPORT_FORMATS);
  return {
    name: `unsafe ${JSON.stringify(hostile)} in ${format}`,
    args: ['analyze', '--fail-on', 'never', '-f', format, put(dir, 'dump.txt', dump)],
    check: (run) => {
      // Markdown's code blocks and spans show their text as it is: GitHub links nothing there.
      const prose = format === 'markdown' ? run.stdout.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/(`+)[^`]*?\1/g, '') : run.stdout;
      if (/\u202e/.test(run.stdout) && format !== 'json') return 'a bidirectional override reached the output';
      if (format === 'html' && /<script>alert/.test(run.stdout)) return 'a script tag from the dump is live in the HTML';
      if (format === 'markdown' && /(?<!\\)\]\(javascript:/.test(prose)) return 'a javascript: link from the dump is live in the Markdown';
      if (format === 'markdown' && /https?:\/\/evil/.test(prose)) return 'a URL from the dump would be autolinked in the Markdown';
      if (format === 'markdown' && /(^|[\s(,;:"'])@octocat/m.test(prose)) return 'an @mention from the dump would notify that user in the Markdown';
      return undefined;
    },
  };
};

/** How many objects and threads the CLI reads from a file, for a case to compare a changed input with. */
function readBack(args: readonly string[], dir: string): { objects?: number; threads: number; warnings: string[]; complete?: boolean } | undefined {
  const r = spawnSync(process.execPath, [BUILT_CLI, 'analyze', '--fail-on', 'never', '-f', 'json', ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', CI: 'true' },
  });
  if (r.status !== 0) return undefined;
  const report = JSON.parse(r.stdout) as { complete?: boolean; inputs: Array<{ threads: number; warnings: string[]; heap?: { objects: number } }> };
  const input = report.inputs[0]!;
  return {
    threads: report.inputs.reduce((n, i) => n + i.threads, 0),
    warnings: input.warnings,
    ...(input.heap !== undefined ? { objects: input.heap.objects } : {}),
    ...(report.complete !== undefined ? { complete: report.complete } : {}),
  };
}

/**
 * Nothing lost or merged in silence: the same evidence by another road (a heap on stdin, a dump with
 * NUL bytes or mixed line ends) reads to the same objects and threads, or says what it lost; a heap
 * cut anywhere is refused or said to be incomplete; a damaged heap's repeated ids and undescribed
 * classes are said by analyze.
 */
const evidenceCases: Generator = (r, dir) => {
  const kind = r.pick(['stdin-heap', 'nul-lines', 'mixed-ends', 'cut-heap', 'duplicate-id'] as const);
  if (kind === 'stdin-heap') {
    const heap = r.pick([
      'heap/jdk17/heap.hprof.gz',
      'heap/jdk17/heap-jmapgz.hprof.gz',
      'heap/jdk25/heap.hprof.gz',
      'heap/sparse/heap.hprof.gz',
      'incidents/hikari-starvation/heap.hprof.gz',
      'incidents/session-cache-leak/heap.hprof.gz',
    ]);
    const bytes = r.int(2) === 0 ? readFileSync(fixture(heap)) : gunzipSync(readFileSync(fixture(heap)));
    const file = put(dir, 'heap.hprof', bytes);
    return {
      name: `evidence: ${heap} on stdin`,
      args: ['analyze', '--fail-on', 'never', '-f', 'json', '-'],
      stdin: bytes,
      check: (run) => {
        const fromFile = readBack([file], dir)?.objects;
        const fromStdin = (JSON.parse(run.stdout) as { inputs: Array<{ heap?: { objects: number } }> }).inputs[0]?.heap?.objects;
        return fromFile === fromStdin ? undefined : `${fromStdin} objects from stdin, ${fromFile} from the file`;
      },
    };
  }
  if (kind === 'nul-lines' || kind === 'mixed-ends') {
    const lines = JSTACK().split('\n');
    const every = 1 + r.int(150);
    const changed =
      kind === 'nul-lines'
        ? lines.map((l, i) => (i % every === every - 1 ? r.pick([`${l}\u0000`, `\u0000${l}`, `${l}\n\u0000`]) : l)).join('\n')
        : lines.map((l) => l + r.pick(['\n', '\r', '\r\n', '\n'])).join('');
    const original = put(dir, 'original.txt', JSTACK());
    const file = put(dir, 'dump.txt', changed);
    return {
      name: `evidence: ${kind}${kind === 'nul-lines' ? ` every ${every} lines` : ''}`,
      args: ['analyze', '--fail-on', 'never', '-f', 'json', file],
      check: (run) => {
        const expected = readBack([original], dir)!.threads;
        const report = JSON.parse(run.stdout) as { inputs: Array<{ threads: number; warnings: string[] }> };
        const got = report.inputs[0]!.threads;
        return got === expected || report.inputs[0]!.warnings.length > 0 ? undefined : `${got} threads of ${expected}, and no warning`;
      },
    };
  }
  if (kind === 'cut-heap') {
    const heap = HEAP();
    const at = 31 + r.int(heap.length - 31);
    const file = put(dir, 'heap.hprof', heap.subarray(0, at));
    return {
      name: `evidence: heap cut at ${at}`,
      args: ['analyze', '--fail-on', 'never', '-f', 'json', file],
      check: (run) => {
        if (run.status === 2) return /nothing of the heap dump could be read/.test(run.stderr) ? undefined : `refused, but not as a cut heap: ${run.stderr}`;
        return (JSON.parse(run.stdout) as { complete: boolean }).complete ? 'a cut heap reported as complete' : undefined;
      },
    };
  }
  // A class object's id written again, as an instance of a class the dump never describes (0x777), in
  // a segment of its own before the dump's end: an id written twice, and an undescribed class.
  const heap = HEAP();
  const starts = recordStarts(heap);
  const loadClass = r.pick(starts.filter((s) => heap[s] === 0x02));
  const end = starts.find((s) => heap[s] === 0x2c)!;
  const stray = Buffer.concat([
    Buffer.from([0x21]),
    heap.subarray(loadClass + 13, loadClass + 21),
    Buffer.alloc(4),
    Buffer.from([0, 0, 0, 0, 0, 0, 7, 0x77]),
    Buffer.alloc(4),
  ]);
  const header = Buffer.alloc(9);
  header[0] = 0x1c;
  header.writeUInt32BE(stray.length, 5);
  const bytes = Buffer.concat([heap.subarray(0, end), header, stray, heap.subarray(end)]);
  return {
    name: `evidence: the class object of the record at ${loadClass} written again`,
    args: ['analyze', '--fail-on', 'never', '-f', 'json', put(dir, 'heap.hprof', bytes)],
    // What is checked: analyze says what memory says of the same file.
    check: (run, d) => {
      const memory = spawnSync(process.execPath, [BUILT_CLI, 'memory', '-f', 'json', 'heap.hprof'], { cwd: d, encoding: 'utf8', maxBuffer: 64 << 20 });
      const said = (JSON.parse(run.stdout) as { inputs: Array<{ warnings: string[] }> }).inputs[0]!.warnings;
      const memoryWarnings = memory.status === 0 ? (JSON.parse(memory.stdout) as { warnings: string[] }).warnings : [];
      const unsaid = memoryWarnings.filter((w) => !said.includes(w));
      if (!said.some((w) => /repeat the id/.test(w))) return 'an id written twice, and analyze said nothing of it';
      return unsaid.length === 0 ? undefined : `memory says what analyze does not: ${unsaid[0]}`;
    },
  };
};

const batchCases: Generator = (r, dir) => {
  const count = 2 + r.int(4);
  const names: string[] = [];
  for (let k = 0; k < count; k++) {
    const kind = r.pick(['good', 'notes', 'empty', 'cut-gzip', 'heap'] as const);
    const name = `incidents/i${k}-${kind}`;
    names.push(name);
    if (kind === 'good') put(dir, `${name}/dump-1.txt`, JSTACK());
    if (kind === 'notes') put(dir, `${name}/README.md`, '# nothing here\n');
    if (kind === 'empty') mkdirSync(join(dir, name), { recursive: true });
    if (kind === 'cut-gzip') put(dir, `${name}/dump.txt.gz`, gzipSync(JSTACK()).subarray(0, 2000));
    if (kind === 'heap') put(dir, `${name}/heap.hprof`, HEAP().subarray(0, 200_000 + r.int(500_000)));
  }
  const args = r.pick([['incidents'], ['incidents/*'], [...names, names[0]!]]);
  return {
    name: `batch ${names.join(' ')} as ${args.join(' ')}`,
    args: ['batch', '-j', String(1 + r.int(2)), ...args],
    check: (run) => {
      const lines = run.stdout
        .trim()
        .split('\n')
        .filter((l) => l.length > 0);
      for (const l of lines) {
        try {
          JSON.parse(l);
        } catch {
          return `a batch line is not JSON: ${l.slice(0, 100)}`;
        }
      }
      return lines.length === count ? undefined : `${lines.length} lines for ${count} incidents`;
    },
  };
};

export const CLASSES: Readonly<Record<string, Generator>> = {
  hprof: hprofCases,
  gzip: gzipCases,
  text: textCases,
  regex: regexCases,
  json: jsonCases,
  files: fileCases,
  output: outputCases,
  unsafe: unsafeCases,
  batch: batchCases,
  evidence: evidenceCases,
};

/** Runs one case in `dir` with a TMPDIR of its own; returns what is wrong with the run, or undefined. */
export function runCase(c: CliCase, dir: string): { run: CliRun; problem: string | undefined } {
  const tmp = scratchDir('fuzz-tmp');
  const r = spawnSync(process.execPath, [BUILT_CLI, ...c.args], {
    cwd: dir,
    input: c.stdin ?? '',
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1', FORCE_COLOR: '', CI: 'true', DUMPSLEUTH_DEBUG: '' },
    timeout: c.timeoutMs ?? 60_000,
    maxBuffer: 256 * 1024 * 1024,
    killSignal: 'SIGKILL',
  });
  const run: CliRun = {
    status: r.status,
    signal: r.signal,
    stdout: r.stdout?.toString('utf8') ?? '',
    stderr: r.stderr?.toString('utf8') ?? '',
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
  };
  const left = readdirSync(tmp);
  rmSync(tmp, { recursive: true, force: true });
  return { run, problem: commonProblem(run, left, c.args.includes('-o')) ?? c.check?.(run, dir) };
}

function commonProblem(run: CliRun, leftInTmp: readonly string[], wroteToFile: boolean): string | undefined {
  if (run.timedOut) return 'did not end in time (a hang)';
  if (run.signal !== null) return `killed by ${run.signal}`;
  if (run.status === null || ![0, 1, 2].includes(run.status)) return `exit ${run.status}`;
  const all = `${run.stdout}\n${run.stderr}`;
  if (/internal error|Unhandled|\n\s+at .+:\d+:\d+\)?$/m.test(all)) return `a crash: ${firstMatch(all, /internal error.*|Unhandled.*|\n\s+at .+/)}`;
  if (/[\u001b\u0007\u009b]/.test(all)) return 'a terminal control character reached the output';
  // batch says an unreadable incident in that incident's line, and goes on.
  if (run.status === 2 && !/"status":"error","error":"[^"]/.test(run.stdout)) {
    const error = run.stderr.split('\n').find((l) => l.startsWith('error: '));
    if (error === undefined) return `exit 2 with no "error:" line: ${run.stderr.slice(0, 200)}`;
    if (error.length > 1500) return `an error line of ${error.length} characters`;
  }
  if (leftInTmp.length > 0) return `left in TMPDIR: ${leftInTmp.join(', ')}`;
  if (!wroteToFile && run.stdout.trim() === '' && run.stderr.trim() === '') return 'nothing said at all';
  return undefined;
}

function firstMatch(text: string, re: RegExp): string {
  return (re.exec(text)?.[0] ?? '').trim().slice(0, 200);
}

/** A scratch folder for one case, readable by the CLI. */
export function caseDirectory(): string {
  const dir = scratchDir('fuzz');
  chmodSync(dir, 0o755);
  return dir;
}
