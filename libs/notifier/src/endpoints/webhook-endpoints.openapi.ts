import type { SchemaObject } from '@nestjs/swagger';
import { openApi } from '@analyst/platform';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENT_TYPES, WEBHOOK_PING_TYPE } from '@analyst/webhooks';
import { DISABLED_REASON } from './webhook-endpoint-view';

const { arrayOf, bool, int, nullable, obj, oneOfStrings, str, timestamp } = openApi;

const endpointProperties = {
  object: oneOfStrings(['webhook_endpoint']),
  id: str('we_ followed by url-safe characters.'),
  url: str('The https URL events are posted to, as parsed (normalised).'),
  events: arrayOf(oneOfStrings(WEBHOOK_EVENT_TYPES), 'The subscribed event types, in the contract’s order.'),
  description: nullable(str()),
  status: oneOfStrings(
    ['active', 'disabled'],
    'disabled: every delivery attempt over 72 hours failed; nothing more is delivered to it. Delete it and register again to resume.',
  ),
  createdAt: timestamp(),
  secretRotatedAt: nullable(timestamp('When the current secret replaced the previous one.')),
  lastPingAt: nullable(timestamp()),
  disabledAt: nullable(timestamp()),
  disabledReason: nullable(oneOfStrings([DISABLED_REASON])),
};

/** Component schemas of the endpoint routes; WebhookEndpointsModule registers them. */
export const WEBHOOK_ENDPOINT_OPENAPI_SCHEMAS: Record<string, SchemaObject> = {
  WebhookEndpoint: obj(endpointProperties, undefined, {
    description: 'Extension of the spec (push): a webhook endpoint of the team. Never carries its secret.',
  }),
  WebhookEndpointWithSecret: obj(
    {
      ...endpointProperties,
      secret: str(
        'whsec_…: the signing secret, shown only in this answer. Analyst-Signature is its HMAC-SHA256 of "<t>.<raw body>".',
      ),
    },
    undefined,
    { description: 'A webhook endpoint with its signing secret (register and rotate-secret only).' },
  ),
  WebhookPing: obj(
    {
      id: str('evt_…: the id the ping delivery carries (analyst-webhook-id).'),
      type: oneOfStrings([WEBHOOK_PING_TYPE]),
      webhookId: str(),
    },
    undefined,
    { description: 'A webhook.ping event, queued for delivery to this one endpoint.' },
  ),
  WebhookEndpointListMeta: obj({
    count: int(),
    max: int(`Endpoints a team may have (${MAX_WEBHOOK_ENDPOINTS}; disabled ones count until deleted).`),
  }),
  WebhookEndpointWriteMeta: obj({
    replayed: bool('true when an Idempotency-Key already registered this endpoint: the first answer again.'),
  }),
};
