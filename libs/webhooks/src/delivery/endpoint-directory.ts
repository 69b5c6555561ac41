import type { EndpointHealth } from '../endpoint-health';
import type { WebhookEndpointState } from '../endpoint/webhook-endpoint.decider';

/**
 * The notifier's read model of endpoints. Wired, it is a projection of the endpoint events and
 * `disable` runs `DisableWebhookEndpoint` through the command runner on the team's stream.
 */
export interface WebhookEndpointDirectory {
  /**
   * Every endpoint of the team as it is now (disabled and deleted ones included): one read serves
   * the subscribers of every type and each endpoint's attempts.
   */
  endpoints(teamId: string): Promise<WebhookEndpointState[]>;
  /** One endpoint as it is now (deleted and disabled ones included), or null when unknown. */
  endpoint(teamId: string, endpointId: string): Promise<WebhookEndpointState | null>;
  /**
   * Disables an endpoint whose health says it failed for 72 hours; true when this call disabled it
   * (false when it was disabled or deleted already, e.g. by another delivery's attempt).
   */
  disable(teamId: string, endpointId: string, health: EndpointHealth, at: string): Promise<boolean>;
}
