/**
 * How the encoder search turns what it measures into a relevance 0..1:
 * - **meaning**: a logistic regression fitted on the validation split of the paraphrase bench
 *   (`bench/search-calibrate.ts`; the test split is never read to fit it), with the classes
 *   weighted equally, over the cosine of the query's and the comment's sentence vectors and the
 *   lift: how far that cosine stands above the searched comments' own (their mean and spread,
 *   `SelectionCosines`), since how high cosines run differs from one query to the next. Beside
 *   the bench's sections, selections of unrelated comments only are among the negatives, so the
 *   lift alone does not carry the top of a selection where nothing is relevant;
 * - **keywords**: BM25 (0..1: about 1 when the comment holds every query word) counts for
 *   `keywordShare` of it, combined as either-can-carry: 1 − (1 − meaning)(1 − share × keywords).
 *   The bench's comments share no word with their query by design, so this share is set by a
 *   rule, not fitted: a comment with all the query's words is kept at the default `minRelevance`,
 *   one with a single word of a longer query is not unless its meaning agrees.
 */
export interface SearchCalibration {
  intercept: number;
  cosine: number;
  lift: number;
  keywordShare: number;
}

/** Fitted by `npm run bench -- bench/search-calibrate.ts` (see the comment-index README). */
export const SEARCH_CALIBRATION: SearchCalibration = {
  intercept: -2.194,
  cosine: 6.665,
  lift: 0.975,
  keywordShare: 0.85,
};

/**
 * The `minRelevance` a search uses when the request names none: the threshold with the best
 * macro-F1 (precision and recall balanced) on the bench's validation split, and what a comment
 * holding every query word reaches (`keywordShare`).
 */
export const DEFAULT_MIN_RELEVANCE = 0.82;

/**
 * What a query's cosines with unrelated comments look like (the simulator's comments, measured by
 * the calibration bench): a small selection's mean and spread are pulled toward these, as if it
 * held `comments` more comments like them, so a post of ten comments has a steady lift.
 */
export interface CosinePrior {
  mean: number;
  sd: number;
  /** How many comments' worth of weight the prior has. */
  comments: number;
}

export const COSINE_PRIOR: CosinePrior = { mean: 0.082, sd: 0.08, comments: 20 };

/** The searched comments' cosines with the query: what a comment's lift is measured against. */
export interface SelectionCosines {
  mean: number;
  sd: number;
}

/** Mean and spread of the cosines (NaN ones, comments without text, left out), shrunk toward the prior. */
export function selectionCosines(
  cosines: ArrayLike<number>,
  prior: CosinePrior = COSINE_PRIOR,
): SelectionCosines {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < cosines.length; i++) {
    const c = cosines[i];
    if (c !== c) continue;
    n++;
    sum += c;
    squares += c * c;
  }
  const k = prior.comments;
  const mean = (sum + k * prior.mean) / (n + k);
  const second = (squares + k * (prior.sd ** 2 + prior.mean ** 2)) / (n + k);
  return { mean, sd: Math.sqrt(Math.max(1e-6, second - mean * mean)) };
}

/** Below this a comment is unrelated: relevance 0, never kept, whatever `minRelevance` is. */
export const RELEVANCE_FLOOR = 0.02;

export function calibratedRelevance(
  cosine: number,
  selection: SelectionCosines,
  keywords: number,
  calibration: SearchCalibration = SEARCH_CALIBRATION,
): number {
  const lift = (cosine - selection.mean) / selection.sd;
  const meaning =
    1 / (1 + Math.exp(-(calibration.intercept + calibration.cosine * cosine + calibration.lift * lift)));
  const relevance = 1 - (1 - meaning) * (1 - calibration.keywordShare * Math.min(1, keywords));
  return relevance < RELEVANCE_FLOOR ? 0 : relevance;
}
