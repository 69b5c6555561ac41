import type { ValidationError } from 'class-validator';
import { BUCKET_KEYS, DIMENSIONS, EMOTIONS, parseBucket } from '@analyst/contracts';
import { checkedQueryNumber, firstRuleCode, validateRequest } from '@analyst/platform';
import { SamplingError, type SamplingErrorCode } from '../errors/sampling-error';
import { DEFAULT_LIMIT, DEFAULT_SOURCE, SOURCES, type BucketFilters, type SampleQuery } from './sample-query';
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
  // The rules above passed: each value below is one text (a source one of SOURCES, a cursor not
  // empty), and every bucket value names a bucket.
  const buckets: BucketFilters = {};
  for (const dimension of DIMENSIONS) {
    const raw = valid[dimension];
    if (raw === undefined) continue;
    const keys = new Set(bucketValues(raw).map((v) => parseBucket(dimension, v)));
    buckets[dimension] = BUCKET_KEYS.filter((k) => keys.has(k));
  }
  const emotions = new Set(valid.emotion === undefined ? [] : bucketValues(valid.emotion));
  return {
    source: SOURCES.find((source) => source === valid.source) ?? DEFAULT_SOURCE,
    limit: checkedQueryNumber(valid.limit, DEFAULT_LIMIT),
    cursor: typeof valid.cursor === 'string' ? valid.cursor : null,
    buckets,
    emotions: EMOTIONS.filter((e) => emotions.has(e)),
  };
}
