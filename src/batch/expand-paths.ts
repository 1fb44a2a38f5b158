/**
 * `batch` arguments: paths, or globs (`*`, `?`, `**`) expanded here so they work without a shell.
 * Each match (a file or a directory) is one incident; a directory argument holding directories is
 * a folder of incidents (see isFolderOfIncidents).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

import { looksLikeDump } from './looks-like-dump.js';

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function walk(dir: string, out: string[], depth: number): void {
  if (depth > 12) return; // a bound against symlink loops
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) walk(p, out, depth + 1);
  }
}

export function expandIncidentPaths(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (!/[*?]/.test(arg)) {
      out.push(arg);
      continue;
    }
    const firstGlob = arg.search(/[*?]/);
    const base = arg.slice(0, arg.lastIndexOf('/', firstGlob) + 1) || '.';
    const re = globToRegExp(arg.replace(/^\.\//, ''));
    const all: string[] = [];
    walk(base, all, 0);
    for (const p of all.sort()) {
      const rel = p.split(sep).join('/').replace(/^\.\//, '');
      if (re.test(rel)) out.push(p);
    }
  }
  // One incident once, however it is named (`d` and `d/`, a link to it): by the file system's identity.
  const seen = new Set<string>();
  return out.filter((p) => {
    const st = statSafe(p);
    const key = st === undefined ? `path:${p}` : `${st.dev}:${st.ino}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function statSafe(p: string): { dev: number; ino: number } | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A folder of incidents rather than one incident: a directory of directories. Files beside them do
 * not make it one incident (a README, a stray dump): with two or more directories it is a folder of
 * incidents whatever else it holds; with one, only when none of its files is a dump (an incident
 * may keep its logs in a folder of their own).
 */
export async function isFolderOfIncidents(path: string): Promise<boolean> {
  let entries: string[];
  try {
    if (!statSync(path).isDirectory()) return false;
    entries = readdirSync(path).filter((name) => !name.startsWith('.'));
  } catch {
    return false;
  }
  // statSync follows links: a folder of links to incident directories is a folder of incidents.
  const dirs = entries.filter((name) => isDirectory(join(path, name)));
  const files = entries.filter((name) => !dirs.includes(name));
  if (dirs.length === 0) return false;
  if (files.length === 0 || dirs.length >= 2) return true;
  for (const f of files) if (await looksLikeDump(join(path, f))) return false;
  return true;
}
