/** Reading `jmap -histo` output in tests, to compare histograms with the JVM's own. */
import { readFileSync } from 'node:fs';

/** jmap -histo prints `[B`, `[Ljava.lang.Object;` and a module suffix; this is the Java name. */
export function jmapName(raw: string): string {
  const name = raw.replace(/ \(.*\)$/, '');
  const dims = /^\[+/.exec(name)?.[0].length ?? 0;
  if (dims === 0) return name;
  const rest = name.slice(dims);
  const prim: Record<string, string> = { Z: 'boolean', C: 'char', F: 'float', D: 'double', B: 'byte', S: 'short', I: 'int', J: 'long' };
  const base = rest.startsWith('L') ? rest.slice(1, -1) : prim[rest]!;
  return base + '[]'.repeat(dims);
}

export function readJmapHisto(path: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*\d+:\s+(\d+)\s+\d+\s+(.+)$/.exec(line);
    if (m) out.set(jmapName(m[2]!.trim()), (out.get(jmapName(m[2]!.trim())) ?? 0) + Number(m[1]));
  }
  return out;
}
