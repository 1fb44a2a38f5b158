/**
 * Reads a `dumpsleuth.heap/1` JSON heap snapshot with stream-json, one record at a time, into the
 * same HeapStore the HPROF loader builds, so every analysis says the same about an extract as about
 * the dump it came from. A cut or damaged file keeps the records before the damage, with a warning.
 */
import { gen, none } from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';

import { InputError } from '../../errors.js';
import type { MemorySummary } from '../../model/memory.js';
import type { BasicType, HeapClass, HeapObject, HeapStore, HeapValue } from '../heap-model.js';
import type { Histogram } from '../histogram.js';
import { classLoadersFrom } from './class-loaders-from.js';
import { decodeValue, HEAP_SNAPSHOT_FORMAT } from './snapshot-format.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const SECTIONS = /^(?:format|header|histogram|classes\.\d+|objects\.\d+)$/;
const BASIC_TYPES = new Set<string>(['object', 'boolean', 'char', 'float', 'double', 'byte', 'short', 'int', 'long']);

/** An opened snapshot: its decoded text from the start, and whether the file was gzip (the caller opened it). */
export interface SnapshotText {
  readonly gzip: boolean;
  text(): AsyncIterable<string>;
}

export async function readHeapSnapshot(path: string, opened: SnapshotText): Promise<HeapStore> {
  const classes = new Map<number, HeapClass>();
  const objects = new Map<number, HeapObject>();
  const warnings: string[] = [];
  let header: JsonObject | undefined;
  let histogram: Histogram | undefined;
  let format: string | undefined;
  let bad = 0;

  const take = (item: unknown) => {
    const value = (item as { value: Json }).value;
    if (format === undefined) {
      if (value !== HEAP_SNAPSHOT_FORMAT)
        throw new InputError(`${path} is not a dumpsleuth heap snapshot (format ${JSON.stringify(value)})`, `expected "${HEAP_SNAPSHOT_FORMAT}"`);
      format = value;
      return;
    }
    if (value === null) return; // no histogram
    if (typeof value !== 'object' || Array.isArray(value)) return void bad++;
    if (header === undefined) {
      header = value;
      return;
    }
    if (histogram === undefined && Array.isArray(value['rows'])) {
      histogram = histogramFrom(value, path);
      return;
    }
    if (typeof value['name'] === 'string' && Array.isArray(value['fields'])) {
      const c = classFrom(value);
      if (c) classes.set(c.id, c);
      else bad++;
      return;
    }
    const o = objectFrom(value, classes);
    if (o) objects.set(o.id, o);
    else bad++;
  };

  const pipeline = gen(parser({ streamValues: false }), pick({ filter: SECTIONS }), streamValues());
  let damaged: string | undefined;
  try {
    for await (const chunk of opened.text()) for await (const item of pipeline(chunk)) take(item);
    for await (const item of pipeline(none as unknown as string)) take(item);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const reason = ((e as Error).message ?? String(e)).split('\n')[0];
    damaged = `the heap snapshot ends early or is damaged after ${objects.size} objects (${reason}); the records before it were used`;
    warnings.push(damaged);
  }
  if (header === undefined) throw new InputError(`${path}: the heap snapshot has no header`, 'check that the file is complete');
  if (bad > 0) warnings.push(`${bad} records of the heap snapshot were not understood and were skipped`);
  const h = header;
  // Read in part: the heap dump it was made from (its header says), or the snapshot itself.
  const cut = typeof h['cut'] === 'string' ? h['cut'] : damaged;
  const num = (k: string) => (typeof h[k] === 'number' ? (h[k] as number) : 0);
  const threads = (Array.isArray(h['threads']) ? h['threads'] : [])
    .filter((t): t is JsonObject => t !== null && typeof t === 'object' && !Array.isArray(t) && typeof t['objectId'] === 'number')
    .map((t) => {
      const frames = Array.isArray(t['frames']) ? t['frames'].filter((f): f is string => typeof f === 'string') : [];
      return {
        objectId: t['objectId'] as number,
        threadSerial: typeof t['threadSerial'] === 'number' ? t['threadSerial'] : 0,
        ...(frames.length > 0 ? { frames } : {}),
      };
    });
  return {
    source: {
      path,
      format: 'dumpsleuth-heap',
      hprofVersion: String(h['hprofVersion'] ?? ''),
      idSize: num('idSize') === 4 ? 4 : 8,
      timestampMs: num('timestampMs'),
      gzip: opened.gzip,
    },
    classes,
    objects,
    completeClasses: new Set(strings(h['completeClasses'])),
    threads,
    histogram,
    ...memoryFrom(h['memory']),
    warnings: [...strings(h['warnings']), ...warnings],
    ...(cut !== undefined ? { cut } : {}),
  };
}

