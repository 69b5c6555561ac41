import { Controller, Get, Module, Param, Post, Query, Req, Res } from '@nestjs/common';
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
  job(
    @Param('jobId') jobId: string,
    @Principal() principal: Principal,
    @Req() request: FastifyRequest,
    @Query('detail') detail?: string,
  ) {
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
        ...(detail === undefined ? {} : { detail }),
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

/** Stands in for the ledger's operator route. */
@Controller('admin/v1/teams/:teamId')
class StubLedgerAdminController {
  @Get('ledger')
  lines(@Param('teamId') teamId: string, @Query('limit') limit?: string) {
    upstreamCalls += 1;
    return { data: { teamId, limit } };
  }
}

@Module({
  controllers: [StubJobsController, StubPostsController, StubLedgerAdminController],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
})
class StubIngestModule {}

describe('gateway forwarding to services (distributed topology)', () => {
  let upstream: NestFastifyApplication;
  let upstreamUrl: string;
  let gateway: TestApp;
  let key: string;
  let readOnlyKey: string;
  let analystKey: string;
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
            ledger: upstreamUrl,
            analysis: 'http://127.0.0.1:1',
            sampling: 'http://127.0.0.1:1',
            notifier: 'http://127.0.0.1:1',
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
    analystKey = (
      await gateway.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: 'run', scopes: ['analyses:run'] })
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

  it('forwards HEAD on a GET route to the same service', async () => {
    const head = await gateway.app.inject({
      method: 'HEAD',
      url: '/analyst/v1/content/jobs/cj_3',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('application/json');
  });

  it('leaves the query string to the owning service', async () => {
    // `detail` is the service's parameter: the gateway's document does not declare it.
    const job = await gateway.request('GET', '/analyst/v1/content/jobs/cj_4?detail=full', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ id: 'cj_4', detail: 'full' });
    const undeclared = await gateway.request('GET', '/analyst/v1/content/jobs/cj_4?other=1', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error.message).toBe(
      'unknown query parameter "other": /analyst/v1/content/jobs/:jobId takes detail',
    );
  });

  it('answers unknown paths and wrong methods itself, as for its own routes', async () => {
    const unknown = await gateway.request('GET', '/analyst/v1/content/nothing', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('route_not_found');
    expect(unknown.headers['x-ratelimit-class']).toBe('global');
    const anonymous = await gateway.request('GET', '/analyst/v1/content/nothing');
    expect(anonymous.status).toBe(401);
    const wrongMethod = await gateway.request('PUT', '/analyst/v1/analyses', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, POST');
    expect(wrongMethod.body.error).toEqual({
      message: 'method PUT is not allowed on /analyst/v1/analyses; use GET or POST',
      code: 'method_not_allowed',
    });
  });

  it("charges a forwarded request to its route's rate class, an AI search to analysis_search", async () => {
    const search = await gateway.request('POST', '/analyst/v1/analyses', {
      headers: { authorization: `Bearer ${analystKey}` },
      body: { search: { query: 'battery' } },
    });
    expect(search.headers['x-ratelimit-class']).toBe('analysis_search');
    const snapshot = await gateway.request('POST', '/analyst/v1/analyses', {
      headers: { authorization: `Bearer ${analystKey}` },
      body: { search: { query: 'battery', mode: 'keyword' } },
    });
    expect(snapshot.headers['x-ratelimit-class']).toBe('analysis_create');
    const list = await gateway.request('GET', '/analyst/v1/content/jobs', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(list.headers['x-ratelimit-class']).toBe('content_jobs');
  });

  it('forwards operator routes with the admin token only', async () => {
    const before = upstreamCalls;
    const anonymous = await gateway.request('GET', '/admin/v1/teams/tm_1/ledger');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('invalid_admin_token');
    const withKey = await gateway.request('GET', '/admin/v1/teams/tm_1/ledger', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withKey.status).toBe(401);
    expect(upstreamCalls).toBe(before);
    const lines = await gateway.admin('GET', '/admin/v1/teams/tm_1/ledger?limit=5');
    expect(lines.status).toBe(200);
    expect(lines.body).toEqual({ data: { teamId: 'tm_1', limit: '5' } });
    expect(upstreamCalls).toBe(before + 1);
  });

  it('documents the forwarded public routes with the key schemes and leaves the operator routes out', async () => {
    const document = (await gateway.request('GET', '/analyst/v1/openapi.json')).body;
    const job = document.paths['/analyst/v1/content/jobs/{jobId}'].get;
    expect(job.operationId).toBe('getContentJob');
    expect(job.security).toEqual([{ bearer: ['posts:read'] }, { apiKey: ['posts:read'] }]);
    expect(job['x-rate-class']).toBe('content_jobs');
    expect(document.paths['/analyst/v1/analyses'].post.operationId).toBe('createAnalysis');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
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
