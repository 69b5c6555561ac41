import type { SchemaVersions } from '@analyst/eventsourcing';
import type { WebhookEventType } from '../webhook-events';

/**
 * Events of a team's webhook endpoints, all in one stream per team (`webhookendpoints-<teamId>`):
 * the cap of endpoints per team is then checked against the stream's own state and enforced by the
 * append's expected revision, so two concurrent registrations cannot both take the tenth place.
 *
 * The signing secret is kept in these events as the user was shown it: the notifier signs with
 * HMAC-SHA256, which needs the key itself (a hash, as API keys keep, could verify but not sign).
 * No webhook event, SSE event or API answer is made from these events except the one that created
 * or rotated the secret, which shows it once.
 */
export interface WebhookEndpointRegistered {
  type: 'WebhookEndpointRegistered';
  data: {
    endpointId: string;
    teamId: string;
    url: string;
    events: WebhookEventType[];
    description: string | null;
    secret: string;
    at: string;
  };
}
/** A new secret; the one it replaces keeps signing for 24 hours after `at`. */
export interface WebhookEndpointSecretRotated {
  type: 'WebhookEndpointSecretRotated';
  data: { endpointId: string; teamId: string; secret: string; at: string };
}
export interface WebhookEndpointPinged {
  type: 'WebhookEndpointPinged';
  data: { endpointId: string; teamId: string; pingId: string; at: string };
}
/** Every attempt over 72 hours failed: nothing is delivered to it any more (its deliveries say so). */
export interface WebhookEndpointDisabled {
  type: 'WebhookEndpointDisabled';
  data: { endpointId: string; teamId: string; failingSince: string; lastFailedAt: string; at: string };
}
export interface WebhookEndpointDeleted {
  type: 'WebhookEndpointDeleted';
  data: { endpointId: string; teamId: string; at: string };
}

export type WebhookEndpointEvent =
  | WebhookEndpointRegistered
  | WebhookEndpointSecretRotated
  | WebhookEndpointPinged
  | WebhookEndpointDisabled
  | WebhookEndpointDeleted;

/** The schema version the command runner stamps on each (`run(..., { versions })`); all first versions. */
export const WEBHOOK_ENDPOINT_SCHEMA_VERSIONS: {
  [K in WebhookEndpointEvent['type']]: number;
} & SchemaVersions = {
  WebhookEndpointRegistered: 1,
  WebhookEndpointSecretRotated: 1,
  WebhookEndpointPinged: 1,
  WebhookEndpointDisabled: 1,
  WebhookEndpointDeleted: 1,
};

export const webhookEndpointsStream = (teamId: string): string => `webhookendpoints-${teamId}`;
