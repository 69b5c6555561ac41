import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_PING_TYPE,
  toWebhookEvent,
  webhookEndpointDecider,
  type WebhookEndpointEvent,
} from '@analyst/webhooks';
import type { RecordedEvent } from '@analyst/platform';
import { WebhookEndpointCommands } from '../src/endpoints/webhook-endpoint-commands';
import { START, endpointsTest, type EndpointsTest } from './endpoints-fixture';

const HOOK = 'https://8.8.8.8/hooks/analyst';
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
const ENDPOINT_ID = /^we_[A-Za-z0-9_-]{8,64}$/;

/** The team's endpoints as the log folds them (secrets included), to check what was appended. */
function folded(events: RecordedEvent[]) {
  return events.reduce(
    (state, e) =>
      webhookEndpointDecider.evolve(state, { type: e.type, data: e.data } as WebhookEndpointEvent),
    webhookEndpointDecider.initialState(),
  );
}

describe('webhook endpoint routes (issue 39 item 1)', () => {
  let f: EndpointsTest;
  beforeAll(async () => (f = await endpointsTest()));
  afterAll(() => f.close());

  async function teamWithKey(plan = 'scale') {
    const teamId = await f.team(plan);
    return { teamId, key: await f.key(teamId) };
  }

  it('registers an endpoint: 201, the endpoint with its whsec_ secret once, Location, and the event in the team’s stream', async () => {
    const { teamId, key } = await teamWithKey();
    const res = await f.call('POST', '/webhooks', key, {
      url: HOOK,
      events: ['post.updated', 'content_job.completed'],
      description: '  our back end  ',
    });
    expect(res.status).toBe(201);
    const { id, secret } = res.body.data;
    expect(id).toMatch(ENDPOINT_ID);
    expect(secret).toMatch(SECRET);
    expect(res.body).toEqual({
      data: {
        object: 'webhook_endpoint',
        id,
        url: HOOK,
        events: ['content_job.completed', 'post.updated'],
        description: 'our back end',
        status: 'active',
        createdAt: START,
        secretRotatedAt: null,
        lastPingAt: null,
        disabledAt: null,
        disabledReason: null,
        secret,
      },
      meta: { replayed: false },
    });
    expect(res.headers.location).toBe(`/analyst/v1/webhooks/${id}`);
    const stream = await f.stream(teamId);
    expect(stream.map((e) => ({ type: e.type, schemaVersion: e.schemaVersion, data: e.data }))).toEqual([
      {
        type: 'WebhookEndpointRegistered',
        schemaVersion: 1,
        data: {
          endpointId: id,
          teamId,
          url: HOOK,
          events: ['content_job.completed', 'post.updated'],
          description: 'our back end',
          secret,
          at: START,
        },
      },
    ]);
    expect(stream[0].metadata).toMatchObject({ teamId, occurredAt: START });
  });

  it('never shows the secret again: GET one and the list carry every field but it', async () => {
    const { key } = await teamWithKey();
    const first = await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] });
    const second = await f.call('POST', '/webhooks', key, {
      url: 'https://8.8.4.4/b',
      events: ['analysis.failed', 'analysis.ready'],
      description: '',
    });
    const { secret, ...shown } = first.body.data;
    const one = await f.call('GET', `/webhooks/${shown.id}`, key);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: shown, meta: {} });
    const list = await f.call('GET', '/webhooks', key);
    expect(list.status).toBe(200);
    const { secret: secondSecret, ...secondShown } = second.body.data;
    expect(secondShown.description).toBeNull();
    expect(list.body).toEqual({ data: [shown, secondShown], meta: { count: 2, max: MAX_WEBHOOK_ENDPOINTS } });
    for (const raw of [one.raw, list.raw]) {
      expect(raw).not.toContain(secret);
      expect(raw).not.toContain(secondSecret);
      expect(raw).not.toContain('whsec_');
    }
  });

  it('deletes: 204 without a body, the event appended, then GET 404 endpoint_deleted and gone from the list; deleting again appends nothing', async () => {
    const { teamId, key } = await teamWithKey();
    const keep = (await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] })).body
      .data;
    const gone = (await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.failed'] })).body
      .data;
    f.clock.set('2026-03-10T12:05:00.000Z');
    const res = await f.call('DELETE', `/webhooks/${gone.id}`, key);
    expect(res.status).toBe(204);
    expect(res.raw).toBe('');
    const stream = await f.stream(teamId);
    expect(stream.map((e) => e.type)).toEqual([
      'WebhookEndpointRegistered',
      'WebhookEndpointRegistered',
      'WebhookEndpointDeleted',
    ]);
    expect(stream[2].data).toEqual({ endpointId: gone.id, teamId, at: '2026-03-10T12:05:00.000Z' });
    const read = await f.call('GET', `/webhooks/${gone.id}`, key);
    expect(read.status).toBe(404);
    expect(read.body.error).toEqual({ code: 'endpoint_deleted', message: `endpoint ${gone.id} was deleted` });
    expect((await f.call('GET', '/webhooks', key)).body.data.map((e: { id: string }) => e.id)).toEqual([
      keep.id,
    ]);
    expect((await f.call('DELETE', `/webhooks/${gone.id}`, key)).status).toBe(204);
    expect(await f.stream(teamId)).toHaveLength(3);
    for (const action of ['rotate-secret', 'ping']) {
      const refused = await f.call('POST', `/webhooks/${gone.id}/${action}`, key);
      expect([action, refused.status, refused.body.error.code]).toEqual([action, 404, 'endpoint_deleted']);
    }
    f.clock.set(START);
  });

  it('rotates the secret: 200 with a new one, shown once; the replaced one keeps signing for 24 h', async () => {
    const { teamId, key } = await teamWithKey();
    const registered = (await f.call('POST', '/webhooks', key, { url: HOOK, events: ['post.updated'] })).body
      .data;
    f.clock.set('2026-03-10T13:00:00.000Z');
    const res = await f.call('POST', `/webhooks/${registered.id}/rotate-secret`, key);
    expect(res.status).toBe(200);
    expect(res.body.data.secret).toMatch(SECRET);
    expect(res.body.data.secret).not.toBe(registered.secret);
    expect(res.body.data.secretRotatedAt).toBe('2026-03-10T13:00:00.000Z');
    const stream = await f.stream(teamId);
    expect(stream[1]).toMatchObject({
      type: 'WebhookEndpointSecretRotated',
      data: {
        endpointId: registered.id,
        teamId,
        secret: res.body.data.secret,
        at: '2026-03-10T13:00:00.000Z',
      },
    });
    expect(folded(stream).endpoints[registered.id].secrets).toEqual([
      { secret: registered.secret, createdAt: START, replacedAt: '2026-03-10T13:00:00.000Z' },
      { secret: res.body.data.secret, createdAt: '2026-03-10T13:00:00.000Z', replacedAt: null },
    ]);
    const read = await f.call('GET', `/webhooks/${registered.id}`, key);
    expect(read.body.data.secretRotatedAt).toBe('2026-03-10T13:00:00.000Z');
    expect(read.raw).not.toContain('whsec_');
    f.clock.set(START);
  });

  it('pings: 202 with the webhook.ping event id the delivery will carry, Location to the deliveries, the event appended', async () => {
    const { teamId, key } = await teamWithKey();
    const endpoint = (await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] })).body
      .data;
    f.clock.set('2026-03-10T12:30:00.000Z');
    const res = await f.call('POST', `/webhooks/${endpoint.id}/ping`, key);
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/analyst/v1/webhooks/${endpoint.id}/deliveries`);
    const stream = await f.stream(teamId);
    const pinged = stream[1];
    expect(pinged).toMatchObject({
      type: 'WebhookEndpointPinged',
      data: { endpointId: endpoint.id, teamId, at: '2026-03-10T12:30:00.000Z' },
    });
    expect(res.body).toEqual({
      data: { id: `evt_${pinged.id.replace(/^ev_/, '')}`, type: WEBHOOK_PING_TYPE, webhookId: endpoint.id },
      meta: {},
    });
    // The id the notifier's mapping gives the same log event: what the receiver sees.
    expect(toWebhookEvent(pinged)).toMatchObject({ id: res.body.data.id, type: 'webhook.ping', teamId });
    expect((await f.call('GET', `/webhooks/${endpoint.id}`, key)).body.data.lastPingAt).toBe(
      '2026-03-10T12:30:00.000Z',
    );
    f.clock.set(START);
  });

  it('refuses the eleventh endpoint with 409 endpoint_limit_reached and appends nothing; a delete frees a place', async () => {
    const { teamId, key } = await teamWithKey();
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const res = await f.call('POST', '/webhooks', key, { url: `${HOOK}/${i}`, events: ['analysis.ready'] });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    const refused = await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'endpoint_limit_reached',
      message: 'a team may have at most 10 webhook endpoints; delete one first',
    });
    expect(await f.stream(teamId)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect((await f.call('DELETE', `/webhooks/${ids[0]}`, key)).status).toBe(204);
    expect((await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] })).status).toBe(
      201,
    );
  });

  it('five registrations at once for the last place: one 201, four 409, ten endpoints in the stream', async () => {
    const { teamId, key } = await teamWithKey();
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS - 1; i++)
      expect((await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] })).status).toBe(
        201,
      );
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        f.call('POST', '/webhooks', key, { url: `${HOOK}/race-${i}`, events: ['post.updated'] }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error.code)).toEqual(
      Array(4).fill('endpoint_limit_reached'),
    );
    const stream = await f.stream(teamId);
    expect(stream).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(Object.keys(folded(stream).endpoints)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });

  it('charges writes to webhooks_write and reads to global', async () => {
    const { key } = await teamWithKey();
    const created = await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] });
    expect(created.headers['x-ratelimit-class']).toBe('webhooks_write');
    const id = created.body.data.id;
    expect((await f.call('POST', `/webhooks/${id}/ping`, key)).headers['x-ratelimit-class']).toBe(
      'webhooks_write',
    );
    expect((await f.call('GET', `/webhooks/${id}`, key)).headers['x-ratelimit-class']).toBe('global');
    expect((await f.call('DELETE', `/webhooks/${id}`, key)).headers['x-ratelimit-class']).toBe(
      'webhooks_write',
    );
  });

  const refusals: [string, unknown, string, RegExp][] = [
    [
      'not a URL',
      { url: 'hooks.example.com/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /not an absolute URL/,
    ],
    [
      'plain http',
      { url: 'http://8.8.8.8/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /must use https, not http/,
    ],
    [
      'credentials',
      { url: 'https://u:p@8.8.8.8/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /credentials/,
    ],
    [
      '127.0.0.1',
      { url: 'https://127.0.0.1/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /127\.0\.0\.1/,
    ],
    [
      'a name resolving to loopback',
      { url: 'https://localhost:8443/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /loopback/,
    ],
    [
      '10.0.0.0/8',
      { url: 'https://10.20.30.40/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /10\.20\.30\.40/,
    ],
    [
      'cloud metadata',
      { url: 'https://169.254.169.254/latest', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /169\.254\.169\.254/,
    ],
    [
      'a metadata host name',
      { url: 'https://metadata.google.internal/x', events: ['analysis.ready'] },
      'invalid_webhook_url',
      /metadata/,
    ],
    [
      'an unknown event type',
      { url: HOOK, events: ['analysis.ready', 'post.deleted'] },
      'invalid_webhook_events',
      /unknown event type post\.deleted/,
    ],
    [
      'no event type',
      { url: HOOK, events: [] },
      'invalid_request',
      /events must name at least one event type/,
    ],
    ['events not a list', { url: HOOK, events: 'analysis.ready' }, 'invalid_request', /events/],
    [
      'a long description',
      { url: HOOK, events: ['analysis.ready'], description: 'x'.repeat(201) },
      'invalid_webhook_description',
      /at most 200/,
    ],
    [
      'an unknown field',
      { url: HOOK, events: ['analysis.ready'], secret: 'whsec_mine' },
      'invalid_request',
      /secret/,
    ],
    ['no url', { events: ['analysis.ready'] }, 'invalid_request', /url/],
  ];
  it.each(refusals)('refuses %s with 400 and appends nothing', async (_name, body, code, message) => {
    const { teamId, key } = await teamWithKey();
    const res = await f.call('POST', '/webhooks', key, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toMatch(message);
    expect(await f.stream(teamId)).toEqual([]);
  });

  it('needs webhooks:write to change endpoints and webhooks:read to read them (403 missing_scope)', async () => {
    const { teamId, key } = await teamWithKey();
    const endpoint = (await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] })).body
      .data;
    const reader = await f.key(teamId, ['webhooks:read']);
    const writer = await f.key(teamId, ['webhooks:write']);
    for (const [method, path] of [
      ['POST', '/webhooks'],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
      ['POST', `/webhooks/${endpoint.id}/ping`],
    ] as const) {
      const res = await f.call(
        method,
        path,
        reader,
        method === 'POST' ? { url: HOOK, events: ['analysis.ready'] } : undefined,
      );
      expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 403, 'missing_scope']);
    }
    for (const path of ['/webhooks', `/webhooks/${endpoint.id}`]) {
      const res = await f.call('GET', path, writer);
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 'missing_scope']);
    }
    expect((await f.call('GET', `/webhooks/${endpoint.id}`, reader)).status).toBe(200);
    expect(await f.stream(teamId)).toHaveLength(1);
  });

  it('never reaches another team’s endpoint: 404 endpoint_not_found for every route, and its stream untouched', async () => {
    const owner = await teamWithKey();
    const other = await teamWithKey();
    const endpoint = (await f.call('POST', '/webhooks', owner.key, { url: HOOK, events: ['analysis.ready'] }))
      .body.data;
    for (const [method, path] of [
      ['GET', `/webhooks/${endpoint.id}`],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
      ['POST', `/webhooks/${endpoint.id}/ping`],
    ] as const) {
      const res = await f.call(method, path, other.key);
      expect([method, res.status, res.body.error]).toEqual([
        method,
        404,
        { code: 'endpoint_not_found', message: `endpoint ${endpoint.id} not found` },
      ]);
    }
    expect((await f.call('GET', '/webhooks', other.key)).body.data).toEqual([]);
    expect(await f.stream(owner.teamId)).toHaveLength(1);
    expect(await f.stream(other.teamId)).toEqual([]);
  });

  it('answers 404 for a path that cannot be an endpoint id, without touching the log', async () => {
    const { teamId, key } = await teamWithKey();
    for (const id of ['constructor', '__proto__', 'toString', 'we_short']) {
      for (const [method, path] of [
        ['GET', `/webhooks/${id}`],
        ['DELETE', `/webhooks/${id}`],
        ['POST', `/webhooks/${id}/ping`],
      ] as const) {
        const res = await f.call(method, path, key);
        expect([method, path, res.status, res.body.error?.code]).toEqual([
          method,
          path,
          404,
          'endpoint_not_found',
        ]);
      }
    }
    expect(await f.stream(teamId)).toEqual([]);
  });

  it('an Enterprise key manages a sub-team’s endpoints with teamId (body or query); any other team is 404', async () => {
    const parent = await f.team('enterprise');
    const sub = await f.team('growth', parent);
    const stranger = await f.team('scale');
    const key = await f.key(parent);
    const res = await f.call('POST', '/webhooks', key, {
      url: HOOK,
      events: ['content_job.failed'],
      teamId: sub,
    });
    expect(res.status).toBe(201);
    const { id } = res.body.data;
    expect(res.headers.location).toBe(`/analyst/v1/webhooks/${id}?teamId=${sub}`);
    expect((await f.stream(sub)).map((e) => e.data)).toEqual([
      expect.objectContaining({ endpointId: id, teamId: sub }),
    ]);
    expect(await f.stream(parent)).toEqual([]);
    expect(
      (await f.call('GET', `/webhooks?teamId=${sub}`, key)).body.data.map((e: { id: string }) => e.id),
    ).toEqual([id]);
    expect((await f.call('GET', '/webhooks', key)).body.data).toEqual([]);
    expect((await f.call('GET', `/webhooks/${id}`, key)).status).toBe(404);
    const ping = await f.call('POST', `/webhooks/${id}/ping?teamId=${sub}`, key);
    expect(ping.status).toBe(202);
    expect(ping.headers.location).toBe(`/analyst/v1/webhooks/${id}/deliveries?teamId=${sub}`);
    expect((await f.call('DELETE', `/webhooks/${id}?teamId=${sub}`, key)).status).toBe(204);
    const refused = await f.call('POST', '/webhooks', key, {
      url: HOOK,
      events: ['analysis.ready'],
      teamId: stranger,
    });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('team_not_found');
    const subKey = await f.key(sub);
    expect((await f.call('GET', `/webhooks?teamId=${parent}`, subKey)).status).toBe(404);
    expect(await f.stream(stranger)).toEqual([]);
  });

  it('a disabled endpoint shows why, refuses a ping with 409 endpoint_disabled, and still rotates', async () => {
    const { teamId, key } = await teamWithKey();
    const endpoint = (await f.call('POST', '/webhooks', key, { url: HOOK, events: ['analysis.ready'] })).body
      .data;
    // What the notifier does after 72 hours of failed attempts.
    await f.t.app.get(WebhookEndpointCommands).handle(
      teamId,
      {
        type: 'DisableWebhookEndpoint',
        data: {
          endpointId: endpoint.id,
          health: {
            lastDeliveredAt: null,
            failingSince: '2026-03-10T12:00:00.000Z',
            lastFailedAt: '2026-03-13T12:00:00.000Z',
          },
          at: '2026-03-13T12:00:00.000Z',
        },
      },
      { correlationId: 'test', teamId },
    );
    const read = await f.call('GET', `/webhooks/${endpoint.id}`, key);
    expect(read.body.data).toMatchObject({
      status: 'disabled',
      disabledAt: '2026-03-13T12:00:00.000Z',
      disabledReason: 'delivery_failures',
    });
    const ping = await f.call('POST', `/webhooks/${endpoint.id}/ping`, key);
    expect(ping.status).toBe(409);
    expect(ping.body.error).toEqual({
      code: 'endpoint_disabled',
      message: `endpoint ${endpoint.id} is disabled`,
    });
    expect((await f.call('POST', `/webhooks/${endpoint.id}/rotate-secret`, key)).status).toBe(200);
    expect((await f.stream(teamId)).map((e) => e.type)).toEqual([
      'WebhookEndpointRegistered',
      'WebhookEndpointDisabled',
      'WebhookEndpointSecretRotated',
    ]);
  });

  describe('Idempotency-Key on POST /webhooks', () => {
    it('a retry with the same key and body answers the first endpoint and secret again (200, replayed) and registers nothing', async () => {
      const { teamId, key } = await teamWithKey();
      const body = { url: HOOK, events: ['analysis.ready', 'analysis.failed'], description: 'ci' };
      const first = await f.call('POST', '/webhooks', key, body, { 'idempotency-key': 'reg-1' });
      expect(first.status).toBe(201);
      const again = await f.call(
        'POST',
        '/webhooks',
        key,
        { ...body, events: ['analysis.failed', 'analysis.ready'] },
        { 'idempotency-key': 'reg-1' },
      );
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ data: first.body.data, meta: { replayed: true } });
      expect(again.headers.location).toBe(first.headers.location);
      expect(await f.stream(teamId)).toHaveLength(1);
      // Another key is another endpoint.
      const other = await f.call('POST', '/webhooks', key, body, { 'idempotency-key': 'reg-2' });
      expect(other.status).toBe(201);
      expect(other.body.data.id).not.toBe(first.body.data.id);
    });

    it('concurrent retries with one key register one endpoint and all answer it', async () => {
      const { teamId, key } = await teamWithKey();
      const body = { url: HOOK, events: ['post.updated'] };
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          f.call('POST', '/webhooks', key, body, { 'idempotency-key': 'burst' }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(answers.map((a) => a.body.data.secret)).size).toBe(1);
      expect(await f.stream(teamId)).toHaveLength(1);
    });

    it('the same key with another body, or after a rotation, is 409 idempotency_key_reused; after a delete 404; a malformed key 400', async () => {
      const { teamId, key } = await teamWithKey();
      const first = await f.call(
        'POST',
        '/webhooks',
        key,
        { url: HOOK, events: ['post.updated'] },
        { 'idempotency-key': 'k1' },
      );
      const changed = await f.call(
        'POST',
        '/webhooks',
        key,
        { url: HOOK, events: ['analysis.ready'] },
        { 'idempotency-key': 'k1' },
      );
      expect(changed.status).toBe(409);
      expect(changed.body.error.code).toBe('idempotency_key_reused');
      await f.call('POST', `/webhooks/${first.body.data.id}/rotate-secret`, key);
      const afterRotation = await f.call(
        'POST',
        '/webhooks',
        key,
        { url: HOOK, events: ['post.updated'] },
        { 'idempotency-key': 'k1' },
      );
      expect(afterRotation.status).toBe(409);
      expect(afterRotation.body.error.message).toMatch(/rotated/);
      await f.call('DELETE', `/webhooks/${first.body.data.id}`, key);
      const afterDelete = await f.call(
        'POST',
        '/webhooks',
        key,
        { url: HOOK, events: ['post.updated'] },
        { 'idempotency-key': 'k1' },
      );
      expect(afterDelete.status).toBe(404);
      expect(afterDelete.body.error.code).toBe('endpoint_deleted');
      const malformed = await f.call(
        'POST',
        '/webhooks',
        key,
        { url: HOOK, events: ['post.updated'] },
        { 'idempotency-key': 'no spaces' },
      );
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toMatch(/Idempotency-Key/);
      expect((await f.stream(teamId)).map((e) => e.type)).toEqual([
        'WebhookEndpointRegistered',
        'WebhookEndpointSecretRotated',
        'WebhookEndpointDeleted',
      ]);
    });
  });
});

describe('webhook endpoint routes with ANALYST_WEBHOOK_ALLOWED_NETWORKS', () => {
  let f: EndpointsTest;
  beforeAll(async () => (f = await endpointsTest({ allowedNetworks: '127.0.0.0/8' })));
  afterAll(() => f.close());

  it('accepts http and the allowed range, and still refuses cloud metadata and ranges outside it', async () => {
    const teamId = await f.team('scale');
    const key = await f.key(teamId);
    const local = await f.call('POST', '/webhooks', key, {
      url: 'http://127.0.0.1:9911/hook',
      events: ['analysis.ready'],
    });
    expect(local.status).toBe(201);
    expect(local.body.data.url).toBe('http://127.0.0.1:9911/hook');
    for (const url of ['http://169.254.169.254/latest', 'https://10.1.1.1/x', 'http://8.8.8.8/x']) {
      const res = await f.call('POST', '/webhooks', key, { url, events: ['analysis.ready'] });
      expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'invalid_webhook_url']);
    }
    expect(await f.stream(teamId)).toHaveLength(1);
  });
});
