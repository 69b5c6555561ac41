import { dotQuantized, INT8_SCALE, quantizeAll } from '../src';

function unit(values: number[]): Float32Array {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v);
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

const exactDot = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * b[i], 0);

describe('int8 storage of sentence vectors', () => {
  it('× 127, rounded half away from zero as Math.round does, clamped to ±127', () => {
    expect(Array.from(quantizeAll([Float32Array.from([1, -1, 0.5, -0.5, 0.1, 0, 1.2, -3])], 8))).toEqual([
      127, -127, 64, -63, 13, 0, 127, -127,
    ]);
    expect(INT8_SCALE).toBe(127);
  });

  it('packs the vectors one after the other', () => {
    expect(
      Array.from(quantizeAll([Float32Array.from([1, 0, 0]), Float32Array.from([0, -1, 0.5])], 3)),
    ).toEqual([127, 0, 0, 0, -127, 64]);
  });

  it('reads the cosine in float units at a vector offset: 1 with itself, -1 against its opposite', () => {
    const v = unit([3, 4]);
    const packed = quantizeAll([v.map((x) => -x), v], 2);
    expect(dotQuantized(v, packed, 2)).toBeCloseTo(1, 2);
    expect(dotQuantized(v, packed, 0)).toBeCloseTo(-1, 2);
  });

  it('over 200 random 384-d pairs the cosine with a float query moves by less than 0.01', () => {
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      const a = randomUnit(100 + i);
      const b = randomUnit(900 + i);
      worst = Math.max(worst, Math.abs(dotQuantized(a, quantizeAll([b], 384), 0) - exactDot(a, b)));
    }
    expect(worst).toBeLessThan(0.01);
  });
});
