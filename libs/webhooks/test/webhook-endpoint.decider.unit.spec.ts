import { DeciderSpecification } from '@analyst/eventsourcing/testing';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_ENDPOINT_SCHEMA_VERSIONS,
  WebhookError,
  activeSigningSecrets,
  webhookEndpointDecider,
  webhookNetworkPolicy,
  checkUrlShape,
  type UrlCheck,
  type WebhookEndpointCommand,
  type WebhookEndpointEvent,
} from '../src';

/** No mocks: the decider's pure functions; a refusal must be a WebhookError with that code. */
const given = (events: WebhookEndpointEvent[]) =>
  DeciderSpecification.for(webhookEndpointDecider).given(events);

const AT = '2026-03-10T12:00:00.000Z';
const hoursAfter = (hours: number) => new Date(Date.parse(AT) + hours * 3600_000).toISOString();

function urlCheck(raw: string): UrlCheck {
  const shape = checkUrlShape(raw, webhookNetworkPolicy(undefined));
  return shape.ok ? { ok: true, url: shape.url, addresses: ['93.184.215.14'] } : shape;
}

const register = (
  endpointId: string,
  overrides: Partial<Extract<WebhookEndpointCommand, { type: 'RegisterWebhookEndpoint' }>['data']> = {},
): Extract<WebhookEndpointCommand, { type: 'RegisterWebhookEndpoint' }> => ({
  type: 'RegisterWebhookEndpoint',
  data: {
    endpointId,
    teamId: 'tm_1',
    urlCheck: urlCheck('https://hooks.example.com/analyst'),
    events: ['post.updated', 'analysis.ready'],
    description: '  CRM sync  ',
    secret: `whsec_${endpointId}`,
    at: AT,
    ...overrides,
  },
});
const registered = (endpointId: string, at = AT): WebhookEndpointEvent => ({
  type: 'WebhookEndpointRegistered',
  data: {
    endpointId,
    teamId: 'tm_1',
    url: 'https://hooks.example.com/analyst',
    events: ['analysis.ready', 'post.updated'],
    description: 'CRM sync',
    secret: `whsec_${endpointId}`,
    at,
  },
});
const EP = 'we_00000001';

