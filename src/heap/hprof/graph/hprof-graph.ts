/**
 * Builds the ObjectGraph of an HPROF file (plain or gzip) in one streaming pass. Every object is a
 * node with the shallow size the histogram gives it; every reference is an edge: instance fields
 * through the class hierarchy, array elements, a class's super, loader and static references, and
 * each object's class. What a thread's stack holds (Java-frame and JNI-local roots, which name
 * their thread) hangs under that thread's object, as MAT does, so a thread retains its locals.
 * References to ids not in the dump are counted and left out.
 */
import type { ProgressListener } from '../../../model/progress.js';
import type { ObjectGraph, SizeColumn, SizeModel, StackLocals } from '../../graph/object-graph.js';
import type { WasteFacts } from '../../waste/waste-facts.js';
import { feedHprof, type FeedOptions, hprofBytesToSizeFor, isGzipFile, type PassEnd, passEnd } from '../byte-source.js';
import { ClassMetadata } from '../class-metadata.js';
import { basicTypeSize, isReferenceType, primitiveArrayClassName, readIdAt, SUB } from '../format.js';
import { truncationWarning } from '../hprof-warnings.js';
import { LayoutEvidence } from '../layout/layout-evidence.js';
import { chooseLayout, ObjectSizes } from '../layout/object-layout.js';
import { type IndexedHprof, ObjectIndex } from '../object-index.js';
import { type ClassDumpRecord, HprofFormatError, HprofParser, type HprofVisitor, MAX_DELIVERED_BODY, readId as readIdIn } from '../parser.js';
import { StackTraceCollector } from '../stack-traces.js';
import { ClassKeys } from './class-keys.js';
import { HASHED_MAX_OBJECTS, type IdIndex, idIndex } from './id-index.js';
import { InstanceLayouts } from './instance-layouts.js';
import { ObjectColumns, RefStore } from './pass-columns.js';
import { MISSING_CLASS, NO_CLASS_EDGE, referentsOf, resolveEdges } from './resolve-edges.js';
import { WastePass } from './waste-pass.js';

/** MAT's names for the root kinds, in the words the memory report uses. */
const ROOT_KIND_NAMES: Readonly<Record<number, string>> = {
  [SUB.ROOT_UNKNOWN]: 'unknown',
  [SUB.ROOT_JNI_GLOBAL]: 'jni-global',
  [SUB.ROOT_JNI_LOCAL]: 'jni-local',
  [SUB.ROOT_JAVA_FRAME]: 'java-frame',
  [SUB.ROOT_NATIVE_STACK]: 'native-stack',
  [SUB.ROOT_STICKY_CLASS]: 'system-class',
  [SUB.ROOT_THREAD_BLOCK]: 'thread-block',
  [SUB.ROOT_MONITOR_USED]: 'busy-monitor',
  [SUB.ROOT_THREAD_OBJ]: 'thread',
  // Android's root kinds, named as MAT and Android Studio name them.
  [SUB.ROOT_INTERNED_STRING]: 'interned-string',
  [SUB.ROOT_FINALIZING]: 'finalizing',
  [SUB.ROOT_DEBUGGER]: 'debugger',
  [SUB.ROOT_REFERENCE_CLEANUP]: 'reference-cleanup',
  [SUB.ROOT_VM_INTERNAL]: 'vm-internal',
  [SUB.ROOT_JNI_MONITOR]: 'jni-monitor',
  [SUB.UNREACHABLE]: 'unreachable',
};

/** The object graph of a dump, in a pass of its own (see hprofGraphBuilder for one on the heap loader's). */
export async function hprofObjectGraph(path: string, onProgress?: ProgressListener, feed: Omit<FeedOptions, 'onProgress' | 'tee'> = {}): Promise<ObjectGraph> {
  return (await hprofObjectGraphIndexed(path, onProgress, feed)).graph;
}

