import { CUTOFFS, type ScoreVersion } from '@analyst/contracts';

/**
 * Every number the rollups choose where the spec says "not shown". The scores table of
 * docs/scoring-models-and-data.md copies these; a test pins each one.
 */
export const ROLLUP_CONSTANTS = {
  /** serviceScore = weighted blend of the three readings; sentiment carries the most. */
  blend: { sentiment: 0.6, relevance: 0.2, consensus: 0.2 },
  /** v3 engagement weight range for sentiment readings (content and topic included). */
  minEngagementWeight: 1,
  maxEngagementWeight: 5,
  /** v3: replies together weigh at most this share of the top-level comments' combined weight. */
  replyPoolShare: 0.5,
  /** A "very negative" comment for the v3 cap: sentiment reading below this. */
  veryNegativeBelow: CUTOFFS.leanNegative,
  /** v3 ceiling as a piecewise-linear curve over the very-negative share: [share, ceiling]. */
  capCurve: [
    [0, 10],
    [0.05, 10],
    [0.12, 8.5],
    [0.25, 7],
    [0.5, 5.5],
    [1, 5.5],
  ] as ReadonlyArray<readonly [number, number]>,
  scoreDecimals: 2,
  percentDecimals: 1,
} as const;

export interface RollupSettings {
  scoreVersion: ScoreVersion;
  /** 0 to 10 (team setting, default 1); 0 turns likes weighting off. */
  engagementWeight: number;
}

export const DEFAULT_ROLLUP_SETTINGS: RollupSettings = { scoreVersion: 3, engagementWeight: 1 };

export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/**
 * `part` as a percentage of `whole`, rounded half up to `decimals`. Scaling before the one division
 * keeps whole counts exact: (979 / 2000) * 100 is 48.949999… in binary and would round to 48.9,
 * while 979 * 1000 / 2000 is exactly 489.5 and rounds to 49.0, the true half-up answer.
 */
export function percentOf(part: number, whole: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round((part * 100 * f) / whole) / f;
}
