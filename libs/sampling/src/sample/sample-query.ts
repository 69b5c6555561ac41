import { DIMENSIONS, type BucketKey, type Dimension, type Emotion } from '@analyst/contracts';

export const SOURCES = ['notables', 'content', 'all'] as const;
export type Source = (typeof SOURCES)[number];

/** `all` reaches every matched comment, so a bucket-filtered sample pages through the whole bar. */
export const DEFAULT_SOURCE: Source = 'all';
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export type BucketFilters = Partial<Record<Dimension, BucketKey[]>>;

/** The query of both comment routes, as read (parse-sample-query.ts). */
export interface SampleQuery {
  source: Source;
  limit: number;
  cursor: string | null;
  /** Normalized: labels as keys, each dimension's keys deduplicated in BUCKET_KEYS order. */
  buckets: BucketFilters;
  /** The `emotion` filter (an extension of the spec), deduplicated in EMOTIONS order; empty: none. */
  emotions: Emotion[];
}

/** The part of a query a cursor is bound to (everything but the cursor and the page size). */
export function queryFingerprint(query: Pick<SampleQuery, 'source' | 'buckets' | 'emotions'>): string {
  const parts = DIMENSIONS.filter((d) => query.buckets[d]).map((d) => `${d}=${query.buckets[d]!.join(',')}`);
  // Without an emotion filter the fingerprint is what it was, so cursors handed out before still continue.
  if (query.emotions.length > 0) parts.push(`emotion=${query.emotions.join(',')}`);
  return [`source=${query.source}`, ...parts].join('&');
}
