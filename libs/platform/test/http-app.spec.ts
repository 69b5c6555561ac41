import { request as httpRequest } from 'node:http';
import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { IsInt, IsString, Min } from 'class-validator';
import { ApiError } from '@analyst/contracts';
import { HealthRegistry, type ComponentHealth } from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';

class EchoBody {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  count!: number;
}

@Controller('echo')
class EchoController {
  @Get()
  get() {
    return { data: { ok: true } };
  }

  @Post()
  post(@Body() body: EchoBody) {
    return { data: body };
  }

  @Get('item/:id')
  item(@Param('id') id: string) {
    return { data: { id } };
  }

  @Get('refuse')
  refuse() {
    throw new ApiError(400, 'no such thing');
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('HTTP conventions shared by every service', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ modules: [EchoModule] })));
  afterAll(() => t.close());

  it('serves routes under /analyst/v1 and the deprecated /v1/client alias', async () => {
    const current = await t.request('GET', '/analyst/v1/echo');
    expect(current.status).toBe(200);
    expect(current.body).toEqual({ data: { ok: true } });
    expect(current.headers.deprecation).toBeUndefined();
    const legacy = await t.request('GET', '/v1/client/echo');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual({ data: { ok: true } });
    expect(legacy.headers.deprecation).toBe('true');
    expect((await t.request('GET', '/echo')).status).toBe(404);
  });

  it('answers unknown routes with 404 and wrong methods with 405, both in the envelope', async () => {
    const missing = await t.request('GET', '/analyst/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/nothing-here/);
    expect(missing.body.error.code).toBe('route_not_found');
    const wrong = await t.request('DELETE', '/analyst/v1/echo');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, POST');
    expect(wrong.body).toEqual({
      error: { message: expect.stringContaining('DELETE'), code: 'method_not_allowed' },
    });
  });

  it('rejects invalid bodies with 400 naming each field', async () => {
    const bad = await t.request('POST', '/analyst/v1/echo', { body: { name: 5, count: 0, extra: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('name must be a string');
    expect(bad.body.error.message).toContain('count must not be less than 1');
    expect(bad.body.error.message).toContain('property extra should not exist');
    expect(bad.body.error.code).toBe('invalid_request');
    const ok = await t.request('POST', '/analyst/v1/echo', { body: { name: 'a', count: 2 } });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ data: { name: 'a', count: 2 } });
  });

  it('gives every 400 a code: invalid_request unless the error names a more specific one', async () => {
    const res = await t.request('GET', '/analyst/v1/echo/refuse');
    expect([res.status, res.body]).toEqual([
      400,
      { error: { message: 'no such thing', code: 'invalid_request' } },
    ]);
  });

  it('reports malformed JSON as 400 in the envelope without a stack', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/analyst/v1/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBeTruthy();
    expect(response.json().error.code).toBe('malformed_body');
    expect(response.body).not.toContain('at ');
  });

  it('says a JSON body with a __proto__ key is refused for that key (forbidden_key), not that it is invalid JSON; nothing reaches the handler', async () => {
    for (const payload of [
      '{"__proto__": {"admin": true}, "name": "x", "count": 1}',
      '{"name": "x", "count": 1, "nested": [{"constructor": {"prototype": {}}}]}',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/analyst/v1/echo',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('forbidden_key');
      expect(response.json().error.message).toMatch(/"(__proto__|constructor\.prototype)" key/);
    }
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
    const empty = await t.app.inject({
      method: 'POST',
      url: '/analyst/v1/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect([empty.statusCode, empty.json().error.code]).toEqual([400, 'malformed_body']);
  });

  it('answers a path segment over 100 characters with 414 and a bad URL with 400, in the envelope with a correlation id', async () => {
    const long = await t.app.inject({ method: 'GET', url: `/analyst/v1/echo/item/${'a'.repeat(150)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({
      error: { message: 'a path segment is longer than 100 characters', code: 'uri_too_long' },
    });
    expect(long.headers['x-correlation-id']).toMatch(/^[\w-]{8,}$/);
    const badUrl = await t.app.inject({ method: 'GET', url: '/analyst/v1/echo/item/%E0%A4%A' });
    expect([badUrl.statusCode, badUrl.json().error.code]).toEqual([400, 'invalid_url']);
    expect(badUrl.headers['x-correlation-id']).toBeTruthy();
  });

  it('answers a body over 1 MiB with 413, an unparsable content type with 415 and a wrong method with 405, each in the envelope with a correlation id', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/analyst/v1/echo',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":"${'x'.repeat(1024 * 1024 + 10)}","count":1}`,
    });
    const xml = await t.app.inject({
      method: 'POST',
      url: '/analyst/v1/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<echo/>',
    });
    const wrong = await t.app.inject({ method: 'PATCH', url: '/analyst/v1/echo' });
    expect([big.statusCode, big.json().error.code]).toEqual([413, 'body_too_large']);
    expect([xml.statusCode, xml.json().error.code]).toEqual([415, 'unsupported_media_type']);
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([405, 'method_not_allowed']);
    for (const response of [big, xml, wrong]) {
      expect(Object.keys(response.json())).toEqual(['error']);
      expect(typeof response.json().error.message).toBe('string');
      expect(response.headers['x-correlation-id']).toMatch(/^[\w-]{8,}$/);
    }
  });

  it('answers a request head over 16 KiB with 431 in the envelope with a correlation id (a real socket: Node refuses it before Fastify)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/analyst/v1/echo', headers: { 'x-big': 'x'.repeat(20_000) } },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        message: 'the request head (URL and headers) is larger than 16 KiB',
        code: 'headers_too_large',
      },
    });
    expect(answer.headers['x-correlation-id']).toBeTruthy();
  });

  it('answers 503 on /readyz naming a component that is not ready, and on /healthz naming one that cannot recover', async () => {
    const registry = t.app.get(HealthRegistry);
    let state: ComponentHealth = { ready: false, detail: 'catching up: 120 events behind' };
    registry.register('projection:test', () => state);
    try {
      const notReady = await t.request('GET', '/readyz');
      expect(notReady.status).toBe(503);
      expect(notReady.body.error.components.message).toBe(
        'not ready: projection:test (catching up: 120 events behind)',
      );
      expect((await t.request('GET', '/healthz')).status).toBe(200);
      state = { ready: false, live: false, detail: 'failing for 301 s' };
      const dead = await t.request('GET', '/healthz');
      expect(dead.status).toBe(503);
      expect(dead.body.error.components.message).toBe(
        'cannot recover without a restart: projection:test (failing for 301 s)',
      );
      state = { ready: true };
      expect((await t.request('GET', '/readyz')).status).toBe(200);
      expect((await t.request('GET', '/healthz')).status).toBe(200);
    } finally {
      registry.unregister('projection:test');
    }
  });

  it('serves health, readiness, metrics per route and the OpenAPI document', async () => {
    expect((await t.request('GET', '/healthz')).body.status).toBe('ok');
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.info).toEqual({
      readStore: { status: 'up' },
      readModels: { status: 'up' },
      bus: { status: 'up' },
      components: { status: 'up' },
    });
    await t.request('GET', '/analyst/v1/echo');
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.raw).toMatch(
      /http_requests_total\{method="GET",route="\/analyst\/v1\/echo",status="200",service="test"\} \d+/,
    );
    expect(metrics.raw).toContain('http_request_duration_seconds_bucket');
    const openapi = await t.request('GET', '/analyst/v1/openapi.json');
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/analyst/v1/echo']));
  });

  it('echoes a caller correlation id', async () => {
    const response = await t.request('GET', '/analyst/v1/echo', {
      headers: { 'x-correlation-id': 'abc-123' },
    });
    expect(response.headers['x-correlation-id']).toBe('abc-123');
  });
});