/**
 * The memory summary an extract carries, taken only when its shape is right (the file is input:
 * the renderers must not get wrong types); lists keep the entries that are well formed.
 */
function memoryFrom(v: Json | undefined): { memory?: MemorySummary } {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) return {};
  const isNum = (x: Json | undefined): x is number => typeof x === 'number' && Number.isFinite(x);
  const isObj = (x: Json | undefined): x is JsonObject => x !== null && x !== undefined && typeof x === 'object' && !Array.isArray(x);
  const retained = (x: Json | undefined): x is JsonObject =>
    isObj(x) && typeof x['id'] === 'string' && typeof x['className'] === 'string' && isNum(x['shallow']) && isNum(x['retained']);
  if (
    !['objects', 'reachableObjects', 'shallowBytes', 'retainedBytes', 'missingReferences'].every((k) => isNum(v[k])) ||
    !isObj(v['unreachable']) ||
    !isObj(v['roots'])
  )
    return {};
  const list = (x: Json | undefined) => (Array.isArray(x) ? x : []);
  const suspects = list(v['suspects']).filter(
    (x): x is JsonObject =>
      isObj(x) &&
      (x['kind'] === 'object' || x['kind'] === 'class') &&
      typeof x['className'] === 'string' &&
      isNum(x['retained']) &&
      isNum(x['share']) &&
      isNum(x['instances']) &&
      retained(x['subject']) &&
      retained(x['accumulation']) &&
      isNum((x['accumulation'] as JsonObject)['dominated']) &&
      (x['path'] === undefined || (Array.isArray(x['path']) && x['path'].every((st) => isObj(st) && retained(st['object'])))),
  );
  const classes = list(v['classes']).filter(
    (x): x is JsonObject => isObj(x) && typeof x['className'] === 'string' && isNum(x['instances']) && isNum(x['shallow']) && isNum(x['retained']),
  );
  const roots = Object.fromEntries(Object.entries(v['roots'] as JsonObject).filter(([, n]) => isNum(n))) as Record<string, number>;
  const u = v['unreachable'] as JsonObject;
  const { classLoaders: loaders, ...rest } = v;
  const classLoaders = classLoadersFrom(loaders);
  return {
    memory: {
      ...(rest as unknown as MemorySummary),
      ...(classLoaders !== undefined ? { classLoaders } : {}),
      unreachable: { objects: isNum(u['objects']) ? u['objects'] : 0, bytes: isNum(u['bytes']) ? u['bytes'] : 0 },
      roots,
      dominators: list(v['dominators']).filter(retained).map(framesChecked) as unknown as MemorySummary['dominators'],
      classes: classes as unknown as MemorySummary['classes'],
      suspects: suspects.map(suspectFramesChecked) as unknown as MemorySummary['suspects'],
    },
  };
}

/** An object of an extract's summary with its stack frames kept only when well formed (strings where text goes, a depth). */
function framesChecked(o: JsonObject): JsonObject {
  const frames = o['stackFrames'];
  if (frames === undefined) return o;
  const text = (x: Json | undefined) => x === undefined || typeof x === 'string';
  const ok =
    Array.isArray(frames) &&
    frames.every(
      (h) =>
        h !== null &&
        typeof h === 'object' &&
        !Array.isArray(h) &&
        typeof h['depth'] === 'number' &&
        text(h['frame']) &&
        text(h['threadId']) &&
        text(h['threadName']),
    ) &&
    (o['moreStackFrames'] === undefined || typeof o['moreStackFrames'] === 'number');
  if (ok) return o;
  const { stackFrames: _frames, moreStackFrames: _more, ...rest } = o;
  return rest;
}

