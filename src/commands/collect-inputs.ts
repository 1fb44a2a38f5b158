/** Expands the paths given on the command line: a directory is one incident, every file inside it. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors.js';

export interface InputPath {
  readonly path: string;
  /** Found inside a directory: a file there that is not a dump is skipped with a note, not an error. */
  readonly fromDirectory: boolean;
}

export async function collectInputs(paths: string[]): Promise<InputPath[]> {
  const out: InputPath[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push({ path: p, fromDirectory: false });
      continue;
    }
    let st;
    try {
      st = await stat(p);
    } catch {
      throw new InputError(`cannot read ${p}: no such file or directory`, 'check the path');
    }
    if (st.isDirectory()) {
      for (const f of await walk(p)) out.push({ path: f, fromDirectory: true });
    } else {
      out.push({ path: p, fromDirectory: false });
    }
  }
  return out;
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await walk(p)));
    else if (e.isFile()) files.push(p);
  }
  return files;
}