/**
 * The object graph of a dump in a pass of its own and, for a plain file, where its objects lie (a
 * sparse index, 24 bytes per 256 objects) with the pass's class metadata: what names the steps of
 * the paths from a GC root reads a few blocks of the file, not the whole file again (on a 1.9 GB
 * dump, a second pass took about a second). A gzip file cannot seek: it has no index.
 */
export async function hprofObjectGraphIndexed(
  path: string,
  onProgress?: ProgressListener,
  feed: Omit<FeedOptions, 'onProgress' | 'tee'> = {},
  build: GraphBuildOptions = {},
): Promise<{ graph: ObjectGraph; indexed?: IndexedHprof; wasteFacts?: WasteFacts }> {
  const meta = new ClassMetadata();
  const builder = hprofGraphBuilder(hprofBytesToSizeFor(path), meta, true, build);
  const index = (feed.gzip ?? isGzipFile(path)) ? undefined : new ObjectIndex();
  const parser: HprofParser = new HprofParser(index === undefined ? builder.visitor : indexingVisitor(builder.visitor, index, () => parser));
  const fed = await feedHprof(path, parser, onProgress !== undefined ? { ...feed, onProgress } : feed);
  const end = passEnd(parser, fed);
  const graph = builder.finish(end);
  const wasteFacts = builder.takeWasteFacts();
  const facts = wasteFacts !== undefined ? { wasteFacts } : {};
  // Another heap dump of the same file may follow the last block: blocks are read only where the file holds one.
  const usable = index?.usable === true && end.header !== undefined && !fed.gzip && fed.truncatedAt === undefined && parser.heapDumps <= 1;
  return usable ? { graph, indexed: { path, header: end.header!, index: index!, meta }, ...facts } : { graph, ...facts };
}

/** `visitor`, with each object's place in the file noted in `index` as its header is met (the parser says where it is). */
function indexingVisitor(visitor: HprofVisitor, index: ObjectIndex, parser: () => HprofParser): HprofVisitor {
  const { instanceHeader, objectArrayHeader, primitiveArrayHeader } = visitor;
  return {
    ...visitor,
    instanceHeader: (id, classId, byteLength) => {
      index.note(id, parser());
      return instanceHeader!(id, classId, byteLength);
    },
    objectArrayHeader: (id, classId, length) => {
      index.note(id, parser());
      return objectArrayHeader!(id, classId, length);
    },
    primitiveArrayHeader: (id, type, length) => {
      index.note(id, parser());
      return primitiveArrayHeader!(id, type, length);
    },
  };
}

/** A pass's visitor that builds the object graph, and what makes the graph once the pass is over. */
export interface HprofGraphBuilder {
  readonly visitor: HprofVisitor;
  finish(pass: PassEnd): ObjectGraph;
  /** With `waste`: what the memory-waste analysis needs of the dump beyond the graph, gathered on the same pass (once: it is let go when taken). */
  takeWasteFacts(): WasteFacts | undefined;
}

export interface GraphBuildOptions {
  /** Also gather the facts of memory waste (heap/waste/waste-facts.ts) on the same pass. */
  readonly waste?: boolean;
}

/**
 * Builds the graph from the records of a pass it does not run itself: its own (hprofObjectGraph) or
 * the heap loader's first pass, which the builder rides on (one parse of the dump for both).
 * `hprofBytes` sizes the arrays; `meta` is the pass's class metadata, filled by this visitor when
 * `ownsMeta` and by the pass's owner otherwise (then its classDump must be called before this one's:
 * the loader's names are not decoded again, a fixed cost of every pass that weighs most on a small heap).
 */
