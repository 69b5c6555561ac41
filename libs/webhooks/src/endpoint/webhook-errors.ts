import { CodedError } from '@analyst/contracts';

/**
 * Rule breaks of the webhook endpoint aggregate. The gateway maps each code to one HTTP status in
 * the spec's error envelope when the routes are wired: `*_not_found` 404, `endpoint_limit_reached`
 * 409, `endpoint_deleted` 410 (or 404), the `invalid_*` codes 400 with the message as it is.
 */
export const WEBHOOK_ERROR_CODES = [
  'endpoint_exists',
  'endpoint_not_found',
  'endpoint_deleted',
  'endpoint_disabled',
  'endpoint_healthy',
  'endpoint_limit_reached',
  'invalid_endpoint_id',
  'invalid_webhook_url',
  'invalid_webhook_events',
  'invalid_webhook_description',
] as const;
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];

export class WebhookError extends CodedError<WebhookErrorCode> {}
