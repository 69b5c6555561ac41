import { CodedError } from '@analyst/contracts';

/** Rule breaks of the content aggregates; the ingest service maps each code to an HTTP answer in one place. */
export const CONTENT_ERROR_CODES = [
  'post_exists',
  'post_not_found',
  'post_in_flight',
  'collection_exists',
  'collection_not_found',
  'invalid_parent',
  'job_exists',
  'job_not_found',
  'idempotency_key_reused',
  'invalid_filter',
] as const;
export type ContentErrorCode = (typeof CONTENT_ERROR_CODES)[number];

export class ContentError extends CodedError<ContentErrorCode> {}
