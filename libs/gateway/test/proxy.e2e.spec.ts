import { Controller, Get, Module, Param, Post, Req, Res } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayModule, GatewayProxyModule, INTERNAL_AUTH_HEADER, InternalAuthGuard } from '@analyst/gateway';
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
let upstreamCalls = 0;

/** Stands in for the ingest service: answers only what the gateway signed. */
@Controller('content/jobs')
class StubJobsController {
  @Get(':jobId')
  job(@Param('jobId') jobId: string, @Principal() principal: Principal, @Req() request: FastifyRequest) {
    upstreamCalls += 1;
    if (jobId === 'slow')
      return new Promise((resolve) => setTimeout(() => resolve({ data: { id: jobId } }), 1500));
    if (jobId === 'big') return { data: { blob: 'x'.repeat(6 * 1024 * 1024) } };
    return {
      data: {
        id: jobId,
        team: principal.targetTeamId,
        key: principal.keyId,
        correlation: request.headers['x-correlation-id'],
      },
    };
  }
}

@Controller('content/posts')
class StubPostsController {
  @Post('add')
  add(@Res({ passthrough: true }) reply: FastifyReply, @Req() request: FastifyRequest) {
    upstreamCalls += 1;
    void reply.status(202).header('Location', '/analyst/v1/content/jobs/cj_1').header('Retry-After', '5');
    return { data: { id: 'cj_1', echoed: request.body } };
  }
}

@Module({
  controllers: [StubJobsController, StubPostsController],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
})
class StubIngestModule {}

describe('gateway forwarding to services (distributed topology)', () => {
  let upstream: NestFastifyApplication;
  let upstreamUrl: string;
  let gateway: TestApp;
  let key: string;
  let readOnlyKey: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-upstream-'));

  beforeAll(async () => {
    const config = loadConfig({
      ANALYST_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ANALYST_INTERNAL_SECRET: SECRET,
    });
    class UpstreamRoot {}
    Module({
      imports: [
        PlatformModule.forRoot(config, { clock: new FixedClock('2026-03-10T12:00:00.000Z') }),
        ObservabilityModule.forRoot({ service: 'stub', level: 'silent' }),
        StubIngestModule,
      ],
    })(UpstreamRoot);
    upstream = await createHttpApp(UpstreamRoot, { structuredLogs: false });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    upstreamUrl = await upstream.getUrl();

    gateway = await createTestApp({
      modules: [
        GatewayModule,
        GatewayProxyModule.forRoot({
          upstreams: {
            ingest: upstreamUrl,
            ledger: 'http://127.0.0.1:1',
            analysis: 'http://127.0.0.1:1',
            sampling: 'http://127.0.0.1:1',
          },
          timeoutMs: 500,
        }),
      ],
      env: { ANALYST_INTERNAL_SECRET: SECRET },
    });
    const team = await gateway.admin('POST', '/admin/v1/teams', { name: 'Proxy', plan: 'scale' });
    const teamId = team.body.data.id;
    key = (
      await gateway.admin('POST', `/admin/v1/teams/${teamId}/keys`, {
        name: 'all',
        scopes: ['posts:read', 'posts:write'],
      })
    ).body.data.key;
    readOnlyKey = (
      await gateway.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: 'ro', scopes: ['team:read'] })
    ).body.data.key;
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('forwards with a signed principal, passing status, headers and body through, plus the gateway headers', async () => {
    const response = await gateway.request('POST', '/analyst/v1/content/posts/add', {
      headers: { authorization: `Bearer ${key}` },
      body: { links: ['https://youtube.com/watch?v=abc'] },
    });
    expect(response.status).toBe(202);
    expect(response.headers.location).toBe('/analyst/v1/content/jobs/cj_1');
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['x-ratelimit-class']).toBe('content_add_posts');
    expect(response.body).toEqual({
      data: { id: 'cj_1', echoed: { links: ['https://youtube.com/watch?v=abc'] } },
    });

    const job = await gateway.request('GET', '/v1/client/content/jobs/cj_9', {
      headers: { 'x-api-key': key, 'x-correlation-id': 'corr-42' },
    });
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ id: 'cj_9', key: key.split('.')[0], correlation: 'corr-42' });
    expect(job.body.data.team).toMatch(/^tm_/);
  });

  it('enforces scopes before forwarding', async () => {
    const before = upstreamCalls;
    const denied = await gateway.request('GET', '/analyst/v1/content/jobs/cj_1', {
      headers: { authorization: `Bearer ${readOnlyKey}` },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('posts:read');
    expect(upstreamCalls).toBe(before);
  });

  it('a service refuses requests that did not come through the gateway', async () => {
    const direct = await upstream.inject({
      method: 'GET',
      url: '/analyst/v1/content/jobs/cj_1',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(direct.statusCode).toBe(401);
    expect(direct.json().error.message).toContain('missing internal auth header');
    const forged = await upstream.inject({
      method: 'GET',
      url: '/analyst/v1/content/jobs/cj_1',
      headers: { [INTERNAL_AUTH_HEADER]: 'e30.AAAA' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.message).toContain('bad internal auth signature');
    expect((await upstream.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('maps an unreachable service to 503 service_unavailable with Retry-After and a slow one to 504, in the envelope', async () => {
    const down = await gateway.request('GET', '/analyst/v1/posts', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).toEqual({
      error: {
        message:
          'service unavailable: the service behind this route is not answering; send the request again after 5 s',
        code: 'service_unavailable',
      },
    });
    const slow = await gateway.request('GET', '/analyst/v1/content/jobs/slow', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(slow.status).toBe(504);
    expect(slow.body.error.message).toContain('did not answer in time');
  });

  it('applies the 5 MB cap to proxied responses', async () => {
    const big = await gateway.request('GET', '/analyst/v1/content/jobs/big', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(big.status).toBe(413);
    expect(big.body.error.message).toContain('limit');
  });
});
