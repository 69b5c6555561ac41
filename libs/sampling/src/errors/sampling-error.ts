import { CodedError } from '@analyst/contracts';

/**
 * What the sampling service refuses, each with a code a client can branch on. The query parser,
 * the cursor codec and the service raise these; sampling-error.mapping.ts gives each code its HTTP
 * status and headers in one place.
 */
export type SamplingErrorCode =
  | 'invalid_filter'
  | 'invalid_bucket'
  | 'invalid_cursor'
  | 'analysis_too_large'
  | 'analysis_not_found'
  | 'post_not_found'
  | 'comments_not_available'
  | 'analysis_not_ready'
  | 'analysis_failed';

export class SamplingError extends CodedError<SamplingErrorCode> {}
