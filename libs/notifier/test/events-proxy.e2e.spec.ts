import { Controller, Get, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayModule, GatewayProxyModule, InternalAuthGuard } from '@analyst/gateway';
import { EventStreamModule, EventStreams } from '@analyst/notifier';
import {
  EVENT_STORE,
  FixedClock,
  ObservabilityModule,
  PlatformModule,
  Principal,
  createHttpApp,
  loadConfig,
  type EventStore,
} from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';
import { openSse, type SseConnection } from './events-sse-client';

const SECRET = 'events-proxy-internal-secret-0123456789';
const NOW = '2026-03-10T12:00:00.000Z';
const DOWN = 'http://127.0.0.1:1';

async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Stands in for the notifier's other routes: a request to the same replica that is not a stream. */
@Controller('webhooks')
class StubWebhooksController {
  @Get()
  list(@Principal() principal: Principal) {
    return { data: [], meta: { team: principal.targetTeamId } };
  }
}

/** A notifier process of the distributed topology, reduced to the event stream: behind the internal auth guard. */
@Module({
  imports: [EventStreamModule],
  controllers: [StubWebhooksController],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
})
class StreamingNotifierModule {}

async function startNotifier(dataDir: string): Promise<NestFastifyApplication> {
  const config = loadConfig({
    ANALYST_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ANALYST_INTERNAL_SECRET: SECRET,
  });
  class NotifierRoot {}
  Module({
    imports: [
      PlatformModule.forRoot(config, { clock: new FixedClock(NOW) }),
      ObservabilityModule.forRoot({ service: 'notifier', level: 'silent' }),
      StreamingNotifierModule,
    ],
  })(NotifierRoot);
  const app = await createHttpApp(NotifierRoot, { structuredLogs: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

async function startGateway(notifierUrl: string, dataDir: string): Promise<{ t: TestApp; url: string }> {
  const t = await createTestApp({
    modules: [
      GatewayModule,
      GatewayProxyModule.forRoot({
        upstreams: { ingest: DOWN, ledger: DOWN, analysis: DOWN, sampling: DOWN, notifier: notifierUrl },
        // Shorter than the test reads the stream for: only the heartbeats keep it open.
        timeoutMs: 1000,
        pool: { probeEveryMs: 3_600_000, resolveEveryMs: 3_600_000 },
      }),
    ],
    clock: new FixedClock(NOW),
    dataDir,
    env: { ANALYST_INTERNAL_SECRET: SECRET },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, url: (await t.app.getUrl()).replace('[::1]', '127.0.0.1') };
}

/**
 * The distributed shape: a real gateway (its guard, stream cap and proxy) in front of a real
 * notifier app serving GET /events. The stream passes through unbuffered, both ways.
 */
describe('GET /events through the gateway proxy', () => {
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'analyst-events-proxy-')));
  const previousHeartbeat = process.env.ANALYST_EVENTS_HEARTBEAT_MS;
  let notifier: NestFastifyApplication;
  let gateway: { t: TestApp; url: string };
  let log: EventStore;
  let seq = 0;
  const open: SseConnection[] = [];

  async function keyOfNewTeam(g = gateway): Promise<{ teamId: string; key: string }> {
    const team = await g.t.admin('POST', '/admin/v1/teams', { name: `Proxy ${++seq}`, plan: 'scale' });
    const made = await g.t.admin('POST', `/admin/v1/teams/${team.body.data.id}/keys`, {
      name: 'stream',
      scopes: ['webhooks:read'],
    });
    return { teamId: team.body.data.id as string, key: made.body.data.key as string };
  }

  async function stream(key: string, query = '', g = gateway): Promise<SseConnection> {
    const connection = await openSse(`${g.url}/analyst/v1/events${query}`, {
      authorization: `Bearer ${key}`,
    });
    open.push(connection);
    return connection;
  }

  async function jobCompleted(teamId: string) {
    const n = ++seq;
    const { position } = await log.append(
      `contentjob-cj_proxy_${n}`,
      [
        {
          id: `ev_proxy_${n}`,
          type: 'JobSettled',
          schemaVersion: 1,
          data: { status: 'completed', error: null, at: NOW },
          metadata: { correlationId: `c${n}`, causationId: null, teamId, occurredAt: NOW },
        },
      ],
      'any',
    );
    return {
      position,
      event: {
        id: `evt_proxy_${n}`,
        type: 'content_job.completed',
        createdAt: NOW,
        teamId,
        data: {
          object: 'content_job',
          id: `cj_proxy_${n}`,
          status: 'completed',
          error: null,
          completedAt: NOW,
          path: `/content/jobs/cj_proxy_${n}`,
        },
      },
    };
  }

  beforeAll(async () => {
    process.env.ANALYST_EVENTS_HEARTBEAT_MS = '150';
    notifier = await startNotifier(dirs[0]);
    log = notifier.get<EventStore>(EVENT_STORE);
    gateway = await startGateway((await notifier.getUrl()).replace('[::1]', '127.0.0.1'), dirs[1]);
  });

  afterEach(() => {
    for (const connection of open.splice(0)) connection.close();
  });

  afterAll(async () => {
    await gateway.t.close();
    await notifier.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (previousHeartbeat === undefined) delete process.env.ANALYST_EVENTS_HEARTBEAT_MS;
    else process.env.ANALYST_EVENTS_HEARTBEAT_MS = previousHeartbeat;
  });

  it("passes the stream through as it comes: the first event is read while the stream is open, with the notifier's headers", async () => {
    const { teamId, key } = await keyOfNewTeam();
    const connection = await stream(key);
    expect(connection.status).toBe(200);
    expect(connection.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(connection.headers['cache-control']).toBe('no-cache');
    expect(connection.headers['x-accel-buffering']).toBe('no');
    expect(connection.headers['x-ratelimit-limit']).toBeDefined();
    expect(await connection.next()).toEqual({ retry: '3000' });

    const appended = await jobCompleted(teamId);
    const frame = await connection.nextEvent();
    expect([frame.id, frame.event]).toEqual([String(appended.position), 'content_job.completed']);
    expect(JSON.parse(frame.data!)).toEqual(appended.event);
    // Read from a stream that has not ended: nothing waited for the end of the body.
    let ended = false;
    void connection.ended.then(() => (ended = true));
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(false);
  });

  it('keeps the stream open past the upstream timeout while heartbeats flow', async () => {
    const { key } = await keyOfNewTeam();
    const connection = await stream(key);
    const started = Date.now();
    let heartbeats = 0;
    // 1.5 s against the gateway's 1 s upstream timeout.
    while (Date.now() - started < 1500) {
      const frame = await connection.next(1000);
      if (frame.comment === 'heartbeat') heartbeats += 1;
    }
    expect(heartbeats).toBeGreaterThanOrEqual(3);
  });

  it('closes the upstream request when the client goes away', async () => {
    const { key } = await keyOfNewTeam();
    const streams = notifier.get(EventStreams);
    const before = streams.count;
    const connection = await stream(key);
    await connection.next();
    expect(streams.count).toBe(before + 1);
    connection.close();
    await eventually(() => streams.count === before, 'the notifier closed the stream');
  });

  it("passes the notifier's refusals through in the error envelope", async () => {
    const { key } = await keyOfNewTeam();
    const refused = await stream(key, '?types=analysis.done');
    expect(refused.status).toBe(400);
    const body = await refused.errorBody();
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.message).toContain('unknown event type "analysis.done"');
  });

  it('caps open streams at the gateway: the sixth never reaches the notifier', async () => {
    const { key } = await keyOfNewTeam();
    const streams = notifier.get(EventStreams);
    const before = streams.count;
    for (let i = 0; i < 5; i += 1) expect((await stream(key)).status).toBe(200);
    await eventually(() => streams.count === before + 5, 'five streams open at the notifier');
    const sixth = await stream(key);
    expect(sixth.status).toBe(429);
    expect((await sixth.errorBody()).error.code).toBe('too_many_streams');
    expect(streams.count).toBe(before + 5);
  });

  it('open streams hold no pooled connection: with 130 open through one gateway to one notifier, its other routes still answer', async () => {
    const streams = notifier.get(EventStreams);
    const before = streams.count;
    let probeKey = '';
    let probeTeam = '';
    for (let team = 0; team < 9; team += 1) {
      const created = await gateway.t.admin('POST', '/admin/v1/teams', {
        name: `Many ${team}`,
        plan: 'scale',
      });
      for (let k = 0; k < 3; k += 1) {
        const made = await gateway.t.admin('POST', `/admin/v1/teams/${created.body.data.id}/keys`, {
          name: `k${k}`,
          scopes: ['webhooks:read'],
        });
        probeKey = made.body.data.key;
        probeTeam = created.body.data.id;
        for (let i = 0; i < 5 && streams.count < before + 130; i += 1)
          expect((await stream(probeKey)).status).toBe(200);
      }
    }
    await eventually(() => streams.count === before + 130, '130 streams open at the notifier');
    // The proxy's pooled client keeps at most 128 connections to a replica: had the streams held
    // them, this would wait for one and answer 504 after the 1 s upstream timeout.
    const listed = await gateway.t.request('GET', '/analyst/v1/webhooks', {
      headers: { authorization: `Bearer ${probeKey}` },
    });
    expect([listed.status, listed.body]).toEqual([200, { data: [], meta: { team: probeTeam } }]);
  });

  it('a gateway shutting down ends the streams it passes through, and their upstream requests', async () => {
    const second = await startGateway((await notifier.getUrl()).replace('[::1]', '127.0.0.1'), dirs[2]);
    const { key } = await keyOfNewTeam(second);
    const streams = notifier.get(EventStreams);
    const before = streams.count;
    const connection = await stream(key, '', second);
    await connection.next();
    await eventually(() => streams.count === before + 1, 'the stream open at the notifier');
    await second.t.close();
    await connection.ended;
    await eventually(() => streams.count === before, 'the notifier closed the stream');
  });
});