export function hprofGraphBuilder(hprofBytes: number, meta: ClassMetadata, ownsMeta: boolean, options: GraphBuildOptions = {}): HprofGraphBuilder {
  const pass = new GraphPass(hprofBytes, meta, ownsMeta);
  const waste = options.waste === true ? new WastePass(meta, () => pass.lastIndex(), pass.capacity()) : undefined;
  pass.waste = waste;
  // Arrow functions over the pass: the parser calls its visitor's members unbound, and the class
  // metadata's own members (utf8, loadClass) join them when the pass fills the metadata itself.
  const visitor: HprofVisitor = {
    ...(ownsMeta ? meta.visitor() : {}),
    ...pass.stacks.visitor(),
    header: (h) => {
      pass.header(h.idSize);
      if (waste !== undefined) waste.idSize = h.idSize;
    },
    classDump: (c) => pass.classDump(c),
    root: (subTag, id, threadSerial, frame) => pass.root(subTag, id, threadSerial, frame),
    instanceHeader: (id, classId, byteLength) => pass.instanceHeader(id, classId, byteLength),
    instanceFields:
      waste === undefined
        ? (id, classId, view, at, length) => pass.instanceFields(id, classId, view, at, length)
        : (id, classId, view, at, length) => {
            pass.instanceFields(id, classId, view, at, length);
            waste.instanceFields(classId, view, at, length);
          },
    objectArrayHeader: () => pass.objectArrayHeader(),
    objectArrayElements: (id, classId, view, at, length) => pass.objectArrayElements(id, classId, view, at, length),
    objectArrayPiece: (id, classId, view, at, count, first, length) => pass.objectArrayPiece(id, classId, view, at, count, first, length),
    primitiveArrayHeader:
      waste === undefined
        ? (id, type, length) => pass.primitiveArrayHeader(id, type, length)
        : (id, type, length) => {
            const graphWants = pass.primitiveArrayHeader(id, type, length);
            return waste.primitiveArrayHeader(type, length) || graphWants;
          },
    ...(waste !== undefined
      ? { primitiveArrayBytes: (_id: number, type: number, view: DataView, at: number, length: number) => waste.primitiveArrayBytes(type, view, at, length) }
      : {}),
  };
  return { visitor, finish: (end) => pass.finish(end), takeWasteFacts: () => pass.takeWasteFacts() };
}

/**
 * A GC root record as met: its kind (the sub-record tag), its object and, for a stack's roots, its
 * thread's serial and (Java-frame and JNI-local roots) the frame's depth in the thread's stack trace.
 */
interface RootRecord {
  readonly kind: number;
  readonly id: number;
  readonly thread: number;
  readonly frame: number;
}

/** An instance whose class (or a superclass) was not dumped yet when it was met: its data, decoded after the pass. */
interface LateInstance {
  readonly index: number;
  readonly classId: number;
  readonly data: Buffer;
}

/** What the graph's pass gathers from the records, and the graph made from it once the pass is over. */
class GraphPass {
  private idSize = 8;
  private readonly columns: ObjectColumns;
  /** Referenced ids, in the order met, resolved to object indexes after the pass. */
  private readonly targets: RefStore;
  private readonly keys = new ClassKeys();
  private readonly layouts: InstanceLayouts;
  private readonly late: LateInstance[] = [];
  private readonly classObjects: ClassDumpRecord[] = [];
  // Weak, soft, phantom and finalizer references and their referents, for strong-only paths.
  private readonly referenceObjects: number[] = [];
  private readonly referentIds: number[] = [];
  private readonly roots: RootRecord[] = [];
  private readonly threadObjectBySerial = new Map<number, number>();
  /** The threads' stack traces (small: a few frames a thread), to name the frame of each Java-frame root. */
  readonly stacks = new StackTraceCollector();
  /** Objects too big to be handed over: counted with their sizes, their references left out. */
  private unread = 0;
  /** What the ids say about the layout; sizes are settled after the pass, under the layout they show. */
  private readonly evidence = new LayoutEvidence();
  /**
   * How each class key's objects are sized after the pass: -1 instances (of the key's class), else
   * primitive arrays of that many bytes per element, their shallow holding their length until then.
   * An object array's shallow holds minus one less its length (a damaged dump may give an instance
   * class's id to an array).
   */
  private readonly keyElementBytes: number[] = [];
  /**
   * The id of the class each key's objects are of and reference (every object of a key is of one
   * class; 0: none, as for arrays of a type the dump names no class for), and how many objects
   * reference a class.
   */
  private readonly keyClassId: number[] = [];
  private classRefs = 0;
  private sizeModel: SizeModel | undefined;
  /** What rides on this pass for the memory-waste analysis, and what it gathered once the pass is over. */
  waste: WastePass | undefined;
  private wasteFacts: WasteFacts | undefined;

