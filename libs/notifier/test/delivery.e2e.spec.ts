import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhookSignature } from '@analyst/client';
import type { PostScored } from '@analyst/contracts';
import { GatewayModule } from '@analyst/gateway';
import { EVENT_STORE, FixedClock, type EventStore } from '@analyst/platform';
import { createTestApp, type TestApp, type TestResponse } from '@analyst/testing';
import { ALLOWED_NETWORKS_VARIABLE, webhookEventId } from '@analyst/webhooks';
import { LoopbackReceiver } from '../../webhooks/test/delivery-harness';
import { WebhookDeliveryModule } from '../src/delivery/webhook-delivery.module';
import { WebhookDeliveryRunner } from '../src/delivery/webhook-delivery-runner';

const START = '2026-03-10T12:00:00.000Z';
const SCOPES = ['webhooks:read', 'webhooks:write'];
const BIG = { perMinute: 100_000, perDay: 1_000_000 };

/** The gateway and the delivery module (with the endpoint routes it imports), as standalone mounts them. */
async function deliveryApp(clock: FixedClock, dataDir?: string): Promise<TestApp> {
  const env = { [ALLOWED_NETWORKS_VARIABLE]: '127.0.0.0/8', ANALYST_NOTIFIER_TICK_MS: '50' };
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env); // read once, while the modules start
  try {
    return await createTestApp({ modules: [GatewayModule, WebhookDeliveryModule], clock, dataDir });
  } finally {
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

class Caller {
  constructor(private readonly t: TestApp) {}

  async team(): Promise<{ teamId: string; key: string }> {
    const created = await this.t.admin('POST', '/admin/v1/teams', {
      name: `Team ${randomUUID()}`,
      plan: 'scale',
    });
    const teamId = created.body.data.id as string;
    await this.t.admin('PUT', `/admin/v1/teams/${teamId}/limits`, {
      limits: { global: BIG, webhooks_write: BIG },
    });
    const key = await this.t.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: 'k', scopes: SCOPES });
    return { teamId, key: key.body.data.key as string };
  }

  call(method: 'GET' | 'POST', path: string, key: string, body?: unknown): Promise<TestResponse> {
    return this.t.request(method, `/analyst/v1${path}`, {
      headers: { authorization: `Bearer ${key}` },
      body,
    });
  }
}

/** A post's version scored, as ingest records it: `post.updated` for the team. */
async function appendPostScored(
  events: EventStore,
  teamId: string,
  postId: string,
  at: string,
): Promise<string> {
  const id = `ev_${randomUUID().replace(/-/g, '')}`;
  const data: PostScored['data'] = {
    postId,
    dataVersion: 1,
    jobId: 'cj_1',
    reservationId: null,
    scorer: { name: 'test', version: '1' },
    topics: [],
    messages: [],
    totalComments: 3,
    at,
  };
  await events.append(
    `post-${postId}`,
    [
      {
        id,
        type: 'PostScored',
        schemaVersion: 1,
        data,
        metadata: { correlationId: 'req_test', causationId: null, teamId, occurredAt: at },
      },
    ],
    'any',
  );
  return webhookEventId(id);
}

