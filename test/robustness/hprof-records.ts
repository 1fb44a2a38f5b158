/** Offsets of the top-level records of a plain HPROF buffer, for targeted damage (lengths, tags, id size). */
export function hprofRecords(hprof: Buffer): number[] & { idSizeOffset: number } {
  const nul = hprof.indexOf(0);
  const idSizeOffset = nul + 1;
  const out = [] as unknown as number[] & { idSizeOffset: number };
  out.idSizeOffset = idSizeOffset;
  let at = idSizeOffset + 4 + 8;
  while (at + 9 <= hprof.length) {
    out.push(at);
    at += 9 + hprof.readUInt32BE(at + 5);
  }
  return out;
}
