/**
 * The one bucketing rule. A comment counted in a bar of a mix is the comment a sample filtered on
 * that bucket returns, so analysis, metrics, scoring and sampling all call these functions.
 */
export const BUCKET_KEYS = ['positive', 'lean_positive', 'neutral', 'lean_negative', 'negative'] as const;
export type BucketKey = (typeof BUCKET_KEYS)[number];

export const DIMENSIONS = ['sentiment', 'content', 'topic', 'relevance', 'consensus'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export type ScoreVersion = 1 | 2 | 3;

/** Cutoffs on the 1-10 scale (chosen; the spec names only the 4.5-5.5 neutral band and "below 3"). */
export const CUTOFFS = {
  positive: 7.5,
  leanPositive: 5.5,
  neutralLow: 4.5,
  leanNegative: 3,
  /** Where an unused middle band is split between the two lean buckets. */
  split: 5,
} as const;

/**
 * Dimensions with no neutral bucket: relevance and consensus always (their labels are four), and
 * overall sentiment in score version 3 (its 4.5-5.5 band is unused).
 */
export function hasNeutralBucket(dimension: Dimension, version: ScoreVersion): boolean {
  if (dimension === 'relevance' || dimension === 'consensus') return false;
  if (dimension === 'sentiment' && version === 3) return false;
  return true;
}

export function bucketOf(dimension: Dimension, score: number, version: ScoreVersion): BucketKey {
  if (score >= CUTOFFS.positive) return 'positive';
  if (score < CUTOFFS.leanNegative) return 'negative';
  if (hasNeutralBucket(dimension, version)) {
    if (score >= CUTOFFS.leanPositive) return 'lean_positive';
    if (score >= CUTOFFS.neutralLow) return 'neutral';
    return 'lean_negative';
  }
  return score >= CUTOFFS.split ? 'lean_positive' : 'lean_negative';
}

/** Filter labels accepted for relevance and consensus, and the bucket key each stands for. */
export const RELEVANCE_LABELS: Record<string, BucketKey> = {
  on_topic: 'positive',
  relevant: 'lean_positive',
  general: 'lean_negative',
  off_topic: 'negative',
};
export const CONSENSUS_LABELS: Record<string, BucketKey> = {
  agreeing: 'positive',
  discussing: 'lean_positive',
  debating: 'lean_negative',
  fighting: 'negative',
};
/** Dashboard labels of the content and topic mixes (accepted as filter values, echoed as keys). */
export const CONTENT_LABELS: Record<string, BucketKey> = {
  Supportive: 'positive',
  Receptive: 'lean_positive',
  Split: 'neutral',
  Skeptical: 'lean_negative',
  Opposed: 'negative',
};
export const TOPIC_LABELS: Record<string, BucketKey> = {
  Enthusiastic: 'positive',
  Favorable: 'lean_positive',
  Mixed: 'neutral',
  Critical: 'lean_negative',
  Hostile: 'negative',
};

/** Parses a filter value (bucket key or label) for a dimension; null when it is not valid there. */
export function parseBucket(dimension: Dimension, value: string): BucketKey | null {
  if ((BUCKET_KEYS as readonly string[]).includes(value)) return value as BucketKey;
  const labels =
    dimension === 'relevance'
      ? RELEVANCE_LABELS
      : dimension === 'consensus'
        ? CONSENSUS_LABELS
        : dimension === 'content'
          ? CONTENT_LABELS
          : dimension === 'topic'
            ? TOPIC_LABELS
            : {};
  return labels[value] ?? null;
}
