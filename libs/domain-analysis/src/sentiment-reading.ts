import { bucketOf, DIMENSIONS, type BucketKey, type CommentScores, type Dimension, type ScoreVersion } from '@analyst/contracts';
import type { CommentColumns } from './columns';

function reading(sentiment: number, content: number, topic: number, version: ScoreVersion): number {
  if (version === 1) return sentiment;
  const hasContent = !Number.isNaN(content);
  const hasTopic = !Number.isNaN(topic);
  if (hasContent && hasTopic) return (content + topic) / 2;
  if (hasContent) return content;
  if (hasTopic) return topic;
  return sentiment;
}

/**
 * A comment's sentiment as a version reads it: v1 the stored sentiment score; v2 and v3 the
 * 50/50 average of content and topic (one of them alone when the other is unscored, the stored
 * sentiment when both are). NaN when unscored.
 */
export function sentimentReadingAt(columns: CommentColumns, row: number, version: ScoreVersion): number {
  return reading(columns.sentiment[row], columns.content[row], columns.topic[row], version);
}

const nanOf = (value: number | null | undefined): number => (value === null || value === undefined ? Number.NaN : value);

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
export function commentBuckets(scores: Partial<CommentScores>, version: ScoreVersion): Record<Dimension, BucketKey | null> {
  const out = {} as Record<Dimension, BucketKey | null>;
  for (const dimension of DIMENSIONS) {
    const value = dimension === 'sentiment' ? sentimentReading(scores, version) : (scores[dimension] ?? null);
    out[dimension] = value === null || Number.isNaN(value) ? null : bucketOf(dimension, value, version);
  }
  return out;
}
