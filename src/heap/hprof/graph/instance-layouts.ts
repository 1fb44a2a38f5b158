/**
 * Where the references sit in an instance's data, per class: HPROF writes an instance's field values
 * with no names or types, in the order of its class's fields and then each superclass's, so the
 * layout is known only once the class and all its superclasses have been dumped.
 */
import type { ClassMetadata } from '../class-metadata.js';
import { basicTypeSize, isReferenceType } from '../format.js';
import type { ClassDumpRecord } from '../parser.js';
import type { ClassKeys } from './class-keys.js';

/** Where the reference fields of a class's instances sit in their data (own fields first, then the superclasses'). */
export interface InstanceLayout {
  readonly refOffsets: Int32Array;
  /** Offset of java.lang.ref.Reference's `referent` for references, else -1: paths to roots skip it. */
  readonly referentOffset: number;
}

/** Instance layouts by class key (a class id's key is its slot), made when first asked for and the class chain is complete. */
export class InstanceLayouts {
  /** Bytes of an id in the dump, known from its header. */
  idSize = 8;
  private readonly byKey: Array<InstanceLayout | undefined> = [];

  constructor(
    private readonly meta: ClassMetadata,
    private readonly keys: ClassKeys,
  ) {}

  /** The layout of a class's instances, undefined while a class of its chain is not dumped yet. */
  of(classId: number, key: number = this.keys.forClassId(classId)): InstanceLayout | undefined {
    const known = this.byKey[key];
    if (known !== undefined) return known;
    const meta = this.meta;
    const chain: ClassDumpRecord[] = [];
    const seen = new Set<number>();
    for (let c = meta.classDumps.get(classId); c !== undefined && !seen.has(c.id); c = meta.classDumps.get(c.superId)) {
      seen.add(c.id);
      chain.push(c);
    }
    if (chain.length === 0 || chain[chain.length - 1]!.superId !== 0) return undefined; // a superclass not yet dumped
    let offset = 0;
    const refs: number[] = [];
    let referentOffset = -1;
    fields: for (const c of chain) {
      const isReference = c.fields.length > 0 && meta.className(c.id) === 'java.lang.ref.Reference';
      for (const f of c.fields) {
        const ref = isReferenceType(f.type);
        if (ref) refs.push(offset);
        if (ref && isReference && meta.fieldName(f.nameId) === 'referent') referentOffset = offset;
        const size = basicTypeSize(f.type, this.idSize);
        // A type code HPROF does not have (the parser warned): where the later fields lie is unknown.
        if (size === 0) break fields;
        offset += size;
      }
    }
    const layout = {
      refOffsets: Int32Array.from(refs),
      referentOffset,
    };
    this.byKey[key] = layout;
    return layout;
  }
}
