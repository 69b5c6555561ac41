import { domainErrorMapping } from '@analyst/platform';
import { ContentError, type ContentErrorCode } from '@analyst/domain-content';

const STATUS: Record<ContentErrorCode, number> = {
  post_exists: 409,
  post_not_found: 404,
  post_in_flight: 409,
  collection_exists: 409,
  collection_not_found: 400,
  invalid_parent: 400,
  job_exists: 409,
  job_not_found: 404,
  idempotency_key_reused: 409,
  invalid_filter: 400,
};

/** The one place content rule breaks become HTTP answers. */
export const toApiError = domainErrorMapping(ContentError, STATUS);
