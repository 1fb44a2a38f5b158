/**
 * `batch` arguments: paths, or globs (`*`, `?`, `**`) expanded here so they work without a shell.
 * Each match (a file or a directory) is one incident; a directory argument holding only directories
 * is a folder of incidents.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

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
  return [...new Set(out)];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True for a directory holding only directories: a folder of incidents rather than one incident. */
export function isFolderOfIncidents(path: string): boolean {
  try {
    if (!statSync(path).isDirectory()) return false;
    const entries = readdirSync(path).filter((name) => !name.startsWith('.'));
    // statSync follows links: a folder of links to incident directories is a folder of incidents.
    return entries.length > 0 && entries.every((name) => isDirectory(join(path, name)));
  } catch {
    return false;
  }
}
