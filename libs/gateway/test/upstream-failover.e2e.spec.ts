import { Controller, Get, Module, Param } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayModule, GatewayProxyModule, InternalAuthGuard, rendezvousOrder } from '@analyst/gateway';
import {
  FixedClock,
  ObservabilityModule,
  PlatformModule,
  Principal,
  createHttpApp,
  loadConfig,
} from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';

const SECRET = 'internal-secret-0123456789abcdefghij';

/** Two analysis replicas' stand-ins: each answers with its own name and the team it was asked for. */
function replicaModule(name: string) {
  @Controller('posts')
  class StubPostsController {
    @Get(':postId/analysis')
    analysis(@Param('postId') postId: string, @Principal() principal: Principal) {
      return { data: { postId, replica: name, team: principal.targetTeamId } };
    }
  }
  @Module({
    controllers: [StubPostsController],
    providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
  })
  class StubAnalysisModule {}
  return StubAnalysisModule;
}

async function startReplica(name: string, dataDir: string): Promise<NestFastifyApplication> {
  const config = loadConfig({
    ANALYST_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ANALYST_INTERNAL_SECRET: SECRET,
  });
  class ReplicaRoot {}
  Module({
    imports: [
      // The test gateway's clock: the internal auth header carries its time.
      PlatformModule.forRoot(config, { clock: new FixedClock('2026-03-10T12:00:00.000Z') }),
      ObservabilityModule.forRoot({ service: name, level: 'silent' }),
      replicaModule(name),
    ],
  })(ReplicaRoot);
  const app = await createHttpApp(ReplicaRoot, { structuredLogs: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

describe('gateway forwarding to a list of analysis replicas (team-affine routing)', () => {
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'analyst-failover-')));
  let replicas: Record<'a' | 'b', NestFastifyApplication>;
  let urls: Record<'a' | 'b', string>;
  let gateway: TestApp;
  let key: string;
  let teamId: string;

  beforeAll(async () => {
    replicas = { a: await startReplica('a', dirs[0]), b: await startReplica('b', dirs[1]) };
    urls = { a: await replicas.a.getUrl(), b: await replicas.b.getUrl() };
    gateway = await createTestApp({
      modules: [
        GatewayModule,
        GatewayProxyModule.forRoot({
          upstreams: {
            ingest: 'http://127.0.0.1:1',
            ledger: 'http://127.0.0.1:1',
            analysis: `${urls.a},${urls.b}`,
            sampling: 'http://127.0.0.1:1',
            notifier: 'http://127.0.0.1:1',
          },
          timeoutMs: 2_000,
          // Probes only when the test asks (probeAll), so the refusal path is what moves the team.
          pool: { probeEveryMs: 3_600_000, resolveEveryMs: 3_600_000 },
        }),
      ],
      env: { ANALYST_INTERNAL_SECRET: SECRET, ANALYST_DATA_DIR: dirs[2] },
    });
    const team = await gateway.admin('POST', '/admin/v1/teams', { name: 'Failover', plan: 'scale' });
    teamId = team.body.data.id;
    key = (
      await gateway.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: 'read', scopes: ['posts:read'] })
    ).body.data.key;
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all(Object.values(replicas).map((app) => app.close().catch(() => undefined)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const read = () =>
    gateway.request('GET', '/analyst/v1/posts/po_1/analysis', {
      headers: { authorization: `Bearer ${key}` },
    });
  /** The series of `name` on the gateway's /metrics: `upstream replica=value` (the replica, if labelled). */
  const metric = async (name: string) => {
    const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
    return text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .map((line) => {
        const label = (key: string) => new RegExp(`${key}="([^"]*)"`).exec(line)?.[1];
        const replica = label('replica');
        return `${label('upstream')}${replica ? ` ${replica}` : ''}=${line.split(' ').pop()}`;
      })
      .sort();
  };

  it('sends every read of the team to its rendezvous replica, counted on /metrics', async () => {
    const ids = (['a', 'b'] as const).map((name) => ({ name, id: new URL(urls[name]).host }));
    const own = rendezvousOrder(teamId, ids)[0];
    const answers = await Promise.all([read(), read(), read(), read()]);
    expect(answers.map((a) => [a.status, a.body.data.replica, a.body.data.team])).toEqual(
      Array(4).fill([200, own.name, teamId]),
    );
    expect(await metric('analyst_gateway_upstream_forwards_total')).toEqual([`analysis ${own.id}=4`]);
    expect(await metric('analyst_gateway_upstream_replicas')).toEqual([
      'analysis=2',
      'ingest=1',
      'ledger=1',
      'notifier=1',
      'sampling=1',
    ]);
    // One replica (the others here) is not probed: ready until a forward to it is refused.
    expect(await metric('analyst_gateway_upstream_replicas_ready')).toEqual([
      'analysis=2',
      'ingest=1',
      'ledger=1',
      'notifier=1',
      'sampling=1',
    ]);
  });

  it('a replica that stops: the refused read goes to the other at once, then the dead one is skipped; all replicas down is a fast 503', async () => {
    const ids = (['a', 'b'] as const).map((name) => ({ name, id: new URL(urls[name]).host }));
    const [own, other] = rendezvousOrder(teamId, ids);
    await replicas[own.name].close();
    // Time for the gateway to see its kept-alive sockets closed, so the next read opens a connection and is refused.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const moved = await read();
    expect([moved.status, moved.body.data.replica]).toEqual([200, other.name]);
    expect(await metric('analyst_gateway_upstream_refused_total')).toEqual([`analysis ${own.id}=1`]);
    expect((await metric('analyst_gateway_upstream_replicas_ready'))[0]).toBe('analysis=1');
    // Skipped now without a connection attempt: the refusal count stays at 1.
    expect((await read()).body.data.replica).toBe(other.name);
    expect(await metric('analyst_gateway_upstream_refused_total')).toEqual([`analysis ${own.id}=1`]);
    expect(await metric('analyst_gateway_upstream_forwards_total')).toEqual(
      [`analysis ${other.id}=2`, `analysis ${own.id}=4`].sort(),
    );

    await replicas[other.name].close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Refused: the last replica is marked down too; the next read is answered without a connection attempt.
    expect((await read()).status).toBe(503);
    const started = Date.now();
    const down = await read();
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body.error.code).toBe('service_unavailable');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await metric('analyst_gateway_upstream_refused_total')).toEqual(
      [`analysis ${other.id}=1`, `analysis ${own.id}=1`].sort(),
    );
  });
});
