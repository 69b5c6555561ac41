import type { ValidationError } from 'class-validator';
import { BUCKET_KEYS, DIMENSIONS, EMOTIONS, parseBucket, type BucketKey } from '@analyst/contracts';
import { checkedQueryNumber, firstRuleCode, validateRequest } from '@analyst/platform';
import { SamplingError, type SamplingErrorCode } from '../errors/sampling-error';
import {
  DEFAULT_LIMIT,
  DEFAULT_SOURCE,
  type BucketFilters,
  type SampleQuery,
  type Source,
} from './sample-query';
import { SampleQueryDto } from './sample-query.dto';
import { bucketValues } from './sample-query.rules';

/** A refused query: every fault in the message; the code of the first (its rule's, else invalid_filter). */
function refusal(message: string, errors: readonly ValidationError[]): SamplingError {
  return new SamplingError(firstRuleCode<SamplingErrorCode>(errors) ?? 'invalid_filter', message);
}

/**
 * The query of both comment routes: checked by SampleQueryDto's rules, then read. A bucket
 * parameter takes comma-separated or repeated values (bucket keys, and the dimension's labels),
 * read as keys, deduplicated, in BUCKET_KEYS order; the emotion filter likewise, in EMOTIONS order.
 */
export function parseSampleQuery(query: Record<string, unknown>): SampleQuery {
  const valid = validateRequest(SampleQueryDto, query, refusal);
  // The rules above passed: each value below is one text, and every bucket value names a bucket.
  const buckets: BucketFilters = {};
  for (const dimension of DIMENSIONS) {
    const raw = valid[dimension];
    if (raw === undefined) continue;
    const keys = new Set(bucketValues(raw).map((v) => parseBucket(dimension, v) as BucketKey));
    buckets[dimension] = BUCKET_KEYS.filter((k) => keys.has(k));
  }
  const emotions = new Set(valid.emotion === undefined ? [] : bucketValues(valid.emotion));
  return {
    source: (valid.source as Source | undefined) ?? DEFAULT_SOURCE,
    limit: checkedQueryNumber(valid.limit, DEFAULT_LIMIT),
    cursor: (valid.cursor as string | undefined) ?? null,
    buckets,
    emotions: EMOTIONS.filter((e) => emotions.has(e)),
  };
}
