import { dequantize, dot, dotInt8, INT8_SCALE, quantize, quantizeInto } from '@analyst/encoder';

function unit(values: number[]): Float32Array {
  const v = Float32Array.from(values);
  const norm = Math.sqrt(dot(v, v));
  return v.map((x) => x / norm);
}

/** A deterministic pseudo-random unit vector (LCG), 384 components. */
function randomUnit(seed: number): Float32Array {
  let s = seed;
  return unit(
    Array.from({ length: 384 }, () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31 - 0.5;
    }),
  );
}

describe('int8 storage of unit vectors', () => {
  it('quantize: × 127, rounded half away from zero as Math.round does, clamped to ±127', () => {
    expect(Array.from(quantize(Float32Array.from([1, -1, 0.5, -0.5, 0.1, 0, 1.2, -3])))).toEqual([
      127, -127, 64, -63, 13, 0, 127, -127,
    ]);
    expect(INT8_SCALE).toBe(127);
  });

  it('quantizeInto packs vectors one after the other; dequantize reads one back', () => {
    const packed = new Int8Array(6);
    quantizeInto(Float32Array.from([1, 0, 0]), packed, 0);
    quantizeInto(Float32Array.from([0, -1, 0.5]), packed, 3);
    expect(Array.from(packed)).toEqual([127, 0, 0, 0, -127, 64]);
    expect(Array.from(dequantize(packed, 3, 3))).toEqual([0, -1, 64 / 127].map((x) => Math.fround(x)));
  });

  it('dotInt8 is the cosine in float units: 1 for a vector with itself, -1 against its opposite', () => {
    const v = unit([3, 4]);
    const q = quantize(v);
    expect(dotInt8(q, 0, v)).toBeCloseTo(1, 2);
    expect(dotInt8(q, 0, quantize(v.map((x) => -x)))).toBeCloseTo(-1, 2);
  });

  it('reads the stored vector at its offset, against a float or an int8 query (offset and dims)', () => {
    const a = randomUnit(1);
    const b = randomUnit(2);
    const packed = new Int8Array(768);
    quantizeInto(a, packed, 0);
    quantizeInto(b, packed, 384);
    const exact = dot(a, b);
    expect(Math.abs(dotInt8(packed, 384, a) - exact)).toBeLessThan(0.01);
    expect(Math.abs(dotInt8(packed, 0, packed, 384, 384) - exact)).toBeLessThan(0.01);
  });

  it('over 200 random pairs the int8 cosine moves by less than 0.01 (float query) and 0.015 (both int8)', () => {
    let floatQuery = 0;
    let bothInt8 = 0;
    for (let i = 0; i < 200; i++) {
      const a = randomUnit(100 + i);
      const b = randomUnit(900 + i);
      const exact = dot(a, b);
      floatQuery = Math.max(floatQuery, Math.abs(dotInt8(quantize(b), 0, a) - exact));
      bothInt8 = Math.max(bothInt8, Math.abs(dotInt8(quantize(b), 0, quantize(a)) - exact));
    }
    expect(floatQuery).toBeLessThan(0.01);
    expect(bothInt8).toBeLessThan(0.015);
  });
});
