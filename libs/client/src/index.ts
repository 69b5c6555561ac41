export {
  AnalystApiError,
  AnalystClient,
  createAnalystClient,
  retryAfterMs,
  type AnalystClientOptions,
} from './client';
export type { EventStreamOptions, StreamedEvent, WebhookEvent, WebhookEventType } from './event-stream';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  verifyWebhookSignature,
  type VerifyWebhookSignatureOptions,
  type WebhookSignatureCheck,
} from './verify-webhook-signature';
export type { components, operations, paths } from './schema';
