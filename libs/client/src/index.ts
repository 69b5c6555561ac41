export {
  AnalystApiError,
  AnalystClient,
  createAnalystClient,
  retryAfterMs,
  type AnalystClientOptions,
} from './client';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  verifyWebhookSignature,
  type VerifyWebhookSignatureOptions,
  type WebhookSignatureCheck,
} from './verify-webhook-signature';
export type { components, operations, paths } from './schema';
