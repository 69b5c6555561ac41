/** Share of a match's relevance that the comment's own relevance score (1-10) can move. */
export const OWN_RELEVANCE_SHARE = 0.2;

/**
 * Relevance of a comment that matches the query by `match` (0..1): the match, scaled between
 * 0.8× (an off-topic comment, score 1) and 1× (score 10); an unscored comment counts as 5.5. A
 * comment that does not match stays at 0 whatever its score, so `minRelevance` reads as "how well
 * it matches", nudged by how on-topic the comment is.
 */
export function withOwnRelevance(match: number, ownScore: number): number {
  if (match <= 0) return 0;
  const own = ownScore === ownScore ? Math.max(0, Math.min(1, (ownScore - 1) / 9)) : 0.5;
  return match * (1 - OWN_RELEVANCE_SHARE + OWN_RELEVANCE_SHARE * own);
}