/** A suspect of an extract with its objects' frames checked; a stack holder is kept only with its frames. */
function suspectFramesChecked(x: JsonObject): JsonObject {
  const a = x['accumulation'] as JsonObject;
  const biggest = a['biggest'];
  const out: JsonObject = {
    ...x,
    subject: framesChecked(x['subject'] as JsonObject),
    accumulation: framesChecked(Array.isArray(biggest) ? { ...a, biggest: biggest.filter(isObject).map(framesChecked) } : a),
    ...(Array.isArray(x['path']) ? { path: (x['path'] as JsonObject[]).map((st) => ({ ...st, object: framesChecked(st['object'] as JsonObject) })) } : {}),
  };
  const holder = isObject(x['stackHolder']) ? framesChecked(x['stackHolder']) : undefined;
  delete out['stackHolder'];
  return holder !== undefined && Array.isArray(holder['stackFrames']) && holder['stackFrames'].length > 0 && typeof holder['id'] === 'string'
    ? { ...out, stackHolder: holder }
    : out;
}

function isObject(x: Json | undefined): x is JsonObject {
  return x !== null && x !== undefined && typeof x === 'object' && !Array.isArray(x);
}

/** The strings of a JSON value that should be a string array (the file is input: anything else is dropped). */
function strings(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The histogram section, taken field by field: a damaged file must not hand the renderers wrong types. */
function histogramFrom(v: JsonObject, path: string): Histogram {
  const count = (x: Json | undefined) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);
  const rows = (v['rows'] as Json[])
    .filter((r): r is JsonObject => r !== null && typeof r === 'object' && !Array.isArray(r) && typeof r['className'] === 'string')
    .map((r) => ({ className: r['className'] as string, instances: count(r['instances']), shallowBytes: count(r['shallowBytes']) }));
  return {
    source: typeof v['source'] === 'string' ? v['source'] : path,
    format: v['format'] === 'v8-heapsnapshot' || v['format'] === 'dumpsleuth-heap' ? v['format'] : 'hprof',
    rows,
    totalInstances: count(v['totalInstances']),
    totalBytes: count(v['totalBytes']),
    sizeModel: typeof v['sizeModel'] === 'string' ? v['sizeModel'] : '',
    warnings: strings(v['warnings']),
  };
}

function classFrom(v: JsonObject): HeapClass | undefined {
  const id = v['id'];
  if (typeof id !== 'number') return undefined;
  const fields = (v['fields'] as Json[]).filter((f): f is [string, string] => Array.isArray(f) && typeof f[0] === 'string' && BASIC_TYPES.has(String(f[1])));
  const statics = Array.isArray(v['statics'])
    ? (v['statics'] as Json[]).filter((s): s is [string, string, Json] => Array.isArray(s) && typeof s[0] === 'string' && BASIC_TYPES.has(String(s[1])))
    : [];
  return {
    id,
    name: v['name'] as string,
    superId: typeof v['super'] === 'number' ? v['super'] : 0,
    fields: fields.map(([name, type]) => ({ name, type: type as BasicType })),
    statics: statics.map(([name, type, value]) => ({ name, type: type as BasicType, value: decodeValue(type as BasicType, value) })),
  };
}

function objectFrom(v: JsonObject, classes: Map<number, HeapClass>): HeapObject | undefined {
  const id = v['id'];
  if (typeof id !== 'number') return undefined;
  if (typeof v['type'] === 'string') {
    const type = v['type'];
    if (!BASIC_TYPES.has(type) || type === 'object') return undefined;
    const elementType = type as Exclude<BasicType, 'object'>;
    if (typeof v['base64'] === 'string')
      return { kind: 'primitive-array', id, elementType, values: Array.from(new Int8Array(Buffer.from(v['base64'], 'base64'))) };
    if (!Array.isArray(v['values'])) return undefined;
    return { kind: 'primitive-array', id, elementType, values: (v['values'] as Json[]).map((x) => decodeValue(elementType, x) as number | bigint | boolean) };
  }
  const classId = v['class'];
  if (typeof classId !== 'number') return undefined;
  if (Array.isArray(v['elements']))
    return { kind: 'object-array', id, classId, elements: (v['elements'] as Json[]).map((e) => (typeof e === 'number' ? e : 0)) };
  if (!Array.isArray(v['values'])) return undefined;
  const types: BasicType[] = [];
  const seen = new Set<number>();
  for (let c = classes.get(classId); c !== undefined && !seen.has(c.id); c = classes.get(c.superId)) {
    seen.add(c.id);
    for (const f of c.fields) types.push(f.type);
  }
  const values: HeapValue[] = (v['values'] as Json[]).map((x, i) => decodeValue(types[i] ?? 'object', x));
  return { kind: 'instance', id, classId, values };
}
