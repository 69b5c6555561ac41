import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, EVENT_STORE, type Clock, type EventStore } from '@analyst/platform';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_PING_TYPE,
  WebhookError,
  checkWebhookUrl,
  generateWebhookSecret,
  webhookEndpointsStream,
  webhookEventId,
  webhookNetworkPolicyFromEnv,
  type TeamWebhookEndpoints,
  type WebhookEndpointState,
  type WebhookNetworkPolicy,
} from '@analyst/webhooks';
import { idempotentEndpointId, newEndpointId, newPingId } from './endpoint-ids';
import { EndpointRequestError } from './endpoint-request-error';
import type { RegisterWebhookEndpointBody } from './register-webhook-endpoint.body';
import { WebhookEndpointCommands } from './webhook-endpoint-commands';
import {
  wasRotated,
  webhookEndpointView,
  withSecret,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
} from './webhook-endpoint-view';

/** Who asks: the team acted on (the key's, or an Enterprise sub-team) and the request's correlation id. */
export interface EndpointRequester {
  teamId: string;
  correlationId: string;
}

export interface RegisteredEndpoint {
  endpoint: WebhookEndpointWithSecret;
  /** An Idempotency-Key that had registered it already: the first answer again, nothing appended. */
  replayed: boolean;
}

export interface QueuedPing {
  id: string;
  type: typeof WEBHOOK_PING_TYPE;
  webhookId: string;
}

/** The shape of every id the aggregate accepts; any other path segment names no endpoint. */
const ENDPOINT_ID = /^we_[A-Za-z0-9_-]{8,64}$/;

/**
 * The endpoint routes' use cases. Writes run the endpoint decider on the team's stream through
 * WebhookEndpointCommands; reads fold that stream (a team has at most 10 endpoints and a few events
 * each), so a read right after a write sees it, on any replica.
 */
@Injectable()
export class WebhookEndpointsService {
  /** ANALYST_WEBHOOK_ALLOWED_NETWORKS, read once at start: a bad CIDR stops the service from starting. */
  private readonly networkPolicy: WebhookNetworkPolicy = webhookNetworkPolicyFromEnv();

