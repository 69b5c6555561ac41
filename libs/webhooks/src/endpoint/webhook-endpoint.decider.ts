import type { Command, Decider } from '@analyst/eventsourcing';
import { shouldDisableEndpoint, type EndpointHealth } from '../endpoint-health';
import { SECRET_ROTATION_OVERLAP_MS, type EndpointSecret } from '../signing-secrets';
import type { UrlCheck } from '../url-guard';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-events';
import type { WebhookEndpointEvent } from './webhook-endpoint-events';
import { WebhookError } from './webhook-errors';

/** The cap per team; disabled endpoints count until deleted. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
const ENDPOINT_ID = /^we_[A-Za-z0-9_-]{8,64}$/;

export interface WebhookEndpointState {
  endpointId: string;
  teamId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  /** The current secret and those replaced less than 24 hours before the last rotation, oldest first. */
  secrets: EndpointSecret[];
  status: 'active' | 'disabled' | 'deleted';
  createdAt: string;
  lastPingAt: string | null;
  disabledAt: string | null;
}

/** A team's endpoints, deleted ones included (their ids are never reused). */
export interface TeamWebhookEndpoints {
  endpoints: Record<string, WebhookEndpointState>;
}

export type WebhookEndpointCommand =
  | Command<
      'RegisterWebhookEndpoint',
      {
        endpointId: string;
        teamId: string;
        /** `checkWebhookUrl`'s verdict, made by the service before deciding (it needs DNS). */
        urlCheck: UrlCheck;
        events: string[];
        description?: string | null;
        /** `generateWebhookSecret()`, shown once to the client in the answer. */
        secret: string;
        at: string;
      }
    >
  | Command<'RotateWebhookSecret', { endpointId: string; secret: string; at: string }>
  | Command<'PingWebhookEndpoint', { endpointId: string; pingId: string; at: string }>
  | Command<'DisableWebhookEndpoint', { endpointId: string; health: EndpointHealth; at: string }>
  | Command<'DeleteWebhookEndpoint', { endpointId: string; at: string }>;

/**
 * The endpoint of this id, or undefined: own properties only, so an id such as `constructor` or
 * `__proto__` names no endpoint (the state is a plain object).
 */
export function endpointOf(
  state: TeamWebhookEndpoints,
  endpointId: string,
): WebhookEndpointState | undefined {
  return Object.hasOwn(state.endpoints, endpointId) ? state.endpoints[endpointId] : undefined;
}

/** The team's endpoints that count against the cap. */
export function liveEndpointCount(state: TeamWebhookEndpoints): number {
  return Object.values(state.endpoints).filter((e) => e.status !== 'deleted').length;
}

