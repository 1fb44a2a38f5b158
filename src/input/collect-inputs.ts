/** Expands the paths given on the command line: a directory is one incident, every file inside it; two directories are refused. */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

import { InputError, UsageError } from '../errors.js';
import { readFailure } from '../model/read-failure.js';

export interface InputPath {
  readonly path: string;
  /** Found inside a directory: a file there that is not a dump is skipped with a note, not an error. */
  readonly fromDirectory: boolean;
}

/**
 * The inputs, each file once: a file given twice (the same path, a hard link, a link to it, a file
 * also inside the directory given, `-` twice) is read once, and `onDuplicate` says which was dropped
 * (a dump read twice would be a series of two identical dumps).
 */
export async function collectInputs(paths: string[], onSkip?: (path: string, why: string) => void): Promise<InputPath[]> {
  const out: InputPath[] = [];
  const directories: string[] = [];
  /** `dev:ino` of every file taken, and the path it was taken as. */
  const taken = new Map<string, string>();
  const take = (path: string, identity: string, fromDirectory: boolean): void => {
    const first = taken.get(identity);
    if (first !== undefined) {
      onSkip?.(path, path === '-' ? 'standard input given twice: read once' : `the same file as ${first}: read once`);
      return;
    }
    taken.set(identity, path);
    out.push({ path, fromDirectory });
  };
  for (const p of paths) {
    if (p === '-') {
      take(p, 'stdin', false);
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
      const root = await realpath(p);
      for (const f of await walk(p, root, onSkip)) take(f.path, f.identity, true);
    } else {
      take(p, `${st.dev}:${st.ino}`, false);
    }
  }
  return out;
}

/**
 * Every file under a directory, in name order. Symbolic links to files are followed (a folder of
 * links to dumps is common), links to directories only inside the directory given, and each real
 * file and directory is taken once, so a link loop ends and a dump linked twice is not read as two
 * dumps of a series.
 */
async function walk(
  dir: string,
  root: string,
  onSkip: ((path: string, why: string) => void) | undefined,
  seen = new Set<string>(),
): Promise<Array<{ readonly path: string; readonly identity: string }>> {
  const real = await realpath(dir);
  if (seen.has(real)) return [];
  seen.add(real);
  const files: Array<{ path: string; identity: string }> = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    const why = readFailure(e);
    // The folder given is the input: not reading it is an error. A folder inside it is one skipped part, said in a note.
    if (real === root) throw new InputError(`cannot read the folder ${dir}: ${why}`, "check the folder's permissions, or pass the files inside it");
    onSkip?.(dir, `cannot read the folder: ${why}`);
    return [];
  }
  for (const name of names.sort((a, b) => a.localeCompare(b))) {
    if (name.startsWith('.')) continue;
    const p = join(dir, name);
    let st;
    try {
      st = await stat(p);
    } catch {
      continue; // a dangling link
    }
    // A link to a directory is followed only while it stays inside the incident (a link to / would
    // walk the whole disk); a link to a file is one input wherever it points (a folder of links to dumps).
    if (st.isDirectory() && (await lstat(p)).isSymbolicLink()) {
      const target = await realpath(p);
      if (target !== root && !target.startsWith(root + sep)) {
        onSkip?.(p, `a link to ${target}, outside the directory given: not followed`);
        continue;
      }
    }
    if (st.isDirectory()) files.push(...(await walk(p, root, onSkip, seen)));
    else if (st.isFile()) {
      const target = await realpath(p);
      if (seen.has(target)) continue;
      seen.add(target);
      files.push({ path: p, identity: `${st.dev}:${st.ino}` });
    }
  }
  return files;
}