  constructor(
    hprofBytes: number,
    private readonly meta: ClassMetadata,
    private readonly ownsMeta: boolean,
  ) {
    // Sized from the dump (an object takes about 50 bytes of HPROF), so the columns rarely grow (a
    // growth holds the old and the new columns at once). Room never filled is never touched, and
    // memory never touched is not taken.
    this.columns = new ObjectColumns(Math.max(1 << 12, Math.min(1 << 30, Math.ceil(hprofBytes / 48))));
    this.targets = new RefStore();
    this.layouts = new InstanceLayouts(meta, this.keys);
  }

  /** How many objects the columns have room for (an estimate from the dump's size). */
  capacity(): number {
    return this.columns.capacity;
  }

  /** The index of the object added last. */
  lastIndex(): number {
    return this.columns.length - 1;
  }

  takeWasteFacts(): WasteFacts | undefined {
    const facts = this.wasteFacts;
    this.wasteFacts = undefined;
    return facts;
  }

  header(idSize: number): void {
    this.idSize = idSize;
    this.layouts.idSize = idSize;
  }

  classDump(c: ClassDumpRecord): void {
    if (this.ownsMeta) this.meta.classDumps.set(c.id, c);
    this.classObjects.push(c);
    this.addObject(c.id, this.keys.classObjectKey, 0); // sized after the pass, as the histogram sizes java.lang.Class
    this.ref(c.superId);
    this.ref(c.loaderId);
    for (const s of c.statics) if (isReferenceType(s.type) && typeof s.value === 'number') this.ref(s.value);
  }

  root(subTag: number, id: number, threadSerial: number, frame: number): void {
    this.roots.push({ kind: subTag, id, thread: threadSerial, frame });
    if (subTag === SUB.ROOT_THREAD_OBJ) {
      this.threadObjectBySerial.set(threadSerial, id);
      this.stacks.threadRoot(id, threadSerial, frame); // a thread root's third field is its stack trace's serial
    }
  }

  // A body too big to hand over is not asked for (in the loader's pass, asking would put the parser's
  // refusal among the load's warnings, or need more buffer than a byte source keeps): the object
  // counts, with its size and class, and its references are left out.
  instanceHeader(id: number, classId: number, byteLength: number): boolean {
    if (byteLength <= MAX_DELIVERED_BODY) return true;
    this.addInstance(id, classId, this.keys.forClassId(classId));
    this.unread++;
    return false;
  }

  instanceFields(id: number, classId: number, view: DataView, at: number, length: number): void {
    const key = this.keys.forClassId(classId);
    const layout = this.layouts.of(classId, key);
    this.addInstance(id, classId, key);
    if (layout === undefined) {
      // A copy: the parser's buffer is reused.
      this.late.push({ index: this.columns.length - 1, classId, data: Buffer.from(new Uint8Array(view.buffer, view.byteOffset + at, length)) });
      return;
    }
    const idSize = this.idSize;
    const offsets = layout.refOffsets;
    for (let i = 0; i < offsets.length; i++) this.ref(readIdIn(view, at + offsets[i]!, idSize));
    if (layout.referentOffset >= 0) {
      const referent = readIdIn(view, at + layout.referentOffset, idSize);
      if (referent !== 0) {
        this.referenceObjects.push(this.columns.length - 1);
        this.referentIds.push(referent);
      }
    }
  }

  objectArrayHeader(): boolean {
    return true;
  }

  objectArrayElements(id: number, classId: number, view: DataView, at: number, length: number): void {
    const idSize = this.idSize;
    this.addArray(id, this.keys.forClassId(classId), 0, length, classId);
    for (let i = 0, o = at; i < length; i++, o += idSize) this.ref(readIdIn(view, o, idSize));
  }

