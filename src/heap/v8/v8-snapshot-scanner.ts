/**
 * A push scanner for V8 `.heapsnapshot` JSON that counts nodes per group without building the
 * graph. Bytes go in through `feed` in chunks of any size (a chunk boundary may fall anywhere, even
 * inside a number or an escape), and `finish` says what was counted.
 *
 * Layout it relies on (docs/heap-formats.md §3.1): a top-level object whose `snapshot` header comes
 * first and carries `meta`; `nodes` is a flat array of non-negative integers, `meta.node_fields.length`
 * per node; `strings` comes last. What it keeps per node is only type, name index and self_size,
 * folded straight into per-group totals, so memory grows with the number of distinct constructor
 * names, not with the file. `edges` (half the bytes) is skipped unread. Of `strings`, only the names
 * of grouped nodes are decoded, but the table is still walked to its end: that is how a cut file is
 * told from a complete one.
 */
import { InputError } from '../../errors.js';

/** One group of nodes: by type alone, or by (type, name) for the types whose name is a class name. */
export interface V8NodeGroup {
  /** From `meta.node_types`; `undefined` when a node's type index is outside that list. */
  readonly typeName: string | undefined;
  readonly typeIndex: number;
  /** Index into `strings`; -1 for groups by type alone. */
  readonly nameIndex: number;
  /** The resolved name; `undefined` for groups by type alone and when `strings` did not hold it. */
  readonly name: string | undefined;
  readonly instances: number;
  readonly selfBytes: number;
}

/** With `collectGraph`: every number of `nodes` and `edges` and every string, for the object graph. */
export interface V8RawGraph {
  readonly nodes: Float64Array;
  readonly edges: Float64Array;
  readonly edgeFields: readonly string[];
  readonly edgeTypes: readonly string[];
  /** The `strings` table by index (each cut at 64 KiB); shorter than the nodes expect when the file is cut. */
  readonly strings: ReadonlyMap<number, string>;
}

export interface V8SnapshotSummary {
  readonly nodeFields: readonly string[];
  readonly nodeTypes: readonly string[];
  /** With `collectGraph`. */
  readonly graph?: V8RawGraph;
  /** `snapshot.node_count` from the header, when present. */
  readonly declaredNodeCount: number | undefined;
  readonly nodesRead: number;
  readonly groups: V8NodeGroup[];
  readonly warnings: string[];
}

export interface V8SnapshotScannerOptions {
  /** Names the input in messages (usually the path). */
  readonly source: string;
  /** How offsets are described: plain files count file bytes, gzip input counts decompressed bytes. */
  readonly offsetLabel?: string;
  /** Also keep every node field, every edge and every string (the memory analysis); the histogram needs none of them. */
  readonly collectGraph?: boolean;
}

/**
 * Every number of a JSON number array, appended in order; a number may be cut by a chunk boundary,
 * so the digits read so far carry over. The scanner has checked the bytes' shape (or checks it).
 */
class NumberCollector {
  private data: Float64Array;
  private length = 0;
  private value = 0;
  private inNumber = false;
  constructor(capacity = 1 << 16) {
    this.data = new Float64Array(Math.max(16, capacity));
  }
  /**
   * Room for about this many numbers (the header's declared counts), so the array rarely grows; at
   * most 256 MB ahead, since the header is the input's word, not a fact.
   */
  reserve(capacity: number): void {
    this.grow(Math.min(capacity, 1 << 25));
  }
  /** The numbers so far. */
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
  /** Digits of [from, to) of `buf`; any other byte ends a number. */
  take(buf: Uint8Array, from: number, to: number): void {
    let value = this.value;
    let inNumber = this.inNumber;
    let data = this.data;
    let length = this.length;
    for (let i = from; i < to; i++) {
      const digit = buf[i]! - 48;
      if (digit >>> 0 <= 9) {
        value = inNumber ? value * 10 + digit : digit;
        inNumber = true;
      } else if (inNumber) {
        if (length === data.length) data = this.grow(length * 2);
        data[length++] = value;
        inNumber = false;
      }
    }
    this.value = value;
    this.inNumber = inNumber;
    this.length = length;
  }
  /** The array has ended: the last number is complete. */
  end(): Float64Array {
    if (this.inNumber) {
      if (this.length === this.data.length) this.grow(this.length * 2);
      this.data[this.length++] = this.value;
    }
    this.inNumber = false;
    return this.view();
  }
  private grow(capacity: number): Float64Array {
    if (capacity <= this.data.length) return this.data;
    const bigger = new Float64Array(capacity);
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
    return bigger;
  }
}

