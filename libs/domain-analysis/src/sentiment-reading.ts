import {
  bucketOf,
  DIMENSIONS,
  type BucketKey,
  type CommentScores,
  type Dimension,
  type ScoreVersion,
} from '@analyst/contracts';
import type { CommentColumns } from './columns';

/**
 * A v3 sentiment reading of 5 leans neither way (no sentiment signal, or content and topic pulling
 * equally apart). v3 has no neutral bucket, so such a comment is unscored on sentiment (left out of
 * the mix and the mean) instead of landing in lean_positive by the `>=` tie at the split. Scores are
 * stored to 2 decimals, so "5" is anything within half a hundredth of it.
 */
export function leansNeither(value: number): boolean {
  return Math.abs(value - 5) < 0.005;
}

function reading(sentiment: number, content: number, topic: number, version: ScoreVersion): number {
  if (version === 1) return sentiment;
  const hasContent = !Number.isNaN(content);
  const hasTopic = !Number.isNaN(topic);
  const value =
    hasContent && hasTopic ? (content + topic) / 2 : hasContent ? content : hasTopic ? topic : sentiment;
  return version === 3 && leansNeither(value) ? Number.NaN : value;
}

/**
 * A comment's sentiment as a version reads it: v1 the stored sentiment score; v2 and v3 the
 * 50/50 average of content and topic (one of them alone when the other is unscored, the stored
 * sentiment when both are). NaN when unscored, and in v3 when the reading is exactly 5 (see leansNeither).
 */
export function sentimentReadingAt(columns: CommentColumns, row: number, version: ScoreVersion): number {
  return reading(columns.sentiment[row], columns.content[row], columns.topic[row], version);
}

const nanOf = (value: number | null | undefined): number =>
  value === null || value === undefined ? Number.NaN : value;

/** The same reading over a stored comment record (the sampling routes use this). */
export function sentimentReading(scores: Partial<CommentScores>, version: ScoreVersion): number | null {
  const value = reading(nanOf(scores.sentiment), nanOf(scores.content), nanOf(scores.topic), version);
  return Number.isNaN(value) ? null : value;
}

/**
 * The mix bar a comment is counted in on each dimension, or null where unscored. Mixes, metrics
 * and comment samples all bucket through this, so a filtered sample returns exactly the comments
 * a bar counts.
 */
export function commentBuckets(
  scores: Partial<CommentScores>,
  version: ScoreVersion,
): Record<Dimension, BucketKey | null> {
  const out = {} as Record<Dimension, BucketKey | null>;
  for (const dimension of DIMENSIONS) {
    const value = dimension === 'sentiment' ? sentimentReading(scores, version) : (scores[dimension] ?? null);
    out[dimension] = value === null || Number.isNaN(value) ? null : bucketOf(dimension, value, version);
  }
  return out;
}
