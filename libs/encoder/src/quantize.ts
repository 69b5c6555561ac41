/**
 * Storage form of a unit vector: each component × 127, rounded, clamped to ±127. A 384-dimension
 * vector takes 384 bytes instead of 1,536; a cosine read back from int8 moves by well under 0.01
 * (test), far less than what separates a match from a miss.
 */
export const INT8_SCALE = 127;

/** The int8 form of a unit vector. */
export function quantize(v: Float32Array): Int8Array {
  const out = new Int8Array(v.length);
  quantizeInto(v, out, 0);
  return out;
}

/** Writes the int8 form of `v` into `out` at `offset` (vectors packed one after the other). */
export function quantizeInto(v: Float32Array, out: Int8Array, offset: number): void {
  for (let d = 0; d < v.length; d++)
    out[offset + d] = Math.max(-INT8_SCALE, Math.min(INT8_SCALE, Math.round(v[d] * INT8_SCALE)));
}

/** The float form back (each component / 127): no longer exactly unit length. */
export function dequantize(q: Int8Array, offset = 0, dims = q.length - offset): Float32Array {
  const out = new Float32Array(dims);
  for (let d = 0; d < dims; d++) out[d] = q[offset + d] / INT8_SCALE;
  return out;
}

/**
 * The cosine of two unit vectors, one stored as int8 at `aOffset` of `a` (a packed array), the
 * other a float vector or another int8 one at `bOffset`, over `dims` components (default: the
 * rest of b). Scaled back to cosine units: ±1 for equal or opposite vectors, as their float dot.
 */
export function dotInt8(
  a: Int8Array,
  aOffset: number,
  b: Float32Array | Int8Array,
  bOffset = 0,
  dims = b.length - bOffset,
): number {
  let sum = 0;
  for (let d = 0; d < dims; d++) sum += a[aOffset + d] * b[bOffset + d];
  return b instanceof Int8Array ? sum / (INT8_SCALE * INT8_SCALE) : sum / INT8_SCALE;
}

/** The dot product of two float vectors (their cosine when both are unit length). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d] * b[d];
  return sum;
}
