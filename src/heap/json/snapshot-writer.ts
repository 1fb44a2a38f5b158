/**
 * Writes a loaded heap as a `dumpsleuth.heap/1` JSON heap snapshot: one header, the histogram of the
 * whole source heap, then one class and one object per line, so it streams both ways. Gzipped when
 * asked (the extract of a multi-GB dump is small, and smaller still compressed).
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import type { HeapClass, HeapObject, HeapStore } from '../heap-model.js';
import { encodeValue, HEAP_SNAPSHOT_FORMAT } from './snapshot-format.js';

export interface SnapshotMeta {
  readonly createdBy: string;
  /** What was asked for: the plan's roots, so a reader knows what the extract can answer. */
  readonly plan: unknown;
}

/**
 * Writes through one pipeline, so a failure anywhere (the file cannot be opened, the disk fills, a
 * file-size limit) rejects this call, which writeFileWhole turns into a one-line error: a stream's
 * error event left to itself was an unhandled rejection and exit 1.
 */
export async function writeHeapSnapshotFile(store: HeapStore, path: string, meta: SnapshotMeta, gzip: boolean): Promise<void> {
  const text = Readable.from(snapshotPieces(store, meta), { objectMode: false });
  const file = createWriteStream(path);
  await (gzip ? pipeline(text, createGzip({ level: 6 }), file) : pipeline(text, file));
}

/** The snapshot's text in pieces, as the pipeline asks for them. */
async function* snapshotPieces(store: HeapStore, meta: SnapshotMeta): AsyncGenerator<string> {
  const header = {
    source: store.source.path,
    sourceFormat: store.source.format,
    hprofVersion: store.source.hprofVersion,
    idSize: store.source.idSize,
    timestampMs: store.source.timestampMs,
    createdBy: meta.createdBy,
    plan: meta.plan,
    completeClasses: [...store.completeClasses].sort(),
    threads: store.threads,
    warnings: store.warnings,
    // A snapshot of a dump read only in part says so, so its analysis does too.
    ...(store.cut !== undefined ? { cut: store.cut } : {}),
    // What holds the memory, computed from the HPROF, so an attached snapshot still shows it.
    ...(store.memory !== undefined ? { memory: store.memory } : {}),
  };
  yield (
    `{"format":${JSON.stringify(HEAP_SNAPSHOT_FORMAT)},\n"header":${JSON.stringify(header)}` +
    `,\n"histogram":${JSON.stringify(store.histogram ?? null)},\n"classes":[`
  );
  let first = true;
  const classes = [...store.classes.values()].sort((a, b) => a.id - b.id);
  for (const c of classes) {
    yield (first ? '\n' : ',\n') + JSON.stringify(classRecord(c));
    first = false;
  }
  yield '\n],\n"objects":[';
  first = true;
  const objects = [...store.objects.values()].sort((a, b) => a.id - b.id);
  for (const o of objects) {
    yield (first ? '\n' : ',\n') + JSON.stringify(objectRecord(o, store));
    first = false;
  }
  yield '\n]}\n';
}

function classRecord(c: HeapClass): unknown {
  return {
    id: c.id,
    name: c.name,
    super: c.superId,
    fields: c.fields.map((f) => [f.name, f.type]),
    statics: c.statics.map((s) => [s.name, s.type, encodeValue(s.type, s.value)]),
  };
}

function objectRecord(o: HeapObject, store: HeapStore): unknown {
  switch (o.kind) {
    case 'instance': {
      const types: string[] = [];
      const seen = new Set<number>();
      for (let c = store.classes.get(o.classId); c !== undefined && !seen.has(c.id); c = store.classes.get(c.superId)) {
        seen.add(c.id);
        for (const f of c.fields) types.push(f.type);
      }
      return { id: o.id, class: o.classId, values: o.values.map((v, i) => encodeValue((types[i] ?? 'object') as never, v)) };
    }
    case 'object-array':
      return { id: o.id, class: o.classId, elements: o.elements };
    case 'primitive-array':
      if (o.elementType === 'byte') return { id: o.id, type: 'byte', base64: Buffer.from(Int8Array.from(o.values as number[]).buffer).toString('base64') };
      return { id: o.id, type: o.elementType, values: o.values.map((v) => encodeValue(o.elementType, v as never)) };
  }
}
