import { bucketOf } from '@analyst/contracts';
import { compoundToScore } from '../src/vader';
import { classCompound } from '../src/languages/class-compound';
import { LinearHead } from '../src/languages/linear-head';
import { HASHED_FEATURES, sentimentFeatures } from '../src/languages/sentiment-features';

// The parts of a language reader: its features, its head and the mapping of its classes onto the
// compound scale.

const bucketOfCompound = (c: number) =>
  bucketOf('sentiment', Math.round(compoundToScore(c) * 1000) / 1000, 1);

describe('classCompound', () => {
  it('lands in the v1 bucket of the winning class, deeper as the class is surer', () => {
    expect(bucketOfCompound(classCompound([0.1, 0.2, 0.7]))).toBe('positive');
    expect(bucketOfCompound(classCompound([0.3, 0.3, 0.4]))).toBe('lean_positive');
    expect(bucketOfCompound(classCompound([0.5, 0.3, 0.2]))).toBe('lean_negative');
    expect(bucketOfCompound(classCompound([0.7, 0.2, 0.1]))).toBe('negative');
    expect(bucketOfCompound(classCompound([0.9, 0.05, 0.05]))).toBe('negative');
    for (const neutral of [
      [0.05, 0.9, 0.05],
      [0.45, 0.5, 0.05],
      [0.05, 0.5, 0.45],
    ])
      expect(bucketOfCompound(classCompound(neutral))).toBe('neutral');
    expect(classCompound([0.1, 0.2, 0.7])).toBeGreaterThan(classCompound([0.3, 0.3, 0.4]));
    expect(classCompound([0.9, 0.05, 0.05])).toBeLessThan(classCompound([0.5, 0.3, 0.2]));
  });
});

describe('sentimentFeatures', () => {
  const has = (text: string, language: 'es' | 'de', other: string) => {
    const a = new Set(sentimentFeatures(text, language).indices);
    return sentimentFeatures(other, language).indices.filter((i) => !a.has(i)).length;
  };

  it('reads the words after a negator as negated, up to a clause break', () => {
    // "gusta" after "no" is a feature of its own; after the comma "bueno" is plain again.
    expect(has('me gusta', 'es', 'no me gusta')).toBeGreaterThan(0);
    const plain = new Set(sentimentFeatures('bueno', 'es').indices);
    const afterBreak = sentimentFeatures('no me gusta, bueno', 'es').indices;
    expect(afterBreak.filter((i) => plain.has(i) && i < HASHED_FEATURES)).toHaveLength(
      [...plain].filter((i) => i < HASHED_FEATURES).length,
    );
  });

  it('takes the lexicon readings after the hashed features: positive, negative, flipped by a negator', () => {
    const dense = (text: string) => {
      const { indices, values } = sentimentFeatures(text, 'de');
      const d = new Map(indices.map((index, k) => [index - HASHED_FEATURES, values[k]]));
      return { positive: d.get(0) ?? 0, negative: d.get(1) ?? 0, negated: d.get(6) ?? 0 };
    };
    expect(dense('das ist gut')).toMatchObject({ positive: expect.any(Number), negative: 0, negated: 0 });
    expect(dense('das ist gut').positive).toBeGreaterThan(0);
    // The lexicon lists "nicht gut" itself; an unlisted negation flips the word's sign.
    expect(dense('das ist nicht gut')).toMatchObject({ positive: 0, negated: 1 });
    expect(dense('das ist nicht gut').negative).toBeGreaterThan(0);
    expect(dense('das ist kein Erfolg').negative).toBeGreaterThan(0);
    expect(dense('das ist ein Erfolg').positive).toBeGreaterThan(0);
  });

  it('scales each group to unit length, so a long text weighs like a short one', () => {
    const { indices, values } = sentimentFeatures('super super super video', 'de');
    const hashedNorm = indices.reduce(
      (sum, index, k) => (index < HASHED_FEATURES ? sum + values[k] ** 2 : sum),
      0,
    );
    expect(hashedNorm).toBeCloseTo(2, 6); // words + character n-grams, each of length 1
  });
});

describe('LinearHead', () => {
  it('refuses weights of the wrong size instead of reading past them', () => {
    expect(
      () => new LinearHead({ hashedScale: 1, bias: [0, 0, 0], dense: [[], [], []], hashed: 'AAAA' }),
    ).toThrow(/expected/);
  });

  it('gives probabilities that sum to 1, from its bias alone for a text without features', () => {
    const hashed = Buffer.alloc(3 * HASHED_FEATURES).toString('base64');
    const head = new LinearHead({ hashedScale: 1, bias: [0, Math.log(2), 0], dense: [[], [], []], hashed });
    expect(head.probabilities({ indices: [], values: [] })).toEqual([0.25, 0.5, 0.25]);
  });
});