async function until<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; waited < 15_000; waited += 20) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('webhook delivery through the notifier module (receivers on 127.0.0.1)', () => {
  const receivers: LoopbackReceiver[] = [];
  const apps: TestApp[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const receiver of receivers.splice(0)) await receiver.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function receiver(answer: (index: number) => number): Promise<LoopbackReceiver> {
    const r = new LoopbackReceiver((_got, index) => answer(index));
    receivers.push(r);
    await r.start();
    return r;
  }

  it('delivers a fact appended to the log once, signed, and the deliveries route shows it delivered', async () => {
    const clock = new FixedClock(START);
    const t = await deliveryApp(clock);
    apps.push(t);
    const api = new Caller(t);
    const events = t.app.get<EventStore>(EVENT_STORE);
    const hook = await receiver(() => 200);
    const { teamId, key } = await api.team();
    const registered = await api.call('POST', '/webhooks', key, {
      url: hook.url('/in'),
      events: ['post.updated'],
    });
    expect(registered.status).toBe(201);
    const { id: webhookId, secret } = registered.body.data;

    clock.advance(1_000);
    const eventId = await appendPostScored(events, teamId, 'po_1', clock.now().toISOString());
    await until(
      'the delivery',
      () => hook.received.length,
      (n) => n >= 1,
    );
    const deliveries = await until(
      'the delivery recorded',
      () => api.call('GET', `/webhooks/${webhookId}/deliveries`, key),
      (r) => r.body.data?.[0]?.status === 'delivered',
    );

    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    expect(got.path).toBe('/in');
    expect(JSON.parse(got.body)).toEqual({
      id: eventId,
      type: 'post.updated',
      createdAt: clock.now().toISOString(),
      teamId,
      data: expect.objectContaining({ object: 'post', id: 'po_1', path: '/posts/po_1/analysis' }),
    });
    expect(got.headers['analyst-webhook-id']).toBe(eventId);
    const check = await verifyWebhookSignature(got.body, got.headers['analyst-signature'], secret, {
      nowSeconds: Math.floor(clock.now().getTime() / 1000),
    });
    expect(check.ok).toBe(true);

    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toEqual({
      data: [
        {
          object: 'webhook_delivery',
          id: `dlv_${webhookId}_${eventId}`,
          event: { id: eventId, type: 'post.updated' },
          status: 'delivered',
          attempts: 1,
          lastAttempt: {
            number: 1,
            at: clock.now().toISOString(),
            outcome: 'delivered',
            responseStatus: 200,
            latencyMs: expect.any(Number),
            error: null,
            responseBody: 'ok',
          },
          nextRetryAt: null,
          createdAt: clock.now().toISOString(),
        },
      ],
      meta: { limit: 20, count: 1, hasMore: false, nextCursor: null },
    });

    // The tick reports after the attempt is recorded: wait for its report to reach the counters.
    const metrics = await until(
      'the tick counted',
      () => t.request('GET', '/metrics'),
      (r) => /analyst_notifier_delivery_attempts_total\{outcome="delivered"[^}]*\} 1\n/.test(r.raw),
    );
    expect(metrics.raw).toMatch(/analyst_notifier_delivery_attempts_total\{outcome="delivered"[^}]*\} 1\n/);
    expect(metrics.raw).toMatch(/analyst_notifier_deliveries_created_total\{[^}]*\} 1\n/);
    expect(metrics.raw).toMatch(/analyst_notifier_partitions_held\{[^}]*\} 16\n/);
    expect(metrics.raw).toMatch(/analyst_notifier_log_lag_events\{[^}]*\} 0\n/);
    // Nothing more: a second look after more ticks finds the one delivery.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.received).toHaveLength(1);

    // 30 days later it is still listed; a day past that the hourly pruning removes it.
    const runner = t.app.get(WebhookDeliveryRunner);
    clock.advance(30 * 24 * 3600_000 - 1_000);
    expect(await runner.pruneFinished()).toBe(0);
    clock.advance(24 * 3600_000);
    expect(await runner.pruneFinished()).toBe(1);
    const pruned = await api.call('GET', `/webhooks/${webhookId}/deliveries`, key);
    expect(pruned.body).toMatchObject({ data: [], meta: { count: 0, hasMore: false } });
  });

  it('a ping reaches its endpoint only; another team sees no such endpoint; limit and cursor are checked', async () => {
    const clock = new FixedClock(START);
    const t = await deliveryApp(clock);
    apps.push(t);
    const api = new Caller(t);
    const hook = await receiver(() => 204);
    const { key } = await api.team();
    const other = await api.team();
    const pinged = await api.call('POST', '/webhooks', key, {
      url: hook.url('/pinged'),
      events: ['analysis.ready'],
    });
    await api.call('POST', '/webhooks', key, { url: hook.url('/quiet'), events: ['analysis.ready'] });
    const webhookId = pinged.body.data.id as string;
    const ping = await api.call('POST', `/webhooks/${webhookId}/ping`, key);
    expect(ping.status).toBe(202);
    await until(
      'the ping',
      () => hook.received.length,
      (n) => n >= 1,
    );
    const listed = await until(
      'the ping recorded',
      () => api.call('GET', `/webhooks/${webhookId}/deliveries?limit=1`, key),
      (r) => r.body.data?.[0]?.status === 'delivered',
    );
    expect(hook.received.map((r) => [r.path, r.eventId])).toEqual([['/pinged', ping.body.data.id]]);
    expect(listed.body.data[0]).toMatchObject({
      event: { id: ping.body.data.id, type: 'webhook.ping' },
      lastAttempt: { responseStatus: 204 },
    });

    const foreign = await api.call('GET', `/webhooks/${webhookId}/deliveries`, other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'endpoint_not_found' });
    expect(JSON.stringify(foreign.body)).not.toContain(ping.body.data.id);
    const badLimit = await api.call('GET', `/webhooks/${webhookId}/deliveries?limit=101`, key);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error).toMatchObject({
      code: 'invalid_parameter',
      message: expect.stringContaining('limit'),
    });
    const badCursor = await api.call('GET', `/webhooks/${webhookId}/deliveries?cursor=nope`, key);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error).toMatchObject({ code: 'invalid_cursor' });
  });

  it('pages the deliveries newest first with the cursor', async () => {
    const clock = new FixedClock(START);
    const t = await deliveryApp(clock);
    apps.push(t);
    const api = new Caller(t);
    const events = t.app.get<EventStore>(EVENT_STORE);
    const hook = await receiver(() => 200);
    const { teamId, key } = await api.team();
    const registered = await api.call('POST', '/webhooks', key, {
      url: hook.url(),
      events: ['post.updated'],
    });
    const webhookId = registered.body.data.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      ids.push(await appendPostScored(events, teamId, `po_${i}`, clock.now().toISOString()));
      await until(
        'each delivery',
        () => hook.received.length,
        (n) => n > i,
      );
    }
    const first = await api.call('GET', `/webhooks/${webhookId}/deliveries?limit=2`, key);
    expect(first.body.data.map((d: { event: { id: string } }) => d.event.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.meta).toMatchObject({ limit: 2, count: 2, hasMore: true });
    const second = await api.call(
      'GET',
      `/webhooks/${webhookId}/deliveries?limit=2&cursor=${first.body.meta.nextCursor}`,
      key,
    );
    expect(second.body.data.map((d: { event: { id: string } }) => d.event.id)).toEqual([ids[0]]);
    expect(second.body.meta).toMatchObject({ count: 1, hasMore: false, nextCursor: null });
  });

  it('a restart keeps a pending retry in notifier-state.db and attempts it when due, creating nothing twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'notifier-restart-'));
    dirs.push(dataDir);
    const clock = new FixedClock(START);
    const first = await deliveryApp(clock, dataDir);
    const api = new Caller(first);
    const hook = await receiver((index) => (index === 0 ? 500 : 200));
    const { teamId, key } = await api.team();
    const registered = await api.call('POST', '/webhooks', key, {
      url: hook.url(),
      events: ['post.updated'],
    });
    const webhookId = registered.body.data.id as string;
    clock.advance(1_000);
    const eventId = await appendPostScored(
      first.app.get(EVENT_STORE),
      teamId,
      'po_1',
      clock.now().toISOString(),
    );
    const failed = await until(
      'the failed attempt recorded',
      () => api.call('GET', `/webhooks/${webhookId}/deliveries`, key),
      (r) => r.body.data?.[0]?.attempts === 1,
    );
    expect(failed.body.data[0]).toMatchObject({
      status: 'pending',
      lastAttempt: { outcome: 'failed', responseStatus: 500, error: { code: 'http_status' } },
    });
    const nextRetryAt = failed.body.data[0].nextRetryAt as string;
    expect(Date.parse(nextRetryAt)).toBeGreaterThan(clock.now().getTime());
    await first.close();

    // The same data dir, later than the retry: the new process finds the pending delivery and sends it.
    const later = new FixedClock(new Date(Date.parse(nextRetryAt) + 1_000).toISOString());
    const second = await deliveryApp(later, dataDir);
    apps.push(second);
    const again = new Caller(second);
    const delivered = await until(
      'the retry after the restart',
      () => again.call('GET', `/webhooks/${webhookId}/deliveries`, key),
      (r) => r.body.data?.[0]?.status === 'delivered',
    );
    expect(hook.received.map((r) => r.eventId)).toEqual([eventId, eventId]);
    expect(delivered.body.data).toHaveLength(1);
    expect(delivered.body.data[0]).toMatchObject({
      id: `dlv_${webhookId}_${eventId}`,
      attempts: 2,
      lastAttempt: { number: 2, outcome: 'delivered', responseStatus: 200 },
    });
    const runner = second.app.get(WebhookDeliveryRunner);
    expect((await runner.engine.tick()).created).toBe(0);
  });
});
