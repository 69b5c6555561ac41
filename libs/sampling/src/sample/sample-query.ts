import { BUCKET_KEYS, DIMENSIONS, parseBucket, type BucketKey, type Dimension } from '@analyst/contracts';
import { queryInteger } from '@analyst/platform';
import { SamplingError, type SamplingErrorCode } from '../errors/sampling-error';

export const SOURCES = ['notables', 'content', 'all'] as const;
export type Source = (typeof SOURCES)[number];

/** `all` reaches every matched comment, so a bucket-filtered sample pages through the whole bar. */
export const DEFAULT_SOURCE: Source = 'all';
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export type BucketFilters = Partial<Record<Dimension, BucketKey[]>>;

export interface SampleQuery {
  source: Source;
  limit: number;
  cursor: string | null;
  /** Normalized: labels as keys, each dimension's keys deduplicated in BUCKET_KEYS order. */
  buckets: BucketFilters;
}

const KNOWN = new Set<string>(['cursor', 'limit', 'source', 'teamId', ...DIMENSIONS]);
const bad = (message: string, code: SamplingErrorCode = 'invalid_filter'): SamplingError =>
  new SamplingError(code, message);

function single(name: string, value: unknown): string {
  if (Array.isArray(value)) throw bad(`${name} takes one value, got ${value.length}`);
  return String(value);
}

/**
 * The query of both comment routes. A bucket parameter takes comma-separated or repeated values
 * (bucket keys, and the dimension's labels); every value must be valid, or the request is a 400.
 */
export function parseSampleQuery(query: Record<string, unknown>): SampleQuery {
  for (const name of Object.keys(query)) {
    if (!KNOWN.has(name))
      throw bad(
        `unknown query parameter "${name}"; allowed: cursor, limit, source, ${DIMENSIONS.join(', ')}`,
      );
  }
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined) {
    limit = queryInteger(single('limit', query.limit), 'limit', 1, MAX_LIMIT, 'invalid_filter');
  }
  let source: Source = DEFAULT_SOURCE;
  if (query.source !== undefined) {
    const raw = single('source', query.source);
    if (!(SOURCES as readonly string[]).includes(raw))
      throw bad(`source must be one of ${SOURCES.join(', ')}, got "${raw}"`);
    source = raw as Source;
  }
  let cursor: string | null = null;
  if (query.cursor !== undefined) {
    cursor = single('cursor', query.cursor);
    if (cursor === '') throw bad('cursor must not be empty; omit it for the first page', 'invalid_cursor');
  }
  const buckets: BucketFilters = {};
  for (const dimension of DIMENSIONS) {
    const raw = query[dimension];
    if (raw === undefined) continue;
    const values = (Array.isArray(raw) ? raw : [raw])
      .flatMap((v) => String(v).split(','))
      .map((v) => v.trim());
    const keys = new Set<BucketKey>();
    for (const value of values) {
      const key = value === '' ? null : parseBucket(dimension, value);
      if (!key)
        throw bad(
          `${dimension}: "${value}" is not a bucket of ${dimension}; use ${BUCKET_KEYS.join(', ')}${labelHint(dimension)}`,
          'invalid_bucket',
        );
      keys.add(key);
    }
    buckets[dimension] = BUCKET_KEYS.filter((k) => keys.has(k));
  }
  return { source, limit, cursor, buckets };
}

function labelHint(dimension: Dimension): string {
  if (dimension === 'relevance') return ' or on_topic, relevant, general, off_topic';
  if (dimension === 'consensus') return ' or agreeing, discussing, debating, fighting';
  if (dimension === 'content') return ' or Supportive, Receptive, Split, Skeptical, Opposed';
  if (dimension === 'topic') return ' or Enthusiastic, Favorable, Mixed, Critical, Hostile';
  return '';
}

/** The part of a query a cursor is bound to (everything but the cursor and the page size). */
export function queryFingerprint(query: Pick<SampleQuery, 'source' | 'buckets'>): string {
  const parts = DIMENSIONS.filter((d) => query.buckets[d]).map((d) => `${d}=${query.buckets[d]!.join(',')}`);
  return [`source=${query.source}`, ...parts].join('&');
}
