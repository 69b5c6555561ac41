/**
 * What the sampling service refuses, each with a code a client can branch on. The query parser,
 * the cursor codec and the service raise these; sampling-error.mapping.ts gives each code its HTTP
 * status and headers in one place.
 */
export const SAMPLING_ERROR_CODES = [
  'invalid_filter',
  'invalid_bucket',
  'invalid_cursor',
  'analysis_too_large',
  'analysis_not_found',
  'post_not_found',
  'comments_not_available',
  'analysis_not_ready',
  'analysis_failed',
] as const;
export type SamplingErrorCode = (typeof SAMPLING_ERROR_CODES)[number];

export class SamplingError extends Error {
  override readonly name = 'SamplingError';
  constructor(
    readonly code: SamplingErrorCode,
    message: string,
  ) {
    super(message);
  }
}