  /** A big array's elements as they arrive: its node is added with the first piece, and its edges follow it unbroken. */
  objectArrayPiece(id: number, classId: number, view: DataView, at: number, count: number, first: number, length: number): void {
    const idSize = this.idSize;
    if (first === 0) this.addArray(id, this.keys.forClassId(classId), 0, length, classId);
    for (let i = 0, o = at; i < count; i++, o += idSize) this.ref(readIdIn(view, o, idSize));
  }

  /**
   * A primitive array references its class and nothing else, as every object does in MAT (the class
   * of `byte[]` is then reachable through its arrays): its header says all, its data is never asked for.
   */
  primitiveArrayHeader(id: number, type: number, length: number): boolean {
    const key = this.keys.forPrimitiveArray(type);
    // Found once per type: a key holds the arrays of one type.
    this.addArray(id, key, basicTypeSize(type, 8), length, this.keyClassId[key] ?? this.primitiveArrayClassId(type));
    return false;
  }

  /** The class id of a primitive array type, by its name (`[B`, or the agent's `byte[]`); 0 when the dump has none. */
  private primitiveArrayClassId(type: number): number {
    const descriptor = PRIMITIVE_DESCRIPTORS[type];
    return descriptor === undefined ? 0 : (this.meta.classIdNamed(`[${descriptor}`) ?? this.meta.classIdNamed(primitiveArrayClassName(type)) ?? 0);
  }

  finish(end: PassEnd): ObjectGraph {
    const { header, fed } = end;
    if (header === undefined) throw new HprofFormatError('the file ends before the HPROF header does');
    const warnings = [...end.warnings];
    if (fed.truncatedAt !== undefined) warnings.push(truncationWarning(fed));
    if (this.unread > 0)
      warnings.push(
        `${this.unread} objects of over ${MAX_DELIVERED_BODY / 1048576} MiB each were not read: they count with their sizes, their references are left out`,
      );

    const n = this.columns.length;
    const { ids, idScale, classKeys, held, edgeStart } = this.columns.finish(this.targets.length);
    const slotOfId = idIndex(ids, idScale);
    if (slotOfId.duplicates > 0)
      warnings.push(
        `${slotOfId.duplicates} objects repeat the id of an object written before them (a damaged dump): each is counted where it is written, ` +
          'and a reference to such an id leads to one of them',
      );
    // Before the sizes take the place of the arrays' lengths.
    this.wasteFacts = this.waste?.finish(slotOfId, held, n, (classId) => this.keys.forClassId(classId));
    this.waste = undefined;
    const layout = chooseLayout(header.idSize, this.evidence, this.meta);
    const sizes = new ObjectSizes(layout, this.meta);
    const shallow = this.settleSizes(sizes, classKeys, held, n);
    const classObjectNames = sizeClassObjects(this.classObjects, slotOfId, shallow, sizes, this.meta);
    this.keys.nameClassIds(this.meta);
    const { lateEdges, unsized } = decodeLateInstances(this.late, this.layouts, this.idSize);
    if (unsized > 0) warnings.push(`${unsized} instances of classes the dump has no class record for: their references and sizes are unknown`);

    // Edges: the pass's own, the late instances', and each thread's locals under its thread object.
    const { localsOf, rootObjects, rootKindOf, rootKinds } = placeRoots(this.roots, slotOfId, this.threadObjectBySerial);
    const stackLocals = stackLocalsOf(this.roots, slotOfId, this.threadObjectBySerial, rootKindOf, this.stacks, this.meta);
    const classEdges = { classOf: classKeys, targets: this.classTargets(slotOfId), count: this.classRefs };
    const { edgeStart: outStart, edges, missing } = resolveEdges(n, edgeStart, this.targets, slotOfId, lateEdges, localsOf, classEdges);
    if (rootObjects.length === 0 && n > 0) {
      // No root records (a dump cut before them, or a tool that writes none): as MAT does for such
      // dumps, the objects nothing references stand for the roots.
      addUnreferencedObjects(n, edges, rootObjects);
      rootKinds['unreferenced'] = rootObjects.length;
      warnings.push(
        `the dump holds no GC root records: the ${rootObjects.length} objects nothing references were taken as the roots, ` +
          'as MAT does for such dumps; retained sizes are approximate',
      );
    }
    return {
      objects: n,
      // Views of the arrays filled (their spare room is not worth a copy of a few hundred MB).
      ids,
      idScale,
      classOf: classKeys,
      classNames: this.keys.names,
      shallow,
      edgeStart: outStart,
      edges,
      roots: Int32Array.from(new Set(rootObjects)),
      rootKinds,
      missingReferences: missing,
      warnings,
      ...(fed.truncatedAt !== undefined ? { cut: truncationWarning(fed) } : {}),
      classObjectNames,
      definingLoaders: definingLoadersOf(this.classObjects, slotOfId),
      ...(this.sizeModel !== undefined ? { sizeModel: this.sizeModel } : {}),
      // Objects are added in index order, so the reference objects are ascending.
      referents: referentsOf(this.referenceObjects, this.referentIds, slotOfId),
      rootKindOf,
      ...(stackLocals !== undefined ? { stackLocals } : {}),
      // Kept only where the table is small (its closure holds nothing else of the pass).
      ...(n <= HASHED_MAX_OBJECTS ? { indexOfId: lookupIn(slotOfId) } : {}),
    };
  }

