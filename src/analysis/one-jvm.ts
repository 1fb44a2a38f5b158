/**
 * The thread-dump files of one analysis must come from one JVM: files whose dumps contradict each
 * other (jvm-identity.ts) are grouped into the JVMs they come from, so the command can say so
 * instead of merging two services into one series. Dumps of one file may span JVMs (a catalina.out
 * across restarts); the model keeps each JVM's dumps a series of their own.
 */
import { groupByJvm, sightingOfDump } from '../threads/jvm-identity.js';
import { dumpLabel } from '../threads/series.js';
import type { LoadedThreadInput } from './load-threads.js';

export interface JvmsOfFiles {
  /** The files, grouped by the JVM they come from, in the order given. */
  readonly groups: string[][];
  /** Why the second group cannot be the first one's JVM. */
  readonly reason: string;
}

/** Undefined when the files can be one JVM's; else the groups. */
export function filesOfSeveralJvms(inputs: readonly LoadedThreadInput[]): JvmsOfFiles | undefined {
  if (inputs.length < 2) return undefined;
  const dumps = inputs.flatMap((input, file) => input.file.dumps.map((d) => ({ d, file })));
  const { groups, reasons } = groupByJvm(dumps.map(({ d }) => sightingOfDump(d, dumpLabel(d))));
  if (groups.length < 2) return undefined;
  // Files that share a JVM are one cluster (a file across a restart joins both of its JVMs).
  const cluster = inputs.map((_, i) => i);
  const find = (i: number): number => (cluster[i] === i ? i : (cluster[i] = find(cluster[i]!)));
  for (const g of groups) {
    const files = g.map((k) => dumps[k]!.file);
    for (const f of files.slice(1)) cluster[find(f)] = find(files[0]!);
  }
  const byRoot = new Map<number, string[]>();
  inputs.forEach((input, i) => {
    const root = find(i);
    byRoot.set(root, [...(byRoot.get(root) ?? []), input.path]);
  });
  if (byRoot.size < 2) return undefined;
  // The reason given is that of the first group outside the first group's cluster of files.
  const firstCluster = find(dumps[groups[0]![0]!]!.file);
  const apart = groups.findIndex((g) => find(dumps[g[0]!]!.file) !== firstCluster);
  const reason = reasons[apart - 1]!;
  return { groups: [...byRoot.values()], reason };
}
