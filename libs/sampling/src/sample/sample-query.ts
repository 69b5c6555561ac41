import { DIMENSIONS, type BucketKey, type Dimension } from '@analyst/contracts';

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
}

/** The part of a query a cursor is bound to (everything but the cursor and the page size). */
export function queryFingerprint(query: Pick<SampleQuery, 'source' | 'buckets'>): string {
  const parts = DIMENSIONS.filter((d) => query.buckets[d]).map((d) => `${d}=${query.buckets[d]!.join(',')}`);
  return [`source=${query.source}`, ...parts].join('&');
}