describe('webhook endpoint decider', () => {
  it('registers an endpoint: the url as parsed, its events in contract order, the description trimmed, the secret kept', () => {
    given([])
      .when(register(EP))
      .then([registered(EP)]);
  });

  it('folds a registration to an active endpoint with one signing secret', () => {
    const state = given([registered(EP)]).state;
    expect(state.endpoints[EP]).toEqual({
      endpointId: EP,
      teamId: 'tm_1',
      url: 'https://hooks.example.com/analyst',
      events: ['analysis.ready', 'post.updated'],
      description: 'CRM sync',
      secrets: [{ secret: `whsec_${EP}`, createdAt: AT, replacedAt: null }],
      status: 'active',
      createdAt: AT,
      lastPingAt: null,
      disabledAt: null,
    });
  });

  describe('refuses what the API must answer 400 or 409 to', () => {
    it('a refused url, with the guard message: invalid_webhook_url', () => {
      const when = given([]).when(register(EP, { urlCheck: urlCheck('http://hooks.example.com/') }));
      when.thenFails('invalid_webhook_url', WebhookError);
      expect(() => when.events()).toThrow(/https/);
    });
    it('an unknown event type or none: invalid_webhook_events', () => {
      given([])
        .when(register(EP, { events: ['post.updated', 'post.deleted'] }))
        .thenFails('invalid_webhook_events', WebhookError);
      given([])
        .when(register(EP, { events: [] }))
        .thenFails('invalid_webhook_events', WebhookError);
    });
    it('a description over 200 characters: invalid_webhook_description', () => {
      given([])
        .when(register(EP, { description: 'x'.repeat(201) }))
        .thenFails('invalid_webhook_description', WebhookError);
    });
    it('a malformed id and a taken one: invalid_endpoint_id, endpoint_exists', () => {
      given([]).when(register('ep_1')).thenFails('invalid_endpoint_id', WebhookError);
      given([registered(EP)])
        .when(register(EP))
        .thenFails('endpoint_exists', WebhookError);
    });
  });

  describe('the cap of 10 per team, checked against the team stream it is appended to', () => {
    const ten = Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, (_, i) => registered(`we_0000010${i}`));
    it('refuses an eleventh endpoint: endpoint_limit_reached', () => {
      given(ten).when(register(EP)).thenFails('endpoint_limit_reached', WebhookError);
    });
    it('counts disabled endpoints and frees the place of a deleted one', () => {
      const disabled: WebhookEndpointEvent = {
        type: 'WebhookEndpointDisabled',
        data: {
          endpointId: 'we_00000100',
          teamId: 'tm_1',
          failingSince: AT,
          lastFailedAt: hoursAfter(72),
          at: hoursAfter(72),
        },
      };
      given([...ten, disabled])
        .when(register(EP))
        .thenFails('endpoint_limit_reached', WebhookError);
      const deleted: WebhookEndpointEvent = {
        type: 'WebhookEndpointDeleted',
        data: { endpointId: 'we_00000100', teamId: 'tm_1', at: hoursAfter(1) },
      };
      given([...ten, deleted])
        .when(register(EP))
        .then([registered(EP)]);
    });
  });

  describe('rotates the secret: the old one signs 24 hours more', () => {
    const rotated: WebhookEndpointEvent = {
      type: 'WebhookEndpointSecretRotated',
      data: { endpointId: EP, teamId: 'tm_1', secret: 'whsec_new', at: hoursAfter(1) },
    };
    it('appends the new secret', () => {
      given([registered(EP)])
        .when({
          type: 'RotateWebhookSecret',
          data: { endpointId: EP, secret: 'whsec_new', at: hoursAfter(1) },
        })
        .then([rotated]);
    });
    it('signs with both for 24 hours after the rotation, then with the new one only', () => {
      const { secrets } = given([registered(EP), rotated]).state.endpoints[EP];
      expect(secrets).toEqual([
        { secret: `whsec_${EP}`, createdAt: AT, replacedAt: hoursAfter(1) },
        { secret: 'whsec_new', createdAt: hoursAfter(1), replacedAt: null },
      ]);
      expect(activeSigningSecrets(secrets, new Date(hoursAfter(24.9)))).toEqual(['whsec_new', `whsec_${EP}`]);
      expect(activeSigningSecrets(secrets, new Date(hoursAfter(25)))).toEqual(['whsec_new']);
    });
    it('drops secrets past their 24 hours at the next rotation', () => {
      const again: WebhookEndpointEvent = {
        type: 'WebhookEndpointSecretRotated',
        data: { endpointId: EP, teamId: 'tm_1', secret: 'whsec_third', at: hoursAfter(30) },
      };
      const { secrets } = given([registered(EP), rotated, again]).state.endpoints[EP];
      expect(secrets.map((s) => s.secret)).toEqual(['whsec_new', 'whsec_third']);
    });
    it('refuses an unknown or deleted endpoint: endpoint_not_found, endpoint_deleted', () => {
      const rotate = { type: 'RotateWebhookSecret' as const, data: { endpointId: EP, secret: 's', at: AT } };
      given([]).when(rotate).thenFails('endpoint_not_found', WebhookError);
      const deleted: WebhookEndpointEvent = {
        type: 'WebhookEndpointDeleted',
        data: { endpointId: EP, teamId: 'tm_1', at: AT },
      };
      given([registered(EP), deleted])
        .when(rotate)
        .thenFails('endpoint_deleted', WebhookError);
    });
  });

  describe('disables an endpoint from its health', () => {
    const failingFor = (hours: number) => ({
      lastDeliveredAt: null,
      failingSince: AT,
      lastFailedAt: hoursAfter(hours),
    });
    const disable = (hours: number) => ({
      type: 'DisableWebhookEndpoint' as const,
      data: { endpointId: EP, health: failingFor(hours), at: hoursAfter(hours) },
    });
    const disabled: WebhookEndpointEvent = {
      type: 'WebhookEndpointDisabled',
      data: {
        endpointId: EP,
        teamId: 'tm_1',
        failingSince: AT,
        lastFailedAt: hoursAfter(72),
        at: hoursAfter(72),
      },
    };
    it('after 72 hours of failures', () => {
      given([registered(EP)])
        .when(disable(72))
        .then([disabled]);
      const state = given([registered(EP), disabled]).state.endpoints[EP];
      expect(state.status).toBe('disabled');
      expect(state.disabledAt).toBe(hoursAfter(72));
    });
    it('refuses one failing for less: endpoint_healthy', () => {
      given([registered(EP)])
        .when(disable(71.9))
        .thenFails('endpoint_healthy', WebhookError);
    });
    it('changes nothing when already disabled or deleted (another replica, a racing delete)', () => {
      given([registered(EP), disabled])
        .when(disable(73))
        .then([]);
      const deleted: WebhookEndpointEvent = {
        type: 'WebhookEndpointDeleted',
        data: { endpointId: EP, teamId: 'tm_1', at: AT },
      };
      given([registered(EP), deleted])
        .when(disable(73))
        .then([]);
    });
    it('refuses a ping to a disabled endpoint: endpoint_disabled', () => {
      given([registered(EP), disabled])
        .when({ type: 'PingWebhookEndpoint', data: { endpointId: EP, pingId: 'png_1', at: AT } })
        .thenFails('endpoint_disabled', WebhookError);
    });
  });

  it('records a ping', () => {
    const pinged: WebhookEndpointEvent = {
      type: 'WebhookEndpointPinged',
      data: { endpointId: EP, teamId: 'tm_1', pingId: 'png_1', at: hoursAfter(2) },
    };
    given([registered(EP)])
      .when({ type: 'PingWebhookEndpoint', data: { endpointId: EP, pingId: 'png_1', at: hoursAfter(2) } })
      .then([pinged]);
    expect(given([registered(EP), pinged]).state.endpoints[EP].lastPingAt).toBe(hoursAfter(2));
  });

  it('deletes once: the secrets go, a second delete is a no-op', () => {
    const deleted: WebhookEndpointEvent = {
      type: 'WebhookEndpointDeleted',
      data: { endpointId: EP, teamId: 'tm_1', at: hoursAfter(3) },
    };
    const del = { type: 'DeleteWebhookEndpoint' as const, data: { endpointId: EP, at: hoursAfter(3) } };
    given([registered(EP)])
      .when(del)
      .then([deleted]);
    given([registered(EP), deleted])
      .when(del)
      .then([]);
    expect(given([registered(EP), deleted]).state.endpoints[EP]).toMatchObject({
      status: 'deleted',
      secrets: [],
    });
    given([]).when(del).thenFails('endpoint_not_found', WebhookError);
  });

  it('an id naming an Object.prototype member (constructor, __proto__, toString) is no endpoint', () => {
    for (const endpointId of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      given([registered(EP)])
        .when({ type: 'DeleteWebhookEndpoint', data: { endpointId, at: AT } })
        .thenFails('endpoint_not_found', WebhookError);
      given([registered(EP)])
        .when({ type: 'PingWebhookEndpoint', data: { endpointId, pingId: 'ping_1', at: AT } })
        .thenFails('endpoint_not_found', WebhookError);
      given([registered(EP)])
        .when({ type: 'RotateWebhookSecret', data: { endpointId, secret: 's', at: AT } })
        .thenFails('endpoint_not_found', WebhookError);
    }
  });

  it('declares a schema version for every event type', () => {
    expect(WEBHOOK_ENDPOINT_SCHEMA_VERSIONS).toEqual({
      WebhookEndpointRegistered: 1,
      WebhookEndpointSecretRotated: 1,
      WebhookEndpointPinged: 1,
      WebhookEndpointDisabled: 1,
      WebhookEndpointDeleted: 1,
    });
  });
});
