import { ROLLUP_CONSTANTS } from './rollup-settings';

/**
 * v3 engagement weight of one sentiment reading: 1 + 4 · s^(1/e), where s = ln(1+likes) / ln(1+maxLikes)
 * is the comment's log-likes relative to the most-liked comment in the rollup and e the team's
 * `engagementWeight`. The most-liked comment weighs 5, a comment without likes 1; e = 1 is linear
 * in log-likes, a larger e lifts moderately liked comments towards 5, e = 0 turns weighting off.
 */
export function engagementWeight(likes: number, maxLikes: number, e: number): number {
  return engagementWeigher(maxLikes, e)(likes);
}

/** `engagementWeight` with the rollup-wide parts computed once. */
export function engagementWeigher(maxLikes: number, e: number): (likes: number) => number {
  const { minEngagementWeight: lo, maxEngagementWeight: hi } = ROLLUP_CONSTANTS;
  if (!(e > 0) || !(maxLikes > 0)) return () => lo;
  const logMax = Math.log1p(maxLikes);
  const invE = 1 / e;
  return (likes) => (likes > 0 ? lo + (hi - lo) * Math.min(1, Math.log1p(likes) / logMax) ** invE : lo);
}

/**
 * v3 reply pool: replies keep their relative weights but together weigh at most
 * `replyPoolShare` × the top-level comments' combined weight. Returns the factor applied to every
 * reply weight (1 when under the cap, or when there are no top-level comments to compare with).
 */
export function replyPoolFactor(topLevelWeight: number, replyWeight: number): number {
  if (replyWeight <= 0 || topLevelWeight <= 0) return 1;
  return Math.min(1, (ROLLUP_CONSTANTS.replyPoolShare * topLevelWeight) / replyWeight);
}

/** v3 ceiling for a share (0..1) of very negative comments: the piecewise-linear cap curve. */
export function negativityCeiling(veryNegativeShare: number): number {
  const curve = ROLLUP_CONSTANTS.capCurve;
  const q = Math.min(1, Math.max(0, veryNegativeShare));
  for (let i = 1; i < curve.length; i++) {
    const [q1, c1] = curve[i];
    if (q <= q1) {
      const [q0, c0] = curve[i - 1];
      return q1 === q0 ? c1 : c0 + ((c1 - c0) * (q - q0)) / (q1 - q0);
    }
  }
  return curve[curve.length - 1][1];
}
