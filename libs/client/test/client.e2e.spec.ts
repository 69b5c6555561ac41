import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, loadConfig } from '@analyst/platform';
import { simulatedCommentCount } from '@analyst/provider-sim';
import { StandaloneModule } from '../../../apps/standalone/src/app.module';
import { DemoSeeder } from '../../../apps/standalone/src/demo-seeder';
import {
  CLIENT_DOCUMENT,
  CLIENT_SCHEMA,
  servedDocument,
  typesOf,
} from '../../../tools/generate-client-types';
import {
  AnalystApiError,
  createAnalystClient,
  retryAfterMs,
  verifyWebhookSignature,
  type StreamedEvent,
} from '@analyst/client';
import { LoopbackReceiver } from './loopback-receiver';

const KEY = 'ak_client01.client-secret-0123456789abcdef';

describe('@analyst/client against the standalone server', () => {
  let dataDir: string;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    // The push test's receiver listens on loopback, which only the operator's setting opens.
    process.env.ANALYST_WEBHOOK_ALLOWED_NETWORKS = '127.0.0.0/8';
    dataDir = mkdtempSync(join(tmpdir(), 'analyst-client-'));
    app = await createHttpApp(
      StandaloneModule.forRoot(
        loadConfig({ ANALYST_DATA_DIR: dataDir, ANALYST_DEMO_KEY: KEY, LOG_LEVEL: 'silent' }),
      ),
      { structuredLogs: false },
    );
    await app.get(DemoSeeder).seedIfEmpty();
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
    const client = createAnalystClient({ baseUrl: base, apiKey: KEY });
    // The demo posts are fetched and scored in the background.
    for (let i = 0; i < 600; i++) {
      const { data } = await client.api.GET('/analyst/v1/posts', { params: { query: { limit: 100 } } });
      if ((data?.data.length ?? 0) >= 60) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 120_000);
  afterAll(async () => {
    delete process.env.ANALYST_WEBHOOK_ALLOWED_NETWORKS;
    // Node's fetch (undici) answers an aborted streaming response by opening a fresh connection it
    // never uses (nodejs/undici#5845); the server's close would wait out its 72 s keep-alive.
    app.getHttpServer().closeAllConnections();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ships types generated from the document the server serves now (npm run client:generate when this fails)', async () => {
    const doc = await servedDocument();
    expect(readFileSync(CLIENT_DOCUMENT, 'utf8')).toBe(doc);
    const fresh = join(dataDir, 'openapi.json');
    writeFileSync(fresh, doc);
    expect(readFileSync(CLIENT_SCHEMA, 'utf8')).toBe(typesOf(fresh));
  }, 60_000);

  it('calls typed routes with the key', async () => {
    const client = createAnalystClient({ baseUrl: base, apiKey: KEY });
    const { data, response } = await client.api.GET('/analyst/v1/me');
    expect(response.status).toBe(200);
    expect(data?.data.key.id).toBe('ak_client01');
    const bad = await createAnalystClient({
      baseUrl: base,
      apiKey: 'ak_nobody00.wrong-secret-0123456789',
    }).api.GET('/analyst/v1/me');
    expect(bad.response.status).toBe(401);
    expect(bad.error?.error.code).toBe('invalid_api_key');
  });

  it('walks every page of a cursor-paged route with the same filters', async () => {
    const client = createAnalystClient({ baseUrl: base, apiKey: KEY });
    const ids: string[] = [];
    for await (const post of client.pages<{ id: string }>('/analyst/v1/posts', { limit: 7 }))
      ids.push(post.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });

  it('sends an Idempotency-Key on every POST, so a POST sent twice with one key adds once; waitFor polls the job to its end', async () => {
    const client = createAnalystClient({ baseUrl: base, apiKey: KEY });
    // A link the simulator gives comments to, so the job completes.
    const links = [
      Array.from(
        { length: 50 },
        (_, i) => `https://www.youtube.com/watch?v=clientV${String(i).padStart(4, '0')}`,
      ).find((l) => (simulatedCommentCount(l) ?? 0) > 0)!,
    ];
    const first = await client.api.POST('/analyst/v1/content/posts/add', {
      body: { links },
      headers: { 'idempotency-key': 'client-test-1' },
    });
    expect(first.response.status).toBe(202);
    const again = await client.api.POST('/analyst/v1/content/posts/add', {
      body: { links },
      headers: { 'idempotency-key': 'client-test-1' },
    });
    expect(again.response.status).toBe(200);
    expect(again.data?.data.id).toBe(first.data?.data.id);
    const done = await client.waitFor<{ id: string; status: string }>({ id: first.data!.data.id });
    expect(done.status).toBe('completed');
    // Without a key of your own, each POST gets a fresh one: an analysis is created each time.
    const seen: string[] = [];
    const spying = createAnalystClient({
      baseUrl: base,
      apiKey: KEY,
      fetch: async (input) => {
        const request = input as Request;
        if (request.method === 'POST') seen.push(request.headers.get('idempotency-key') ?? '');
        return fetch(request);
      },
    });
    const a = await spying.api.POST('/analyst/v1/analyses', {
      body: { selection: { posts: { status: 'complete' } } } as never,
    });
    const b = await spying.api.POST('/analyst/v1/analyses', {
      body: { selection: { posts: { status: 'complete' } } } as never,
    });
    expect([a.response.status, b.response.status]).toEqual([201, 201]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it('retries a 429 after the Retry-After it names, the same request each time, a bounded number of times', async () => {
    const waits: number[] = [];
    let calls = 0;
    const bodies: string[] = [];
    const client = createAnalystClient({
      baseUrl: base,
      apiKey: KEY,
      retries: 2,
      sleep: async (ms) => void waits.push(ms),
      fetch: async (input) => {
        calls++;
        bodies.push(await (input as Request).clone().text());
        if (calls <= 2)
          return new Response(JSON.stringify({ error: { message: 'slow down', code: 'rate_limited' } }), {
            status: 429,
            headers: { 'retry-after': String(calls), 'content-type': 'application/json' },
          });
        return fetch(input as Request);
      },
    });
    const res = await client.api.POST('/analyst/v1/analyses', {
      body: { selection: { posts: { status: 'complete' } } } as never,
    });
    expect(res.response.status).toBe(201);
    expect(waits).toEqual([1000, 2000]);
    expect(new Set(bodies).size).toBe(1);
    // Past the bound, the 429 is the answer.
    calls = -10;
    const capped = createAnalystClient({
      baseUrl: base,
      apiKey: KEY,
      retries: 1,
      sleep: async () => undefined,
      fetch: async () =>
        new Response('{"error":{"message":"no"}}', { status: 429, headers: { 'retry-after': '0' } }),
    });
    expect((await capped.api.GET('/analyst/v1/me')).response.status).toBe(429);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT'))).toBe(
      60_000,
    );
    await expect(
      createAnalystClient({ baseUrl: base, apiKey: KEY }).waitFor({ id: 'cj_missing' }),
    ).rejects.toBeInstanceOf(AnalystApiError);
  });

  it('reads GET /events: an analysis made after the stream opened arrives as analysis.ready, and lastEventId resumes after it', async () => {
    const client = createAnalystClient({ baseUrl: base, apiKey: KEY });
    const stream = client.events({ types: ['analysis.ready'] });
    const first = stream.next(); // opens the stream; the server sends events from now on
    await new Promise((r) => setTimeout(r, 300));
    const created = await client.api.POST('/analyst/v1/analyses', {
      body: { selection: { posts: { status: 'complete' } } } as never,
    });
    expect(created.response.status).toBe(201);
    const analysisId = (created.data as { data: { id: string } }).data.id;
    const got = (await first).value as StreamedEvent;
    await stream.return(undefined);
    expect(got.id).toMatch(/^\d+$/);
    expect(got.event).toMatchObject({
      type: 'analysis.ready',
      id: expect.stringMatching(/^evt_/),
      data: { object: 'analysis', id: analysisId, status: 'ready', path: `/analyses/${analysisId}` },
    });
    // A second analysis, then a stream resumed after the first event: the second comes next.
    const second = await client.api.POST('/analyst/v1/analyses', {
      body: { selection: { posts: { status: 'complete' } } } as never,
    });
    const secondId = (second.data as { data: { id: string } }).data.id;
    const resumed = client.events({ types: ['analysis.ready'], lastEventId: got.id });
    const next = (await resumed.next()).value as StreamedEvent;
    await resumed.return(undefined);
    expect(next.event.data.id).toBe(secondId);
    expect(Number(next.id)).toBeGreaterThan(Number(got.id));
    const unknown = await client
      .events({ types: ['no.such' as never] })
      .next()
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 400 });
  });

  it('registers a webhook, and its ping reaches a receiver signed with the secret the register answered', async () => {
    const receiver = await LoopbackReceiver.start();
    try {
      const client = createAnalystClient({ baseUrl: base, apiKey: KEY });
      const registered = await client.api.POST('/analyst/v1/webhooks', {
        body: { url: `${receiver.url}/hook`, events: ['analysis.ready'] },
      });
      expect(registered.response.status).toBe(201);
      const endpoint = registered.data!.data;
      expect(endpoint.secret).toMatch(/^whsec_/);
      const ping = await client.api.POST('/analyst/v1/webhooks/{webhookId}/ping', {
        params: { path: { webhookId: endpoint.id } },
      });
      expect(ping.response.status).toBe(202);
      expect(ping.data?.data).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'webhook.ping',
        webhookId: endpoint.id,
      });
      const delivery = await receiver.next(30_000);
      expect(JSON.parse(delivery.body)).toMatchObject({
        type: 'webhook.ping',
        data: { object: 'webhook_endpoint', id: endpoint.id, path: `/webhooks/${endpoint.id}` },
      });
      await expect(
        verifyWebhookSignature(delivery.body, delivery.headers['analyst-signature'], endpoint.secret),
      ).resolves.toMatchObject({ ok: true });
      await expect(
        verifyWebhookSignature(delivery.body, delivery.headers['analyst-signature'], 'whsec_other'),
      ).resolves.toEqual({ ok: false, reason: 'mismatch' });
    } finally {
      await receiver.stop();
    }
  });
});