  private addObject(id: number, key: number, size: number): void {
    this.columns.add(id, key, size, this.targets.length);
  }

  private addInstance(id: number, classId: number, key: number): void {
    this.evidence.other(id);
    this.keyElementBytes[key] ??= -1;
    this.addObject(id, key, 0);
    this.classRef(key, classId);
  }

  /** An array (`elementBytes` 0 for references), its length in place of its size until the layout is known; `classId` its class's. */
  private addArray(id: number, key: number, elementBytes: number, length: number, classId: number): void {
    if (elementBytes === 0) {
      this.evidence.objectArray(id, length);
      this.addObject(id, key, -1 - length);
    } else {
      this.evidence.primitiveArray(id, elementBytes, length);
      this.keyElementBytes[key] ??= elementBytes;
      this.addObject(id, key, length);
    }
    this.classRef(key, classId);
  }

  /**
   * An object's reference to its class, which is its first edge. Not stored with the other references:
   * every object of a key references the same class, so it is found once per key after the pass
   * (classTargets), where storing and resolving it per object took half of the references' memory and time.
   */
  private classRef(key: number, classId: number): void {
    this.keyClassId[key] ??= classId;
    if (classId !== 0) this.classRefs++;
  }

  /**
   * Every instance and array sized under the layout the dump shows: in 32 bits, in the place of what
   * the pass held (each slot read before it is written), unless a size needs more (an array of over 4
   * GB), then as doubles.
   */
  private settleSizes(sizes: ObjectSizes, classKeys: Int32Array, held: Int32Array, n: number): SizeColumn {
    const keyCount = this.keys.names.length;
    const instanceSize = new Float64Array(keyCount);
    const elementBytes = new Int32Array(keyCount);
    for (let k = 0; k < keyCount; k++) {
      const e = this.keyElementBytes[k];
      if (e === undefined) continue;
      elementBytes[k] = e;
      if (e === -1) instanceSize[k] = sizes.instance(this.keyClassId[k]!);
    }
    const referenceBytes = sizes.layout.referenceBytes;
    const sizeOf = (i: number): number => {
      const h = held[i]!;
      if (h < 0) return sizes.array(referenceBytes, -1 - h);
      const e = elementBytes[classKeys[i]!]!;
      return e === -1 ? instanceSize[classKeys[i]!]! : e > 0 ? sizes.array(e, h) : h;
    };
    this.sizeModel = { summary: sizes.layout.summary, reasons: sizes.layout.reasons };
    let largest = 0;
    for (let i = 0; i < n; i++) largest = Math.max(largest, sizeOf(i));
    const shallow = largest < 4294967296 ? new Uint32Array(held.buffer, held.byteOffset, n) : new Float64Array(n);
    for (let i = 0; i < n; i++) shallow[i] = sizeOf(i);
    return shallow;
  }