/**
 * Node types whose `name` is a constructor or class name, so DevTools lists each name as its own
 * row. Every other type is one row per type: for strings the name *is* the content, and closures
 * and regexps would otherwise collide with the objects they construct (a class `Foo` is a closure
 * named `Foo` as well as the constructor of every `Foo` object).
 */
const TYPES_GROUPED_BY_NAME = new Set(['object', 'native']);

/** The `snapshot` header is a few KB; anything far larger is not a V8 header. */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;
const MAX_KEY_BYTES = 4096;
/** Constructor names are short; a longer needed string is kept only this far, so one bad index cannot hold a huge string. */
const MAX_NAME_BYTES = 64 * 1024;

// Top-level states.
const S_START = 0;
const S_KEY_OR_END = 1;
const S_IN_KEY = 2;
const S_COLON = 3;
const S_VALUE = 4;
const S_AFTER_VALUE = 5;
const S_HEADER = 6;
const S_NODES_OPEN = 7;
const S_NODES = 8;
const S_EDGES_OPEN = 9;
const S_EDGES = 10;
const S_STRINGS_OPEN = 11;
const S_STRINGS_BETWEEN = 12;
const S_IN_STRING = 13;
const S_SKIP = 14;
const S_DONE = 15;

// Number-array states inside `nodes`.
const N_FIRST = 0;
const N_IN_NUMBER = 1;
const N_AFTER_NUMBER = 2;
const N_AFTER_COMMA = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Everything the `nodes` loop reads and writes. It lives in one object between chunks; inside a chunk
 * the loop copies it into locals, because V8 optimises a loop over locals far better than one over
 * object fields or closure variables (docs/heap-formats.md §2.2).
 */
interface NodeScanState {
  readonly fieldCount: number;
  readonly typeField: number;
  readonly nameField: number;
  readonly sizeField: number;
  /** Type indexes at or above this go to the "unknown type" bucket, which sits at this index. */
  readonly typeLimit: number;
  /** The first few type indexes seen outside `meta.node_types`, for the warning. */
  readonly unknownTypes: Set<number>;
  /** 1 where the type index groups by name. */
  readonly groupedByName: Uint8Array;
  readonly typeInstances: Float64Array;
  readonly typeBytes: Float64Array;
  /** (name index × (typeLimit + 1) + type) → slot in the arrays below. */
  readonly slotOfKey: Map<number, number>;
  readonly slotType: number[];
  readonly slotName: number[];
  readonly slotInstances: number[];
  readonly slotBytes: number[];
  phase: number;
  value: number;
  field: number;
  type: number;
  name: number;
  size: number;
  nodes: number;
  lastKey: number;
  lastSlot: number;
  /** Where the array's `]` was, or -1. */
  endAt: number;
  /** Where an unexpected byte was, or -1. */
  badAt: number;
}

/**
 * Scans digits of the `nodes` array from `from` to the end of `buf` or to its `]`, aggregating each
 * complete node. Returns the index it stopped at; `s.endAt` / `s.badAt` say why it stopped early.
 */
