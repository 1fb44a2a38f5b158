/** Expands the paths given on the command line: a directory is one incident, every file inside it; two directories are refused. */
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { InputError, UsageError } from '../errors.js';

export interface InputPath {
  readonly path: string;
  /** Found inside a directory: a file there that is not a dump is skipped with a note, not an error. */
  readonly fromDirectory: boolean;
}

export async function collectInputs(paths: string[]): Promise<InputPath[]> {
  const out: InputPath[] = [];
  const directories: string[] = [];
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
      directories.push(p);
      // A directory is one incident: two are two incidents, which one report cannot be.
      if (directories.length > 1) {
        throw new UsageError(
          `${directories[0]} and ${p} are two directories, so two incidents; this command analyses one`,
          `analyse them one at a time, or together with \`dumpsleuth batch ${directories[0]} ${p}\``,
        );
      }
      for (const f of await walk(p)) out.push({ path: f, fromDirectory: true });
    } else {
      out.push({ path: p, fromDirectory: false });
    }
  }
  return out;
}

/**
 * Every file under a directory, in name order. Symbolic links are followed (a folder of links to
 * dumps is common), and each real file and directory is taken once, so a link loop ends and a dump
 * linked twice is not read as two dumps of a series.
 */
async function walk(dir: string, seen = new Set<string>()): Promise<string[]> {
  const real = await realpath(dir);
  if (seen.has(real)) return [];
  seen.add(real);
  const files: string[] = [];
  for (const name of (await readdir(dir)).sort((a, b) => a.localeCompare(b))) {
    if (name.startsWith('.')) continue;
    const p = join(dir, name);
    let st;
    try {
      st = await stat(p);
    } catch {
      continue; // a dangling link
    }
    if (st.isDirectory()) files.push(...(await walk(p, seen)));
    else if (st.isFile()) {
      const target = await realpath(p);
      if (seen.has(target)) continue;
      seen.add(target);
      files.push(p);
    }
  }
  return files;
}