  /** The object index of the class each key's objects reference: NO_CLASS_EDGE for none (class objects), MISSING_CLASS when not in the dump. */
  private classTargets(slotOfId: IdIndex): Int32Array {
    const targets = new Int32Array(this.keys.names.length).fill(NO_CLASS_EDGE);
    this.keyClassId.forEach((classId, key) => {
      if (classId === 0) return;
      const index = slotOfId.get(classId);
      targets[key] = index >= 0 ? index : MISSING_CLASS;
    });
    return targets;
  }

  private ref(id: number): void {
    if (id !== 0) this.targets.push(id);
  }
}

/** Classes are sized as the histogram sizes java.lang.Class instances; returns each class object's name by object index. */
function sizeClassObjects(
  classObjects: readonly ClassDumpRecord[],
  slotOfId: IdIndex,
  shallow: SizeColumn,
  sizes: ObjectSizes,
  meta: ClassMetadata,
): Map<number, string> {
  const names = new Map<number, string>();
  for (const c of classObjects) {
    const index = slotOfId.get(c.id);
    shallow[index] = sizes.classObject(c);
    names.set(index, meta.className(c.id));
  }
  return names;
}

/** Each class object's defining loader, by object index: the classes of a loader the dump holds (not the boot loader's, id 0). */
function definingLoadersOf(classObjects: readonly ClassDumpRecord[], slotOfId: IdIndex): Map<number, number> {
  const out = new Map<number, number>();
  for (const c of classObjects) {
    if (c.loaderId === 0) continue;
    const loader = slotOfId.get(c.loaderId);
    if (loader >= 0) out.set(slotOfId.get(c.id), loader);
  }
  return out;
}

/** The sizes and references of the instances met before their class chain was complete (the ids, unresolved), by object index. */
function decodeLateInstances(late: readonly LateInstance[], layouts: InstanceLayouts, idSize: number): { lateEdges: Map<number, number[]>; unsized: number } {
  const lateEdges = new Map<number, number[]>();
  let unsized = 0;
  for (const l of late) {
    const layout = layouts.of(l.classId);
    if (layout === undefined) {
      unsized++;
      continue;
    }
    lateEdges.set(
      l.index,
      [...layout.refOffsets].map((o) => readIdAt(l.data, o, idSize)).filter((id) => id !== 0),
    );
  }
  return { lateEdges, unsized };
}

/**
 * Where each GC root goes: what a thread's stack holds (Java-frame and JNI-local roots of a known
 * thread) under that thread's object, as MAT does, so a thread retains its locals; every other root
 * is a root of the graph. Also each root object's first kind and the count of each kind.
 */
const ROOTS_OF_A_THREAD = new Set<number>([SUB.ROOT_JAVA_FRAME, SUB.ROOT_JNI_LOCAL, SUB.ROOT_NATIVE_STACK, SUB.ROOT_THREAD_BLOCK]);

/** The JVM's descriptor letter of each HPROF primitive type code, for the class name of its arrays (`[B`). */
const PRIMITIVE_DESCRIPTORS: Readonly<Record<number, string>> = { 4: 'Z', 5: 'C', 6: 'F', 7: 'D', 8: 'B', 9: 'S', 10: 'I', 11: 'J' };

