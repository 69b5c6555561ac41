import { domainErrorMapping } from '@analyst/platform';
import { SamplingError, type SamplingErrorCode } from './sampling-error';

/** Retry-After on 409 analysis_not_ready: the analysis poll interval (3000 ms). */
export const NOT_READY_RETRY_AFTER_SECONDS = 3;

/** The HTTP status of each sampling error; the envelope carries its code and message as raised. */
export const SAMPLING_ERROR_STATUS: Record<SamplingErrorCode, number> = {
  invalid_filter: 400,
  invalid_bucket: 400,
  invalid_cursor: 400,
  analysis_too_large: 400,
  analysis_not_found: 404,
  post_not_found: 404,
  comments_not_available: 404,
  analysis_not_ready: 409,
  analysis_failed: 409,
};

/** Headers an answer carries besides the envelope: when to ask again for an analysis still running. */
export const SAMPLING_ERROR_HEADERS: Partial<Record<SamplingErrorCode, Record<string, string>>> = {
  analysis_not_ready: { 'Retry-After': String(NOT_READY_RETRY_AFTER_SECONDS) },
};

/** The one place sampling errors become HTTP answers; anything else passes through. */
export const toApiError = domainErrorMapping(SamplingError, SAMPLING_ERROR_STATUS, SAMPLING_ERROR_HEADERS);
