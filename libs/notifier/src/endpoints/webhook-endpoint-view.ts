import type { WebhookEndpointState, WebhookEventType } from '@analyst/webhooks';

/** Why an endpoint stopped receiving: the only cause so far is the 72-hour failure rule. */
export const DISABLED_REASON = 'delivery_failures';

/** An endpoint as the API shows it: never its secret (only register and rotate-secret answer one). */
export interface WebhookEndpointView {
  object: 'webhook_endpoint';
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  status: 'active' | 'disabled';
  createdAt: string;
  /** When the current secret replaced the previous one; null while it is the first. */
  secretRotatedAt: string | null;
  lastPingAt: string | null;
  disabledAt: string | null;
  disabledReason: typeof DISABLED_REASON | null;
}

/** The answer of register and rotate-secret: the endpoint and its current secret, shown this once. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  secret: string;
}

/** The secret that signs from now on (the last one added; replaced ones only sign for their 24 hours). */
export function currentSecret(endpoint: WebhookEndpointState): { secret: string; createdAt: string } {
  const current = endpoint.secrets.find((s) => s.replacedAt === null);
  // Every live endpoint has one (register adds it, rotation replaces it); deleted ones are never shown.
  if (!current) throw new Error(`endpoint ${endpoint.endpointId} has no current secret`);
  return current;
}

/**
 * Whether the secret was ever rotated: a rotation keeps the secret it replaced (24 hours of
 * overlap) and drops older ones only at the next rotation, so a rotated endpoint always holds two.
 */
export function wasRotated(endpoint: WebhookEndpointState): boolean {
  return endpoint.secrets.length > 1;
}

/** A live endpoint (active or disabled) as the API shows it. */
export function webhookEndpointView(endpoint: WebhookEndpointState): WebhookEndpointView {
  const disabled = endpoint.status === 'disabled';
  return {
    object: 'webhook_endpoint',
    id: endpoint.endpointId,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    status: disabled ? 'disabled' : 'active',
    createdAt: endpoint.createdAt,
    secretRotatedAt: wasRotated(endpoint) ? currentSecret(endpoint).createdAt : null,
    lastPingAt: endpoint.lastPingAt,
    disabledAt: endpoint.disabledAt,
    disabledReason: disabled ? DISABLED_REASON : null,
  };
}

export function withSecret(endpoint: WebhookEndpointState): WebhookEndpointWithSecret {
  return { ...webhookEndpointView(endpoint), secret: currentSecret(endpoint).secret };
}