function scanNodes(buf: Uint8Array, from: number, s: NodeScanState): number {
  const end = buf.length;
  const fieldCount = s.fieldCount;
  const typeField = s.typeField;
  const nameField = s.nameField;
  const sizeField = s.sizeField;
  const typeLimit = s.typeLimit;
  const keyStride = typeLimit + 1;
  const groupedByName = s.groupedByName;
  const typeInstances = s.typeInstances;
  const typeBytes = s.typeBytes;
  const slotOfKey = s.slotOfKey;
  const slotInstances = s.slotInstances;
  const slotBytes = s.slotBytes;
  let phase = s.phase;
  let value = s.value;
  let field = s.field;
  let type = s.type;
  let name = s.name;
  let size = s.size;
  let nodes = s.nodes;
  let lastKey = s.lastKey;
  let lastSlot = s.lastSlot;
  let i = from;
  for (; i < end; i++) {
    const c = buf[i]!;
    const digit = c - 48;
    if (digit >>> 0 <= 9) {
      if (phase === N_IN_NUMBER) {
        value = value * 10 + digit;
      } else if (phase === N_AFTER_NUMBER) {
        s.badAt = i;
        break;
      } else {
        value = digit;
        phase = N_IN_NUMBER;
      }
      continue;
    }
    if (phase === N_IN_NUMBER) {
      phase = N_AFTER_NUMBER;
      if (field === typeField) type = value;
      else if (field === nameField) name = value;
      else if (field === sizeField) size = value;
      if (++field === fieldCount) {
        field = 0;
        nodes++;
        let t = type;
        if (t >= typeLimit) {
          t = typeLimit;
          if (s.unknownTypes.size < 8) s.unknownTypes.add(type);
        }
        if (groupedByName[t] === 1) {
          const key = name * keyStride + t;
          if (key !== lastKey) {
            let slot = slotOfKey.get(key);
            if (slot === undefined) {
              slot = slotInstances.length;
              slotOfKey.set(key, slot);
              s.slotType.push(t);
              s.slotName.push(name);
              slotInstances.push(0);
              slotBytes.push(0);
            }
            lastKey = key;
            lastSlot = slot;
          }
          slotInstances[lastSlot] = slotInstances[lastSlot]! + 1;
          slotBytes[lastSlot] = slotBytes[lastSlot]! + size;
        } else {
          typeInstances[t] = typeInstances[t]! + 1;
          typeBytes[t] = typeBytes[t]! + size;
        }
      }
    }
    if (c === COMMA) {
      if (phase !== N_AFTER_NUMBER) {
        s.badAt = i;
        break;
      }
      phase = N_AFTER_COMMA;
    } else if (c === CLOSE_BRACKET) {
      if (phase === N_AFTER_COMMA) {
        s.badAt = i;
        break;
      }
      s.endAt = i;
      break;
    } else if (c !== 0x0a && c !== 0x20 && c !== 0x0d && c !== 0x09) {
      s.badAt = i;
      break;
    }
  }
  s.phase = phase;
  s.value = value;
  s.field = field;
  s.type = type;
  s.name = name;
  s.size = size;
  s.nodes = nodes;
  s.lastKey = lastKey;
  s.lastSlot = lastSlot;
  return i;
}

interface HeaderMeta {
  readonly nodeFields: string[];
  readonly nodeTypes: string[];
  readonly declaredNodeCount: number | undefined;
  readonly declaredEdgeCount: number | undefined;
  readonly edgeFields: string[];
  readonly edgeTypes: string[];
}

export class V8SnapshotScanner {
  private readonly source: string;
  private readonly offsetLabel: string;
  private state = S_START;
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private key = '';
  private keyBytes: number[] = [];
  private keyEscaped = false;
  private readonly seenKeys = new Set<string>();

  // Brace matching for the header and for skipped values.
  private depth = 0;
  private inString = false;
  private escaped = false;
  private valueStarted = false;
  private headerPieces: Buffer[] = [];
  private headerBytes = 0;
  private headerAt = 0;

  private meta: HeaderMeta | undefined;
  private nodeScan: NodeScanState | undefined;
  private nodesDone = false;

  // `strings`: index of the string being read, the needed indexes in ascending order, and the next one.
  private stringIndex = 0;
  private neededIndexes: number[] = [];
  private neededCursor = 0;
  private readonly names = new Map<number, string>();
  private namePieces: Buffer[] = [];
  private nameBytes = 0;
  /** Backslashes at the end of the previous chunk, inside the current string (to tell `\"` from `\\"`). */
  private trailingBackslashes = 0;
  private stringsStarted = false;
  private stringsDone = false;

  /** With `collectGraph`: the numbers of `nodes` and `edges`, and then every string is needed. */
  private readonly nodeNumbers: NumberCollector | undefined;
  private readonly edgeNumbers: NumberCollector | undefined;
  private edgesDone = false;
  /** With `collectGraph`: 1 for each string a node's class name or an edge's name needs (set when `strings` starts). */
  private neededStrings: Uint8Array | undefined;

  constructor(options: V8SnapshotScannerOptions) {
    this.source = options.source;
    this.offsetLabel = options.offsetLabel ?? 'byte';
    if (options.collectGraph === true) {
      this.nodeNumbers = new NumberCollector();
      this.edgeNumbers = new NumberCollector();
    }
  }

