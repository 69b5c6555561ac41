import type { CommandContext, CommandOutcome, LoadedState } from '@analyst/platform';
import {
  endpointOf,
  type EndpointHealth,
  type TeamWebhookEndpoints,
  type WebhookEndpointCommand,
  type WebhookEndpointDirectory,
  type WebhookEndpointEvent,
  type WebhookEndpointState,
} from '@analyst/webhooks';

/** What the directory needs of the endpoints' command handler (the one place their stream meets its decider). */
export interface TeamEndpointCommands {
  state(teamId: string): Promise<LoadedState<TeamWebhookEndpoints>>;
  handle(
    teamId: string,
    command: WebhookEndpointCommand,
    context: CommandContext,
  ): Promise<CommandOutcome<TeamWebhookEndpoints, WebhookEndpointEvent>>;
}

/**
 * The notifier's view of a team's endpoints, folded from the team's `webhookendpoints-<teamId>`
 * stream in the event store through the endpoints' command handler: exact (no projection lag, no
 * bus on the path), and small (at most 10 endpoints and a few events each). Disabling runs
 * `DisableWebhookEndpoint` through the same handler, so the aggregate's rules decide it.
 */
export class EventStoreEndpointDirectory implements WebhookEndpointDirectory {
  constructor(private readonly commands: TeamEndpointCommands) {}

  async endpoints(teamId: string): Promise<WebhookEndpointState[]> {
    return Object.values((await this.commands.state(teamId)).state.endpoints).map((e) => structuredClone(e));
  }

  async endpoint(teamId: string, endpointId: string): Promise<WebhookEndpointState | null> {
    const endpoint = endpointOf((await this.commands.state(teamId)).state, endpointId);
    return endpoint ? structuredClone(endpoint) : null;
  }

  async disable(teamId: string, endpointId: string, health: EndpointHealth, at: string): Promise<boolean> {
    const outcome = await this.commands.handle(
      teamId,
      { type: 'DisableWebhookEndpoint', data: { endpointId, health, at } },
      { correlationId: `notifier-disable-${endpointId}`, teamId },
    );
    return outcome.events.length > 0;
  }
}