  constructor(
    private readonly commands: WebhookEndpointCommands,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async register(
    requester: EndpointRequester,
    body: RegisterWebhookEndpointBody,
    idempotencyKey: string | null,
  ): Promise<RegisteredEndpoint> {
    const { teamId } = requester;
    const endpointId =
      idempotencyKey === null ? newEndpointId() : idempotentEndpointId(teamId, idempotencyKey);
    if (idempotencyKey !== null) {
      const earlier = await this.replay(teamId, endpointId, body);
      if (earlier) return earlier;
    }
    // The URL is checked here, not in the decider: it resolves the host (DNS), which a decider may not.
    const urlCheck = await checkWebhookUrl(body.url, this.networkPolicy);
    const secret = generateWebhookSecret();
    try {
      const outcome = await this.commands.handle(
        teamId,
        {
          type: 'RegisterWebhookEndpoint',
          data: {
            endpointId,
            teamId,
            urlCheck,
            events: body.events,
            description: body.description ?? null,
            secret,
            at: this.now(),
          },
        },
        this.context(requester),
      );
      return { endpoint: withSecret(outcome.state.endpoints[endpointId]), replayed: false };
    } catch (error) {
      // A retry with the same key registered it on another replica a moment ago.
      if (idempotencyKey !== null && error instanceof WebhookError && error.code === 'endpoint_exists') {
        const earlier = await this.replay(teamId, endpointId, body);
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  /**
   * The team's live endpoints (active and disabled) in the order they were registered: the fold
   * adds each endpoint's key once, at its registration, and string keys keep insertion order.
   */
  async list(teamId: string): Promise<WebhookEndpointView[]> {
    const { state } = await this.commands.state(teamId);
    return Object.values(state.endpoints)
      .filter((e) => e.status !== 'deleted')
      .map(webhookEndpointView);
  }

  async get(teamId: string, endpointId: string): Promise<WebhookEndpointView> {
    const { state } = await this.commands.state(teamId);
    return webhookEndpointView(liveEndpoint(state, endpointId));
  }

  /** Deleting twice is no error: the second changes nothing. */
  async delete(requester: EndpointRequester, endpointId: string): Promise<void> {
    await this.commands.handle(
      requester.teamId,
      { type: 'DeleteWebhookEndpoint', data: { endpointId: checkedId(endpointId), at: this.now() } },
      this.context(requester),
    );
  }

  async rotateSecret(requester: EndpointRequester, endpointId: string): Promise<WebhookEndpointWithSecret> {
    const id = checkedId(endpointId);
    const outcome = await this.commands.handle(
      requester.teamId,
      {
        type: 'RotateWebhookSecret',
        data: { endpointId: id, secret: generateWebhookSecret(), at: this.now() },
      },
      this.context(requester),
    );
    return withSecret(outcome.state.endpoints[id]);
  }

  /** Appends the ping; the notifier delivers it as a `webhook.ping` event with the id answered here. */
  async ping(requester: EndpointRequester, endpointId: string): Promise<QueuedPing> {
    const id = checkedId(endpointId);
    const pingId = newPingId();
    const outcome = await this.commands.handle(
      requester.teamId,
      { type: 'PingWebhookEndpoint', data: { endpointId: id, pingId, at: this.now() } },
      this.context(requester),
    );
    // The delivery's event id is derived from the log event's id, which the store recorded.
    const recorded = await this.events.readStream(webhookEndpointsStream(requester.teamId), outcome.revision);
    const pinged = recorded.find(
      (e) => e.type === 'WebhookEndpointPinged' && (e.data as { pingId?: unknown }).pingId === pingId,
    );
    if (!pinged) throw new Error(`ping ${pingId} of ${id} was appended but is not in the stream`);
    return { id: webhookEventId(pinged.id), type: WEBHOOK_PING_TYPE, webhookId: id };
  }

  /**
   * The endpoint an Idempotency-Key registered, answered again as it was (with the secret it was
   * registered with) while that secret is still the current one; null when the key registered
   * nothing yet. The same key with another body, or after the secret was rotated (the first answer
   * no longer holds), is `idempotency_key_reused`; after a delete, `endpoint_deleted`.
   */
  private async replay(
    teamId: string,
    endpointId: string,
    body: RegisterWebhookEndpointBody,
  ): Promise<RegisteredEndpoint | null> {
    const { state } = await this.commands.state(teamId);
    if (!Object.hasOwn(state.endpoints, endpointId)) return null;
    const endpoint = liveEndpoint(state, endpointId);
    if (!sameRegistration(endpoint, body))
      throw new EndpointRequestError(
        'idempotency_key_reused',
        `this Idempotency-Key registered endpoint ${endpointId} with another url, events or description; use a new key for a new endpoint`,
      );
    if (wasRotated(endpoint))
      throw new EndpointRequestError(
        'idempotency_key_reused',
        `this Idempotency-Key registered endpoint ${endpointId}, whose secret was rotated since; read it with GET /webhooks/${endpointId}`,
      );
    return { endpoint: withSecret(endpoint), replayed: true };
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  private context(requester: EndpointRequester) {
    return { correlationId: requester.correlationId, causationId: null, teamId: requester.teamId };
  }
}

/** An id of the aggregate's shape, else endpoint_not_found: a path segment such as `constructor` names nothing. */
function checkedId(endpointId: string): string {
  if (!ENDPOINT_ID.test(endpointId))
    throw new WebhookError('endpoint_not_found', `endpoint ${endpointId} not found`);
  return endpointId;
}

/** The team's endpoint, refused when it is not one of the team's or was deleted. */
function liveEndpoint(state: TeamWebhookEndpoints, endpointId: string): WebhookEndpointState {
  const id = checkedId(endpointId);
  if (!Object.hasOwn(state.endpoints, id))
    throw new WebhookError('endpoint_not_found', `endpoint ${id} not found`);
  const endpoint = state.endpoints[id];
  if (endpoint.status === 'deleted') throw new WebhookError('endpoint_deleted', `endpoint ${id} was deleted`);
  return endpoint;
}

/** Whether a retried body asks for what the endpoint holds (URL as parsed, events as a set, description trimmed). */
function sameRegistration(endpoint: WebhookEndpointState, body: RegisterWebhookEndpointBody): boolean {
  let url: string;
  try {
    url = new URL(body.url).href;
  } catch {
    return false;
  }
  const events = WEBHOOK_EVENT_TYPES.filter((t) => body.events.includes(t));
  const known = body.events.every((e) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  const description = body.description?.trim() || null;
  return (
    url === endpoint.url &&
    known &&
    events.join(',') === endpoint.events.join(',') &&
    description === endpoint.description
  );
}
