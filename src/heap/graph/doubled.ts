/** A stack kept in an Int32Array, twice as long, its entries copied: a walk grows it as deep as it goes (most heap walks are shallow). */
export function doubled(stack: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(stack.length * 2);
  bigger.set(stack);
  return bigger;
}