function placeRoots(roots: readonly RootRecord[], slotOfId: IdIndex, threadObjectBySerial: ReadonlyMap<number, number>) {
  const localsOf = new Map<number, number[]>();
  const rootObjects: number[] = [];
  const rootKindOf = new Map<number, string>();
  const rootKinds: Record<string, number> = {};
  for (const r of roots) {
    const kind = ROOT_KIND_NAMES[r.kind] ?? `0x${r.kind.toString(16)}`;
    rootKinds[kind] = (rootKinds[kind] ?? 0) + 1;
    const target = slotOfId.get(r.id);
    if (target < 0) continue;
    // A thread's locals, native-stack and thread-block roots hang under its thread object, as in MAT.
    const threadId = ROOTS_OF_A_THREAD.has(r.kind) ? threadObjectBySerial.get(r.thread) : undefined;
    const thread = threadId !== undefined ? slotOfId.get(threadId) : -1;
    if (thread >= 0) {
      const list = localsOf.get(thread);
      if (list === undefined) localsOf.set(thread, [target]);
      else list.push(target);
    } else {
      rootObjects.push(target);
      // The kind that makes it a root of the graph: a thread held by another thread's stack too is a `thread` root.
      if (!rootKindOf.has(target)) rootKindOf.set(target, kind);
    }
  }
  return { localsOf, rootObjects, rootKindOf, rootKinds };
}

/** Adds the objects no edge points to, ascending, to `into` (one by one: there may be millions). */
function addUnreferencedObjects(n: number, edges: Int32Array, into: number[]): void {
  const referenced = new Uint8Array(n);
  for (let e = 0; e < edges.length; e++) referenced[edges[e]!] = 1;
  for (let v = 0; v < n; v++) if (referenced[v] === 0) into.push(v);
}

/** An IdIndex as a function, holding only the index (a closure made inside the pass would hold all of it). */
function lookupIn(index: IdIndex): (id: number) => number {
  return (id) => index.get(id);
}

/**
 * The Java-frame roots of the objects no other kind of root holds (a thread's object held by another
 * thread's local is a root of its own; a local of a thread the dump has no object for is a root by its
 * frame), each with its thread's object and its frame, ascending by object; undefined when there are none.
 * Frame depths index the thread's stack trace, top first,
 * as HotSpot's dumper numbers them.
 */
function stackLocalsOf(
  roots: readonly RootRecord[],
  slotOfId: IdIndex,
  threadObjectBySerial: ReadonlyMap<number, number>,
  graphRoots: ReadonlyMap<number, string>,
  stacks: StackTraceCollector,
  meta: ClassMetadata,
): StackLocals | undefined {
  const held: Array<{ object: number; thread: number; depth: number; frame: number }> = [];
  const frameTexts: string[] = [];
  const frameIndex = new Map<string, number>();
  let framesBySerial: Map<number, readonly string[]> | undefined;
  for (const r of roots) {
    if (r.kind !== SUB.ROOT_JAVA_FRAME) continue;
    const object = slotOfId.get(r.id);
    const rootKind = graphRoots.get(object);
    if (object < 0 || (rootKind !== undefined && rootKind !== 'java-frame')) continue;
    framesBySerial ??= new Map(stacks.threadRoots(meta).flatMap((t) => (t.frames !== undefined ? [[t.threadSerial, t.frames] as const] : [])));
    const threadId = threadObjectBySerial.get(r.thread);
    const text = r.frame >= 0 ? framesBySerial.get(r.thread)?.[r.frame] : undefined;
    let frame = -1;
    if (text !== undefined) {
      frame = frameIndex.get(text) ?? frameTexts.length;
      if (frame === frameTexts.length) {
        frameTexts.push(text);
        frameIndex.set(text, frame);
      }
    }
    held.push({ object, thread: threadId !== undefined ? slotOfId.get(threadId) : -1, depth: r.frame, frame });
  }
  if (held.length === 0) return undefined;
  held.sort((a, b) => a.object - b.object || a.thread - b.thread || a.depth - b.depth);
  return {
    objects: Int32Array.from(held, (h) => h.object),
    threads: Int32Array.from(held, (h) => h.thread),
    depths: Int32Array.from(held, (h) => h.depth),
    frames: Int32Array.from(held, (h) => h.frame),
    frameTexts,
  };
}
