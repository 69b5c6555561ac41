import {
  calibratedRelevance,
  COSINE_PRIOR,
  DEFAULT_MIN_RELEVANCE,
  RELEVANCE_FLOOR,
  SEARCH_CALIBRATION,
  selectionCosines,
} from '../src';

describe('search calibration: what a relevance means', () => {
  it('measures a selection against its own cosines, a small one pulled toward the prior', () => {
    // No comments: the prior itself.
    const empty = selectionCosines([]);
    expect(empty.mean).toBeCloseTo(COSINE_PRIOR.mean, 10);
    expect(empty.sd).toBeCloseTo(COSINE_PRIOR.sd, 10);
    // 20 comments at 0.5 weigh as much as the prior's 20: the mean lands halfway.
    const twenty = selectionCosines(new Array(20).fill(0.5));
    expect(twenty.mean).toBeCloseTo((0.5 + COSINE_PRIOR.mean) / 2, 10);
    // Comments without text (NaN) are left out.
    expect(selectionCosines([0.5, NaN, 0.5, NaN])).toEqual(selectionCosines([0.5, 0.5]));
    // A large selection is measured by itself.
    const large = selectionCosines(Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? 0.1 : 0.3)));
    expect(large.mean).toBeCloseTo(0.2, 3);
    expect(large.sd).toBeCloseTo(0.1, 3);
  });

  it('rises with the cosine and with the lift over the selection', () => {
    const selection = { mean: 0.1, sd: 0.1 };
    const low = calibratedRelevance(0.2, selection, 0);
    const high = calibratedRelevance(0.6, selection, 0);
    expect(high).toBeGreaterThan(low);
    // The same cosine means less where every comment is that close to the query.
    expect(calibratedRelevance(0.6, { mean: 0.5, sd: 0.1 }, 0)).toBeLessThan(high);
  });

  it('keeps a comment holding every query word at the default, whatever its meaning', () => {
    const unrelated = { mean: 0.5, sd: 0.05 };
    expect(calibratedRelevance(0, unrelated, 0)).toBe(0); // below the floor: never kept
    expect(calibratedRelevance(0, unrelated, 1)).toBeGreaterThanOrEqual(DEFAULT_MIN_RELEVANCE);
    expect(SEARCH_CALIBRATION.keywordShare).toBeGreaterThanOrEqual(DEFAULT_MIN_RELEVANCE);
    // Half of the query's words alone stay under it.
    expect(calibratedRelevance(0, unrelated, 0.5)).toBeLessThan(DEFAULT_MIN_RELEVANCE);
    expect(calibratedRelevance(0, unrelated, 0.5)).toBeCloseTo(0.5 * SEARCH_CALIBRATION.keywordShare, 2);
  });

  it('reads 0 below the floor, so minRelevance 0 keeps only what is related at all', () => {
    expect(calibratedRelevance(-0.2, { mean: 0.3, sd: 0.05 }, 0)).toBe(0);
    expect(RELEVANCE_FLOOR).toBeGreaterThan(0);
  });
});
