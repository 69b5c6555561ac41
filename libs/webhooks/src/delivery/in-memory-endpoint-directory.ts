import type { EndpointHealth } from '../endpoint-health';
import type { WebhookEndpointEvent } from '../endpoint/webhook-endpoint-events';
import {
  endpointOf,
  webhookEndpointDecider,
  type TeamWebhookEndpoints,
  type WebhookEndpointCommand,
  type WebhookEndpointState,
} from '../endpoint/webhook-endpoint.decider';
import type { WebhookEndpointDirectory } from './endpoint-directory';

/**
 * Teams' endpoints in memory, changed only through the endpoint decider (so the rules hold as they
 * will behind the API): for tests and an in-process notifier.
 */
export class InMemoryWebhookEndpoints implements WebhookEndpointDirectory {
  private readonly teams = new Map<string, TeamWebhookEndpoints>();

  /** Decides a command against the team's endpoints and folds the events in; the events decided. */
  execute(teamId: string, command: WebhookEndpointCommand): WebhookEndpointEvent[] {
    const state = this.teams.get(teamId) ?? webhookEndpointDecider.initialState();
    const events = webhookEndpointDecider.decide(command, state);
    this.teams.set(teamId, events.reduce(webhookEndpointDecider.evolve, state));
    return events;
  }

  async endpoints(teamId: string): Promise<WebhookEndpointState[]> {
    return Object.values(this.teams.get(teamId)?.endpoints ?? {}).map((e) => structuredClone(e));
  }

  async endpoint(teamId: string, endpointId: string): Promise<WebhookEndpointState | null> {
    const team = this.teams.get(teamId);
    const endpoint = team && endpointOf(team, endpointId);
    return endpoint ? structuredClone(endpoint) : null;
  }

  async disable(teamId: string, endpointId: string, health: EndpointHealth, at: string): Promise<boolean> {
    return (
      this.execute(teamId, { type: 'DisableWebhookEndpoint', data: { endpointId, health, at } }).length > 0
    );
  }
}