  /**
   * Scans one chunk. The scanner copies whatever it keeps, so the caller may reuse `chunk`'s memory.
   * Returns false once the top-level object has closed; the caller can stop reading.
   */
  feed(chunk: Uint8Array): boolean {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      const state = this.state;
      if (state === S_NODES) {
        i = this.continueNodes(chunk, i);
      } else if (state === S_EDGES) {
        // Edges are half the file and nothing here needs them: one native search for the `]`. Their
        // content is not checked; a stray `]` inside would surface as an error after it.
        const close = chunk.indexOf(CLOSE_BRACKET, i);
        this.edgeNumbers?.take(chunk, i, close < 0 ? n : close);
        if (close < 0) {
          i = n;
        } else {
          i = close + 1;
          this.state = S_AFTER_VALUE;
          this.edgesDone = true;
        }
      } else if (state === S_IN_STRING) {
        i = this.continueString(chunk, i);
      } else if (state === S_HEADER || state === S_SKIP) {
        i = this.continueNested(chunk, i);
      } else if (state === S_DONE) {
        break;
      } else {
        i = this.structural(chunk, i);
      }
    }
    this.base += i;
    return this.state !== S_DONE;
  }

  /** Ends the input: returns the counts, with warnings for whatever the input did not finish. Throws when nothing can be counted. */
  finish(endReason?: string): V8SnapshotSummary {
    const warnings: string[] = [];
    const at = `${this.offsetLabel} ${this.base}`;
    const ended = endReason ?? 'the file ends';
    const complete = this.state === S_DONE;
    if (this.meta === undefined) {
      if (this.base === 0 && endReason === undefined) throw new InputError(`${this.source}: the file is empty`, 'pass a V8 .heapsnapshot file');
      if (complete) throw new InputError(`${this.source}: the JSON has no \`snapshot\` header; not a V8 heap snapshot`, 'pass a V8 .heapsnapshot file');
      throw new InputError(
        `${this.source}: ${ended} at ${at}, before the end of the \`snapshot\` header; there is nothing to count`,
        'take the heap snapshot again and let it finish writing',
      );
    }
    const scan = this.nodeScan;
    if (scan === undefined) {
      if (complete) throw new InputError(`${this.source}: the snapshot has no \`nodes\` array`, 'pass a V8 .heapsnapshot file');
      throw new InputError(
        `${this.source}: ${ended} at ${at}, before the \`nodes\` array; there is nothing to count`,
        'take the heap snapshot again and let it finish writing',
      );
    }
    if (!this.nodesDone && scan.nodes === 0) {
      throw new InputError(
        `${this.source}: ${ended} at ${at}, before the first complete node; there is nothing to count`,
        'take the heap snapshot again and let it finish writing',
      );
    }
    const groups: V8NodeGroup[] = [];
    const types = this.meta.nodeTypes;
    for (let t = 0; t <= scan.typeLimit; t++) {
      const instances = scan.typeInstances[t]!;
      if (instances > 0) {
        groups.push({ typeName: types[t], typeIndex: t, nameIndex: -1, name: undefined, instances, selfBytes: scan.typeBytes[t]! });
      }
    }
    let unresolved = 0;
    for (let slot = 0; slot < scan.slotInstances.length; slot++) {
      const t = scan.slotType[slot]!;
      const nameIndex = scan.slotName[slot]!;
      const name = this.names.get(nameIndex);
      if (name === undefined) unresolved++;
      groups.push({ typeName: types[t], typeIndex: t, nameIndex, name, instances: scan.slotInstances[slot]!, selfBytes: scan.slotBytes[slot]! });
    }

    const declared = this.meta.declaredNodeCount;
    const namesMissing = `${unresolved} constructor names are missing and shown by string index`;
    if (complete && endReason !== undefined) {
      warnings.push(`${ended} after the snapshot's closing brace (${at}); the counts are complete but the file is damaged`);
    } else if (!this.nodesDone) {
      const of = declared === undefined ? '' : ` of ${declared}`;
      const cutNode = scan.field === 0 ? '' : ' (the next one is cut off)';
      warnings.push(
        `${ended} at ${at}, inside \`nodes\`: only the first ${scan.nodes}${of} nodes are counted${cutNode}, ` +
          `and constructor names, stored at the end of the file, are missing`,
      );
    } else if (!complete) {
      const where = this.stringsDone ? 'after the `strings` table' : this.stringsStarted ? 'inside the `strings` table' : 'before the `strings` table';
      warnings.push(`${ended} at ${at}, ${where}: ${unresolved > 0 ? namesMissing : 'every node and name needed was read'}`);
    } else if (unresolved > 0) {
      warnings.push(`${namesMissing}: \`strings\` ${this.stringsDone ? 'is shorter than the nodes expect' : 'is absent'}`);
    }
    const unknownTypeNodes = scan.typeInstances[scan.typeLimit]!;
    if (unknownTypeNodes > 0) {
      const seen = [...scan.unknownTypes].join(', ') + (scan.unknownTypes.size >= 8 ? ', ...' : '');
      warnings.push(
        `${unknownTypeNodes} nodes have a type index outside \`meta.node_types\`, which names ${scan.typeLimit} types ` +
          `(seen: ${seen}); they are counted as one unknown type`,
      );
    }
    if (this.nodesDone && declared !== undefined && declared !== scan.nodes) {
      warnings.push(`the header declares ${declared} nodes but the \`nodes\` array holds ${scan.nodes}`);
    }
    const graph: V8RawGraph | undefined =
      this.nodeNumbers !== undefined
        ? {
            // A cut file leaves a node or an edge half read: only whole ones count.
            nodes: wholeRecords(this.nodeNumbers.end(), this.meta.nodeFields.length),
            edges: wholeRecords(this.edgeNumbers!.end(), Math.max(1, this.meta.edgeFields.length)),
            edgeFields: this.meta.edgeFields,
            edgeTypes: this.meta.edgeTypes,
            strings: this.names,
          }
        : undefined;
    if (graph !== undefined && this.nodesDone && !this.edgesDone)
      warnings.push(`${ended} inside \`edges\`: the references after the first ${graph.edges.length / Math.max(1, this.meta.edgeFields.length)} are missing`);
    return {
      nodeFields: this.meta.nodeFields,
      nodeTypes: types,
      ...(graph !== undefined ? { graph } : {}),
      declaredNodeCount: declared,
      nodesRead: scan.nodes,
      groups,
      warnings,
    };
  }

  private fail(what: string, at: number): never {
    throw new InputError(`${this.source}: ${what} at ${this.offsetLabel} ${at}`, 'check that the file is a complete, unmodified V8 .heapsnapshot');
  }

  private unexpected(c: number, where: string, at: number): never {
    const shown = c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `0x${c.toString(16).padStart(2, '0')}`;
    this.fail(`unexpected ${shown} ${where}`, at);
  }

  /** The small states between values: braces, keys, colons, commas and the openings of known arrays. */
  private structural(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    let i = from;
    while (i < n) {
      const c = chunk[i]!;
      const state = this.state;
      if (state === S_IN_KEY) {
        if (this.escaped) {
          this.escaped = false;
        } else if (c === BACKSLASH) {
          this.escaped = true;
          this.keyEscaped = true;
        } else if (c === QUOTE) {
          this.key = this.decodeKey();
          this.state = S_COLON;
          return i + 1;
        }
        if (this.keyBytes.length >= MAX_KEY_BYTES) this.fail('a top-level key longer than 4 KiB', this.base + i);
        this.keyBytes.push(c);
        i++;
        continue;
      }
      if (isSpace(c) || (state === S_START && this.base + i < 3 && (c === 0xef || c === 0xbb || c === 0xbf))) {
        // Whitespace, or a UTF-8 byte order mark before the opening brace.
        i++;
        continue;
      }
      const at = this.base + i;
      switch (state) {
        case S_START:
          if (c !== OPEN_BRACE) this.fail(`not a V8 heap snapshot: it does not start with '{' (found ${describeByte(c)})`, at);
          this.state = S_KEY_OR_END;
          return i + 1;
        case S_KEY_OR_END:
          if (c === CLOSE_BRACE && this.seenKeys.size === 0) {
            this.state = S_DONE;
            return i + 1;
          }
          if (c !== QUOTE) this.unexpected(c, 'where a top-level key should start', at);
          this.keyBytes = [];
          this.keyEscaped = false;
          this.escaped = false;
          this.state = S_IN_KEY;
          return i + 1;
        case S_COLON:
          if (c !== COLON) this.unexpected(c, `after the key "${this.key}"`, at);
          this.state = S_VALUE;
          return i + 1;
        case S_VALUE:
          return this.startValue(c, i, at);
        case S_AFTER_VALUE:
          if (c === COMMA) {
            this.state = S_KEY_OR_END;
            return i + 1;
          }
          if (c === CLOSE_BRACE) {
            this.state = S_DONE;
            return i + 1;
          }
          return this.unexpected(c, `after the value of "${this.key}"`, at);
        case S_NODES_OPEN:
          if (c !== OPEN_BRACKET) this.unexpected(c, 'where the `nodes` array should start', at);
          this.state = S_NODES;
          return i + 1;
        case S_EDGES_OPEN:
          if (c !== OPEN_BRACKET) this.unexpected(c, 'where the `edges` array should start', at);
          this.state = S_EDGES;
          return i + 1;
        case S_STRINGS_OPEN:
          if (c !== OPEN_BRACKET) this.unexpected(c, 'where the `strings` array should start', at);
          this.state = S_STRINGS_BETWEEN;
          return i + 1;
        case S_STRINGS_BETWEEN:
          if (c === COMMA) {
            i++;
            continue;
          }
          if (c === CLOSE_BRACKET) {
            this.stringsDone = true;
            this.state = S_AFTER_VALUE;
            return i + 1;
          }
          if (c !== QUOTE) this.unexpected(c, 'inside `strings`', at);
          this.startString();
          return i + 1;
        default:
          throw new Error(`V8 snapshot scanner: no handler for state ${state}`);
      }
    }
    return i;
  }

  private decodeKey(): string {
    const raw = Buffer.from(this.keyBytes).toString('utf8');
    if (!this.keyEscaped) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return raw;
    }
  }

  private startValue(c: number, i: number, at: number): number {
    const key = this.key;
    if (this.seenKeys.has(key)) this.fail(`the key "${key}" appears twice`, at);
    this.seenKeys.add(key);
    if (key === 'snapshot') {
      if (c !== OPEN_BRACE) this.unexpected(c, 'where the `snapshot` header object should start', at);
      this.beginNested(S_HEADER);
      this.headerAt = at;
      return i;
    }
    if (key === 'nodes') {
      if (this.meta === undefined) this.fail('`nodes` comes before the `snapshot` header that describes it', at);
      this.nodeScan = this.makeNodeScan(this.meta);
      this.nodeNumbers?.reserve((this.meta.declaredNodeCount ?? 0) * this.meta.nodeFields.length);
      this.state = S_NODES_OPEN;
      return i;
    }
    if (key === 'edges') {
      if (this.meta !== undefined) this.edgeNumbers?.reserve((this.meta.declaredEdgeCount ?? 0) * this.meta.edgeFields.length);
      this.state = S_EDGES_OPEN;
      return i;
    }
    if (key === 'strings') {
      if (this.nodeScan === undefined || !this.nodesDone) this.fail('`strings` comes before `nodes`, which is not a V8 layout', at);
      this.stringsStarted = true;
      if (this.nodeNumbers !== undefined) this.neededStrings = this.stringsTheGraphNeeds();
      this.state = S_STRINGS_OPEN;
      return i;
    }
    // Keys this reader has no use for (trace_tree, locations, samples, later additions) are skipped whatever they hold.
    this.beginNested(S_SKIP);
    return i;
  }

  private beginNested(state: number): void {
    this.state = state;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.valueStarted = false;
    this.headerPieces = [];
    this.headerBytes = 0;
  }

  /**
   * Walks one JSON value of any shape, counting brackets outside strings: the `snapshot` header
   * (kept, then parsed with JSON.parse) or a value being skipped.
   */
  private continueNested(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    const keep = this.state === S_HEADER;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let started = this.valueStarted;
    let i = from;
    let finishedAt = -1;
    for (; i < n; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 0) {
            finishedAt = i + 1;
            break;
          }
        }
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        started = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        started = true;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) {
          // The end of the enclosing object: the value was a bare scalar.
          finishedAt = i;
          break;
        }
        if (--depth === 0) {
          finishedAt = i + 1;
          break;
        }
      } else if (depth === 0 && (c === COMMA || isSpace(c))) {
        if (started) {
          finishedAt = i;
          break;
        }
      } else {
        started = true;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.valueStarted = started;
    const stop = finishedAt < 0 ? i : finishedAt;
    if (keep) {
      this.headerBytes += stop - from;
      if (this.headerBytes > MAX_HEADER_BYTES) this.fail('a `snapshot` header larger than 32 MiB', this.headerAt);
      this.headerPieces.push(Buffer.from(chunk.subarray(from, stop)));
    }
    if (finishedAt >= 0) {
      if (keep) {
        this.meta = this.parseHeader(Buffer.concat(this.headerPieces));
        this.headerPieces = [];
      }
      this.state = S_AFTER_VALUE;
    }
    return stop;
  }

  private parseHeader(text: Buffer): HeaderMeta {
    let header: unknown;
    try {
      header = JSON.parse(text.toString('utf8'));
    } catch (e) {
      this.fail(`the \`snapshot\` header is not valid JSON (${(e as Error).message.split('\n')[0]})`, this.headerAt);
    }
    const meta = (header as { meta?: unknown } | null)?.meta as { node_fields?: unknown; node_types?: unknown } | undefined;
    const nodeFields = meta?.node_fields;
    if (!Array.isArray(nodeFields) || !nodeFields.every((f) => typeof f === 'string')) {
      this.fail('the `snapshot` header has no `meta.node_fields` list', this.headerAt);
    }
    for (const needed of ['type', 'name', 'self_size']) {
      if (!nodeFields.includes(needed)) this.fail(`\`meta.node_fields\` has no "${needed}" field`, this.headerAt);
    }
    // node_types runs parallel to node_fields; the entry for "type" is the list of type names.
    const nodeTypesAll = meta?.node_types;
    const typeNames = Array.isArray(nodeTypesAll) ? nodeTypesAll[nodeFields.indexOf('type')] : undefined;
    if (!Array.isArray(typeNames) || !typeNames.every((t) => typeof t === 'string')) {
      this.fail('the `snapshot` header has no list of node type names in `meta.node_types`', this.headerAt);
    }
    const count = (header as { node_count?: unknown }).node_count;
    const edgeCount = (header as { edge_count?: unknown }).edge_count;
    // The edges' layout matters only to the memory analysis, which checks it.
    const edgeMeta = meta as { edge_fields?: unknown; edge_types?: unknown };
    const edgeFields =
      Array.isArray(edgeMeta.edge_fields) && edgeMeta.edge_fields.every((f) => typeof f === 'string') ? (edgeMeta.edge_fields as string[]) : [];
    const edgeTypesAll = Array.isArray(edgeMeta.edge_types) ? edgeMeta.edge_types[edgeFields.indexOf('type')] : undefined;
    const edgeTypes = Array.isArray(edgeTypesAll) && edgeTypesAll.every((t) => typeof t === 'string') ? (edgeTypesAll as string[]) : [];
    return {
      edgeFields,
      edgeTypes,
      declaredEdgeCount: typeof edgeCount === 'number' && Number.isSafeInteger(edgeCount) && edgeCount >= 0 ? edgeCount : undefined,
      nodeFields: nodeFields as string[],
      nodeTypes: typeNames as string[],
      declaredNodeCount: typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined,
    };
  }

  private makeNodeScan(meta: HeaderMeta): NodeScanState {
    const typeLimit = meta.nodeTypes.length;
    const groupedByName = new Uint8Array(typeLimit + 1);
    meta.nodeTypes.forEach((t, index) => {
      if (TYPES_GROUPED_BY_NAME.has(t)) groupedByName[index] = 1;
    });
    return {
      fieldCount: meta.nodeFields.length,
      typeField: meta.nodeFields.indexOf('type'),
      nameField: meta.nodeFields.indexOf('name'),
      sizeField: meta.nodeFields.indexOf('self_size'),
      typeLimit,
      unknownTypes: new Set(),
      groupedByName,
      typeInstances: new Float64Array(typeLimit + 1),
      typeBytes: new Float64Array(typeLimit + 1),
      slotOfKey: new Map(),
      slotType: [],
      slotName: [],
      slotInstances: [],
      slotBytes: [],
      phase: N_FIRST,
      value: 0,
      field: 0,
      type: 0,
      name: 0,
      size: 0,
      nodes: 0,
      lastKey: -1,
      lastSlot: 0,
      endAt: -1,
      badAt: -1,
    };
  }

  private continueNodes(chunk: Uint8Array, from: number): number {
    const scan = this.nodeScan!;
    const stop = scanNodes(chunk, from, scan);
    this.nodeNumbers?.take(chunk, from, stop);
    if (scan.badAt >= 0) {
      const at = this.base + scan.badAt;
      this.unexpected(chunk[scan.badAt]!, `inside \`nodes\` (node ${scan.nodes}, field ${scan.field})`, at);
    }
    if (scan.endAt < 0) return stop;
    if (scan.field !== 0) {
      this.fail(`\`nodes\` ends in the middle of a node (${scan.field} of ${scan.fieldCount} fields)`, this.base + scan.endAt);
    }
    this.nodesDone = true;
    this.state = S_AFTER_VALUE;
    this.neededIndexes = [...new Set(scan.slotName)].sort((a, b) => a - b);
    this.neededCursor = 0;
    return stop + 1;
  }

  /**
   * The strings the object graph reads: the names of the nodes grouped by name (class names) and of
   * synthetic nodes (root kinds), and the names of edges that have one (properties, variables);
   * a string's own content (most of the table) is not needed.
   */
  private stringsTheGraphNeeds(): Uint8Array {
    const meta = this.meta!;
    const nodes = this.nodeNumbers!.view();
    const edges = this.edgeNumbers!.view();
    const nf = meta.nodeFields.length;
    const typeF = meta.nodeFields.indexOf('type');
    const nameF = meta.nodeFields.indexOf('name');
    const named = new Uint8Array(meta.nodeTypes.length + 1);
    meta.nodeTypes.forEach((t, k) => (named[k] = TYPES_GROUPED_BY_NAME.has(t) || t === 'synthetic' ? 1 : 0));
    const ef = Math.max(1, meta.edgeFields.length);
    const eTypeF = meta.edgeFields.indexOf('type');
    const eNameF = meta.edgeFields.indexOf('name_or_index');
    // Element and hidden edges carry an index, not a string.
    const indexed = new Set(['element', 'hidden']);
    const namedEdge = meta.edgeTypes.map((t) => (indexed.has(t) ? 0 : 1));
    let max = 0;
    for (let k = nameF; k < nodes.length; k += nf) max = Math.max(max, nodes[k]!);
    if (eNameF >= 0) for (let k = eNameF; k < edges.length; k += ef) max = Math.max(max, edges[k]!);
    // A string index past 64 M is not a name a snapshot has (the file would be far bigger); it stays unread.
    const needed = new Uint8Array(Math.min(max + 1, 1 << 26));
    for (let k = 0; k + nf <= nodes.length; k += nf) if (named[Math.min(nodes[k + typeF]!, meta.nodeTypes.length)] === 1) needed[nodes[k + nameF]!] = 1;
    if (eTypeF >= 0 && eNameF >= 0) for (let k = 0; k + ef <= edges.length; k += ef) if (namedEdge[edges[k + eTypeF]!] === 1) needed[edges[k + eNameF]!] = 1;
    return needed;
  }

  private startString(): void {
    this.state = S_IN_STRING;
    this.namePieces = [];
    this.nameBytes = 0;
    this.trailingBackslashes = 0;
  }

  /** Finds the closing quote of the current string in `strings`, keeping its bytes if its name is needed. */
  private continueString(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    const needed = this.neededStrings !== undefined ? this.neededStrings[this.stringIndex] === 1 : this.neededIndexes[this.neededCursor] === this.stringIndex;
    let searchFrom = from;
    for (;;) {
      const quote = chunk.indexOf(QUOTE, searchFrom);
      if (quote < 0) {
        let run = 0;
        while (run < n - searchFrom && chunk[n - 1 - run] === BACKSLASH) run++;
        this.trailingBackslashes = run === n - searchFrom && searchFrom === 0 ? this.trailingBackslashes + run : run;
        if (needed) this.keepNamePiece(chunk, from, n);
        return n;
      }
      let run = 0;
      while (quote - 1 - run >= searchFrom && chunk[quote - 1 - run] === BACKSLASH) run++;
      // Only at a chunk's start can the run continue from the previous chunk; elsewhere a quote precedes it.
      if (searchFrom === 0 && run === quote) run += this.trailingBackslashes;
      this.trailingBackslashes = 0;
      if (run % 2 === 1) {
        searchFrom = quote + 1;
        continue;
      }
      if (needed) {
        this.keepNamePiece(chunk, from, quote);
        this.names.set(this.stringIndex, decodeJsonStringBody(Buffer.concat(this.namePieces)));
        this.namePieces = [];
        if (this.neededStrings === undefined) this.neededCursor++;
      }
      this.stringIndex++;
      this.state = S_STRINGS_BETWEEN;
      return quote + 1;
    }
  }

  private keepNamePiece(chunk: Uint8Array, from: number, to: number): void {
    const room = MAX_NAME_BYTES - this.nameBytes;
    const take = Math.min(room, to - from);
    if (take <= 0) return;
    this.namePieces.push(Buffer.from(chunk.subarray(from, from + take)));
    this.nameBytes += take;
  }
}

/** The numbers of whole records only (a cut file can end inside one). */
function wholeRecords(values: Float64Array, fields: number): Float64Array {
  return values.subarray(0, values.length - (values.length % fields));
}

function describeByte(c: number): string {
  return c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/** Decodes the text between a JSON string's quotes; a name cut at MAX_NAME_BYTES may end mid-escape, so that falls back to the raw text. */
function decodeJsonStringBody(body: Buffer): string {
  const raw = body.toString('utf8');
  if (body.indexOf(BACKSLASH) < 0) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
