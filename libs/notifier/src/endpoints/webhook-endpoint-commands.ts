import { Injectable } from '@nestjs/common';
import {
  WEBHOOK_ENDPOINT_SCHEMA_VERSIONS,
  webhookEndpointDecider,
  webhookEndpointsStream,
  type TeamWebhookEndpoints,
  type WebhookEndpointCommand,
  type WebhookEndpointEvent,
} from '@analyst/webhooks';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/**
 * A team's webhook endpoints stream, keyed by team id, bound to the endpoint decider: the one
 * place the stream meets its decider. The cap of 10 is checked against this stream's own state and
 * the append's expected revision, so it holds across replicas. Events carry the command's `at`.
 * The routes' reads use `state(teamId)` (the stream folded: a few events, exact, no read model).
 */
@Injectable()
export class WebhookEndpointCommands extends CommandHandler<
  string,
  WebhookEndpointCommand,
  WebhookEndpointEvent,
  TeamWebhookEndpoints
> {
  constructor(runner: CommandRunner) {
    super(runner, {
      decider: webhookEndpointDecider,
      streamOf: webhookEndpointsStream,
      options: { versions: WEBHOOK_ENDPOINT_SCHEMA_VERSIONS, occurredAt: (c) => c.data.at },
    });
  }
}