function normalizeEventTypes(events: string[]): WebhookEventType[] {
  const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0)
    throw new WebhookError(
      'invalid_webhook_events',
      `unknown event type ${unknown.join(', ')}; events are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
  if (events.length === 0)
    throw new WebhookError('invalid_webhook_events', 'events must name at least one event type');
  // The contract's order, so the same set always reads the same.
  return WEBHOOK_EVENT_TYPES.filter((t) => events.includes(t));
}

function normalizeDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim() ?? '';
  if (trimmed.length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
    throw new WebhookError(
      'invalid_webhook_description',
      `description must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`,
    );
  return trimmed.length === 0 ? null : trimmed;
}

function register(
  command: Extract<WebhookEndpointCommand, { type: 'RegisterWebhookEndpoint' }>,
  state: TeamWebhookEndpoints,
): WebhookEndpointEvent[] {
  const { endpointId, teamId, urlCheck, at, secret } = command.data;
  if (!ENDPOINT_ID.test(endpointId))
    throw new WebhookError('invalid_endpoint_id', 'endpoint id must look like we_<8+ url-safe characters>');
  if (endpointOf(state, endpointId))
    throw new WebhookError('endpoint_exists', `endpoint ${endpointId} already exists`);
  if (!urlCheck.ok) throw new WebhookError('invalid_webhook_url', urlCheck.message);
  const url = urlCheck.url.href;
  if (url.length > MAX_WEBHOOK_URL_LENGTH)
    throw new WebhookError('invalid_webhook_url', `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  const events = normalizeEventTypes(command.data.events);
  const description = normalizeDescription(command.data.description);
  if (liveEndpointCount(state) >= MAX_WEBHOOK_ENDPOINTS)
    throw new WebhookError(
      'endpoint_limit_reached',
      `a team may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
    );
  return [
    { type: 'WebhookEndpointRegistered', data: { endpointId, teamId, url, events, description, secret, at } },
  ];
}

/** The endpoint a command names, refused when missing or deleted. */
function existing(state: TeamWebhookEndpoints, endpointId: string): WebhookEndpointState {
  const endpoint = endpointOf(state, endpointId);
  if (!endpoint) throw new WebhookError('endpoint_not_found', `endpoint ${endpointId} not found`);
  if (endpoint.status === 'deleted')
    throw new WebhookError('endpoint_deleted', `endpoint ${endpointId} was deleted`);
  return endpoint;
}

function disable(
  command: Extract<WebhookEndpointCommand, { type: 'DisableWebhookEndpoint' }>,
  state: TeamWebhookEndpoints,
): WebhookEndpointEvent[] {
  const endpoint = endpointOf(state, command.data.endpointId);
  if (!endpoint)
    throw new WebhookError('endpoint_not_found', `endpoint ${command.data.endpointId} not found`);
  // The notifier may race a delete or another replica's disabling: both leave nothing to do.
  if (endpoint.status !== 'active') return [];
  const { health } = command.data;
  if (!shouldDisableEndpoint(health) || health.failingSince === null || health.lastFailedAt === null)
    throw new WebhookError('endpoint_healthy', `endpoint ${endpoint.endpointId} has not failed for 72 hours`);
  return [
    {
      type: 'WebhookEndpointDisabled',
      data: {
        endpointId: endpoint.endpointId,
        teamId: endpoint.teamId,
        failingSince: health.failingSince,
        lastFailedAt: health.lastFailedAt,
        at: command.data.at,
      },
    },
  ];
}

export function decideWebhookEndpoint(
  command: WebhookEndpointCommand,
  state: TeamWebhookEndpoints,
): WebhookEndpointEvent[] {
  switch (command.type) {
    case 'RegisterWebhookEndpoint':
      return register(command, state);
    case 'RotateWebhookSecret': {
      const { endpointId, teamId } = existing(state, command.data.endpointId);
      const { secret, at } = command.data;
      return [{ type: 'WebhookEndpointSecretRotated', data: { endpointId, teamId, secret, at } }];
    }
    case 'PingWebhookEndpoint': {
      const endpoint = existing(state, command.data.endpointId);
      if (endpoint.status === 'disabled')
        throw new WebhookError('endpoint_disabled', `endpoint ${endpoint.endpointId} is disabled`);
      const { endpointId, teamId } = endpoint;
      const { pingId, at } = command.data;
      return [{ type: 'WebhookEndpointPinged', data: { endpointId, teamId, pingId, at } }];
    }
    case 'DisableWebhookEndpoint':
      return disable(command, state);
    case 'DeleteWebhookEndpoint': {
      const endpoint = endpointOf(state, command.data.endpointId);
      if (!endpoint)
        throw new WebhookError('endpoint_not_found', `endpoint ${command.data.endpointId} not found`);
      if (endpoint.status === 'deleted') return []; // deleting twice changes nothing
      const { endpointId, teamId } = endpoint;
      return [{ type: 'WebhookEndpointDeleted', data: { endpointId, teamId, at: command.data.at } }];
    }
    default: {
      const _never: never = command;
      throw new Error(`unknown webhook endpoint command ${JSON.stringify(_never)}`);
    }
  }
}

/** Marks the current secret replaced and adds the new one; secrets past their 24 hours are dropped. */
function rotateSecrets(secrets: EndpointSecret[], secret: string, at: string): EndpointSecret[] {
  const now = Date.parse(at);
  const kept = secrets
    .map((s) => (s.replacedAt === null ? { ...s, replacedAt: at } : s))
    .filter((s) => now < Date.parse(s.replacedAt!) + SECRET_ROTATION_OVERLAP_MS);
  return [...kept, { secret, createdAt: at, replacedAt: null }];
}

function evolveEndpoint(
  endpoint: WebhookEndpointState,
  event: Exclude<WebhookEndpointEvent, { type: 'WebhookEndpointRegistered' }>,
): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointSecretRotated':
      return { ...endpoint, secrets: rotateSecrets(endpoint.secrets, event.data.secret, event.data.at) };
    case 'WebhookEndpointPinged':
      return { ...endpoint, lastPingAt: event.data.at };
    case 'WebhookEndpointDisabled':
      return { ...endpoint, status: 'disabled', disabledAt: event.data.at };
    case 'WebhookEndpointDeleted':
      // The secrets go with it: a deleted endpoint signs nothing.
      return { ...endpoint, status: 'deleted', secrets: [] };
    default: {
      const _never: never = event;
      return endpoint;
    }
  }
}

export function evolveWebhookEndpoints(
  state: TeamWebhookEndpoints,
  event: WebhookEndpointEvent,
): TeamWebhookEndpoints {
  if (event.type === 'WebhookEndpointRegistered') {
    const { secret, at, ...rest } = event.data;
    const endpoint: WebhookEndpointState = {
      ...rest,
      secrets: [{ secret, createdAt: at, replacedAt: null }],
      status: 'active',
      createdAt: at,
      lastPingAt: null,
      disabledAt: null,
    };
    return { endpoints: { ...state.endpoints, [endpoint.endpointId]: endpoint } };
  }
  const endpoint = endpointOf(state, event.data.endpointId);
  if (!endpoint) return state;
  return { endpoints: { ...state.endpoints, [endpoint.endpointId]: evolveEndpoint(endpoint, event) } };
}

export const webhookEndpointDecider: Decider<
  WebhookEndpointCommand,
  WebhookEndpointEvent,
  TeamWebhookEndpoints
> = {
  initialState: (): TeamWebhookEndpoints => ({ endpoints: {} }),
  decide: decideWebhookEndpoint,
  evolve: evolveWebhookEndpoints,
};
