import { BUCKET_KEYS, type BucketKey } from '@analyst/contracts';
import { ROLLUP_CONSTANTS, percentOf } from './rollup-settings';

/** Five-bucket percentages, 0 to 100 each. */
export interface Mix {
  positivePercent: number;
  leanPositivePercent: number;
  neutralPercent: number;
  leanNegativePercent: number;
  negativePercent: number;
}

export const MIX_FIELD: Record<BucketKey, keyof Mix> = {
  positive: 'positivePercent',
  lean_positive: 'leanPositivePercent',
  neutral: 'neutralPercent',
  lean_negative: 'leanNegativePercent',
  negative: 'negativePercent',
};

/** Index of a bucket key in BUCKET_KEYS (counts arrays are laid out in that order). */
export const BUCKET_INDEX: Record<BucketKey, number> = {
  positive: 0,
  lean_positive: 1,
  neutral: 2,
  lean_negative: 3,
  negative: 4,
};

export const EMPTY_MIX: Mix = Object.freeze({
  positivePercent: 0,
  leanPositivePercent: 0,
  neutralPercent: 0,
  leanNegativePercent: 0,
  negativePercent: 0,
});

/**
 * Percentages of comments (not weights) per bucket, each rounded on its own to 0.1, so a bar is
 * exactly the share of the comments a sample filtered on it returns and the five add up to 100
 * within rounding (±0.25). No comments: every bar 0.
 */
export function mixOf(counts: ArrayLike<number>): Mix {
  let total = 0;
  for (let i = 0; i < BUCKET_KEYS.length; i++) total += counts[i];
  if (total === 0) return { ...EMPTY_MIX };
  const mix = {} as Mix;
  BUCKET_KEYS.forEach((key, i) => {
    mix[MIX_FIELD[key]] = percentOf(counts[i], total, ROLLUP_CONSTANTS.percentDecimals);
  });
  return mix;
}

/** The mix percentage of one bucket (used by post-list filters `min_<bucket>_percent`). */
export function mixPercent(mix: Mix, bucket: BucketKey): number {
  return mix[MIX_FIELD[bucket]];
}
