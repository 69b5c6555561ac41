import { domainErrorMapping } from '@analyst/platform';
import { WebhookError, type WebhookErrorCode } from '@analyst/webhooks';
import { EndpointRequestError, type EndpointRequestErrorCode } from './endpoint-request-error';

const WEBHOOK_STATUS: Record<WebhookErrorCode, number> = {
  // A deleted endpoint is gone for the client; a team's stream holds only its own endpoints, so
  // another team's id is endpoint_not_found too.
  endpoint_not_found: 404,
  endpoint_deleted: 404,
  endpoint_limit_reached: 409,
  endpoint_disabled: 409,
  // Never a client's: ids are random or derived from an Idempotency-Key (whose replay is answered
  // before deciding), and only the notifier disables.
  endpoint_exists: 409,
  endpoint_healthy: 409,
  invalid_endpoint_id: 400,
  invalid_webhook_url: 400,
  invalid_webhook_events: 400,
  invalid_webhook_description: 400,
};

const REQUEST_STATUS: Record<EndpointRequestErrorCode, number> = {
  invalid_request: 400,
  idempotency_key_reused: 409,
};

const webhookErrors = domainErrorMapping(WebhookError, WEBHOOK_STATUS);
const requestErrors = domainErrorMapping(EndpointRequestError, REQUEST_STATUS);

/** The one place the endpoint routes' refusals become HTTP answers. */
export const toApiError = (error: unknown): unknown => requestErrors(webhookErrors(error));
