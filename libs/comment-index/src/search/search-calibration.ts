/**
 * How the encoder search turns what it measures into a relevance: a logistic regression over the
 * cosine of the query's and the comment's sentence vectors and the keyword match (BM25, 0..1),
 * fitted on the validation split of the paraphrase bench (`bench/search-calibrate.ts`; the test
 * split is never read to fit it). So a relevance is the estimated chance that the comment says
 * what the query asks, and `minRelevance` 0.5 reads "more likely than not".
 */
export interface SearchCalibration {
  intercept: number;
  cosine: number;
  keywords: number;
  /** Cosine × keywords: a shared word counts for more when the meaning agrees. */
  both: number;
}

/** Fitted by `npm run bench -- bench/search-calibrate.ts` (see the comment-index README). */
export const SEARCH_CALIBRATION: SearchCalibration = {
  intercept: -9.5,
  cosine: 17,
  keywords: 2,
  both: 2,
};

/** Below this a comment is unrelated: relevance 0, never kept, whatever `minRelevance` is. */
export const RELEVANCE_FLOOR = 0.02;

export function calibratedRelevance(
  cosine: number,
  keywords: number,
  calibration: SearchCalibration = SEARCH_CALIBRATION,
): number {
  const z =
    calibration.intercept +
    calibration.cosine * cosine +
    calibration.keywords * keywords +
    calibration.both * cosine * keywords;
  const p = 1 / (1 + Math.exp(-z));
  return p < RELEVANCE_FLOOR ? 0 : p;
}
