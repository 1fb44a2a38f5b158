/** Typed arrays that grow by doubling while a pass appends to them; `view()` is the filled part. */
type NumberArray = Int32Array | Uint32Array | Float64Array;

export class Growable<A extends NumberArray> {
  private data: A;
  length = 0;
  constructor(
    private readonly make: (capacity: number) => A,
    capacity: number,
  ) {
    this.data = make(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  view(): A {
    return this.data.subarray(0, this.length) as A;
  }
}

export class GrowableInt32 extends Growable<Int32Array> {
  constructor(capacity = 1024) {
    super((n) => new Int32Array(n), capacity);
  }
}

export class GrowableFloat64 extends Growable<Float64Array> {
  constructor(capacity = 1024) {
    super((n) => new Float64Array(n), capacity);
  }
}
