import { domainErrorMapping } from '@analyst/platform';
import { ContentError, type ContentErrorCode } from '@analyst/domain-content';
import { IntakeError, type IntakeErrorCode } from '../request/intake-error';

const CONTENT_STATUS: Record<ContentErrorCode, number> = {
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

const INTAKE_STATUS: Record<IntakeErrorCode, number> = {
  invalid_request: 400,
  invalid_url: 400,
  unsupported_platform: 400,
  insufficient_credits: 402,
  collection_name_ambiguous: 409,
};

const contentErrors = domainErrorMapping(ContentError, CONTENT_STATUS);
const intakeErrors = domainErrorMapping(IntakeError, INTAKE_STATUS);

/** The one place ingest's refusals (content rule breaks and refused requests) become HTTP answers. */
export const toApiError = (error: unknown): unknown => intakeErrors(contentErrors(error));
