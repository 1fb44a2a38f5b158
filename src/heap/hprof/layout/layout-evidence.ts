/**
 * What the object ids of a dump say about the layout of the JVM that wrote it. HotSpot's ids are
 * addresses, and its heap dumper writes each space's objects in address order, so the distance from
 * one object to the next in the file is most often the first one's size: never less. Over thousands
 * of arrays the smallest such distances give the array header and the width of a reference, as Eclipse
 * MAT tells compressed references from object arrays packed closer than 8 bytes per element; the low
 * bits common to all ids give the object alignment.
 *
 * Fed with every object record in file order; a few comparisons per object.
 */

/** Distances past this are not taken as one object's size: another space, a gap, an id of another kind. */
const MAX_DISTANCE = 1 << 24;

export class LayoutEvidence {
  /** The low byte of every id, ORed: its lowest set bit is the alignment all ids share. */
  private lowBits = 0;
  objects = 0;
  /** Smallest distance from a byte or boolean array to the next object, less its length: the array base offset (and padding). */
  byteArrayBase = Infinity;
  byteArraysMeasured = 0;
  /** Object arrays of 3 or more elements followed closer than 16 + 8 per element (only 4-byte references fit). */
  packedObjectArrays = 0;
  /** Object arrays of 3 or more elements measured at all. */
  objectArraysMeasured = 0;
  /** Distances shorter than any object can be: the ids are not addresses (the old hprof agent numbers its objects). */
  impossibleDistances = 0;

  private previousId = -1;
  /** What the previous object was: 0 another object, 1 a byte or boolean array, 2 an object array. */
  private previousKind = 0;
  private previousLength = 0;

  /** An instance or a class object (their sizes are not measured here). */
  other(id: number): void {
    this.measure(id);
    this.previousKind = 0;
  }

  /** A primitive array; `elementBytes` 1 for byte and boolean arrays. */
  primitiveArray(id: number, elementBytes: number, length: number): void {
    this.measure(id);
    this.previousKind = elementBytes === 1 ? 1 : 0;
    this.previousLength = length;
  }

  objectArray(id: number, length: number): void {
    this.measure(id);
    this.previousKind = 2;
    this.previousLength = length;
  }

  /** The alignment every id shares, up to 256 bytes; 1 when there are no ids. */
  sharedAlignment(): number {
    const bits = this.lowBits | 256;
    return bits & -bits;
  }

  /**
   * Adds what `next` gathered from the objects right after these (the next part of the file, read
   * at the same time): the same evidence as one pass over both, the distance across the cut included.
   */
  append(next: LayoutEvidenceState): void {
    if (next.objects === 0) return;
    this.distanceTo(next.firstId);
    this.lowBits |= next.lowBits;
    this.objects += next.objects;
    if (next.byteArrayBase < this.byteArrayBase) this.byteArrayBase = next.byteArrayBase;
    this.byteArraysMeasured += next.byteArraysMeasured;
    this.packedObjectArrays += next.packedObjectArrays;
    this.objectArraysMeasured += next.objectArraysMeasured;
    this.impossibleDistances += next.impossibleDistances;
    this.previousId = next.previousId;
    this.previousKind = next.previousKind;
    this.previousLength = next.previousLength;
  }

  /** What append needs, as data that crosses to another thread. */
  state(): LayoutEvidenceState {
    const { lowBits, objects, byteArrayBase, byteArraysMeasured, packedObjectArrays, objectArraysMeasured, impossibleDistances } = this;
    const { firstId, previousId, previousKind, previousLength } = this;
    return {
      lowBits,
      objects,
      byteArrayBase,
      byteArraysMeasured,
      packedObjectArrays,
      objectArraysMeasured,
      impossibleDistances,
      firstId,
      previousId,
      previousKind,
      previousLength,
    };
  }

  /** The first object's id, whose distance from the objects before is measured when the part before is appended to. */
  private firstId = -1;

  private measure(id: number): void {
    if (this.objects++ === 0) this.firstId = id;
    // Numbers past 2^32 keep their low 32 bits under `&`: the low byte is exact.
    this.lowBits |= id & 255;
    this.distanceTo(id);
  }

  /** Measures the previous object by the distance to the one at `id`, and makes that the previous. */
  private distanceTo(id: number): void {
    const distance = id - this.previousId;
    if (this.previousId >= 0 && distance > 0 && distance < MAX_DISTANCE) {
      if (distance < 8) this.impossibleDistances++;
      else if (this.previousKind === 1) {
        this.byteArraysMeasured++;
        const base = distance - this.previousLength;
        if (base < this.byteArrayBase) this.byteArrayBase = base;
      } else if (this.previousKind === 2 && this.previousLength >= 3) {
        this.objectArraysMeasured++;
        if (distance < 16 + 8 * this.previousLength) this.packedObjectArrays++;
      }
    }
    this.previousId = id;
  }
}

export interface LayoutEvidenceState {
  readonly lowBits: number;
  readonly objects: number;
  readonly byteArrayBase: number;
  readonly byteArraysMeasured: number;
  readonly packedObjectArrays: number;
  readonly objectArraysMeasured: number;
  readonly impossibleDistances: number;
  readonly firstId: number;
  readonly previousId: number;
  readonly previousKind: number;
  readonly previousLength: number;
}
