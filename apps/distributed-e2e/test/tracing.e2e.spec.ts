import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MongoReadStore } from '@analyst/platform';
import { unique } from '@analyst/testing';
import { call, clusterConfig, startApp, stopAll, until, type Cluster } from './cluster';
import { sqliteLocation } from './e2e-event-store';

const ready = Boolean(process.env.KAFKA_BROKERS && process.env.MONGO_URL);

/** OTLP span kinds as the JSON protocol numbers them. */
const KIND = { server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type OtlpAttribute = { key: string; value: OtlpValue };

function attributes(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
  }
  return out;
}

/**
 * The smallest OTLP/HTTP collector: POST /v1/traces with the JSON protocol (what
 * @opentelemetry/exporter-trace-otlp-http sends), flattened into spans tagged with service.name.
 */
function startCollector(spans: CollectedSpan[]): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const payload = JSON.parse(body.toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: {
            spans: (Omit<CollectedSpan, 'service' | 'attributes'> & { attributes: OtlpAttribute[] })[];
          }[];
        }[];
      };
      for (const resourceSpans of payload.resourceSpans) {
        const service = String(attributes(resourceSpans.resource.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributes(span.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

(ready ? describe : describe.skip)(
  'tracing: one posts/add is one trace across gateway, ingest, ledger and the relay',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'analyst-trace-e2e-'));
    const run = unique('trace');
    const spans: CollectedSpan[] = [];
    let collector: Server;
    let cluster: Cluster;

    beforeAll(async () => {
      collector = await startCollector(spans);
      const address = collector.address() as { port: number };
      cluster = clusterConfig({
        dataDir,
        logDir: join(tmpdir(), `analyst-trace-e2e-logs-${run}`),
        basePort: 21300 + Math.floor(Math.random() * 400) * 6,
        namespace: `${run}.`,
        database: `analyst_${run}`,
        // SQLite: this suite is about tracing, not the store (the distributed, replicas and fault suites run on PostgreSQL).
        eventStore: sqliteLocation(dataDir),
      });
      Object.assign(cluster.env, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}`,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        ANALYST_DEMO: '0', // no 60 demo posts: the only posts/add is the test's
      });
      await startApp(cluster, 'relay');
      await Promise.all([startApp(cluster, 'ledger'), startApp(cluster, 'ingest')]);
      await startApp(cluster, 'gateway');
    }, 300_000);

    afterAll(async () => {
      if (cluster) {
        await stopAll(cluster);
        const mongo = await MongoReadStore.connect(process.env.MONGO_URL!, cluster.env.MONGO_DB);
        await mongo.database.dropDatabase();
        await mongo.close();
      }
      await new Promise((resolve) => collector?.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('carries the caller traceparent through the forward, the ledger request-reply and the PostCreated process manager', async () => {
      const team = await call(cluster, 'POST', '/admin/v1/teams', {
        admin: true,
        body: { name: 'Traced', plan: 'scale' },
      });
      expect(team.status).toBe(201);
      const teamId: string = team.body.data.id;
      const created = await call(cluster, 'POST', `/admin/v1/teams/${teamId}/keys`, {
        admin: true,
        body: { name: 'trace', scopes: ['posts:read', 'posts:write'] },
      });
      expect(created.status).toBe(201);
      const key: string = created.body.data.key;
      expect(
        (
          await call(cluster, 'POST', `/admin/v1/teams/${teamId}/credits`, {
            admin: true,
            body: { pool: 'adhoc', amount: 10, reason: 'trace' },
          })
        ).status,
      ).toBe(201);

      // The test is the caller: its traceparent is the root every span must descend from.
      const traceId = randomBytes(16).toString('hex');
      const callerSpanId = 'a1b2c3d4e5f60718';
      const link = `https://www.youtube.com/watch?v=${`${run}tr`.slice(-11).padStart(11, 'x')}`;
      const response = await fetch(`http://127.0.0.1:${cluster.ports.gateway}/analyst/v1/content/posts/add`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          traceparent: `00-${traceId}-${callerSpanId}-01`,
        },
        body: JSON.stringify({ links: [link], credits: { source: 'adhoc' } }),
      });
      const added = (await response.json()) as { data: { id: string } };
      expect(response.status).toBe(202);
      await until(
        'the job to settle',
        async () => {
          const job = await call(cluster, 'GET', `/analyst/v1/content/jobs/${added.data.id}`, { key });
          return ['completed', 'partial', 'failed'].includes(job.body.data?.status);
        },
        90_000,
      );

      const inTrace = () => spans.filter((s) => s.traceId === traceId);
      const find = (what: string, match: (s: CollectedSpan) => boolean) =>
        until(`span: ${what}`, async () => inTrace().find(match), 60_000);
      const byId = (spanId: string | undefined) => inTrace().find((s) => s.spanId === spanId);

      // 1. The gateway continues the caller and forwards under a client span.
      const gatewayServer = await find(
        'gateway server span',
        (s) => s.service === 'gateway' && s.kind === KIND.server,
      );
      expect(gatewayServer.name).toBe('POST /analyst/v1/content/posts/add');
      expect(gatewayServer.parentSpanId).toBe(callerSpanId);
      expect(gatewayServer.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/analyst/v1/content/posts/add',
        'http.response.status_code': 202,
      });
      const forward = await find('gateway forward', (s) => s.service === 'gateway' && s.kind === KIND.client);
      expect(forward.name).toBe('forward ingest');
      expect(forward.parentSpanId).toBe(gatewayServer.spanId);

      // 2. Ingest serves the forwarded request as a child of the gateway's client span.
      const ingestServer = await find(
        'ingest server span',
        (s) => s.service === 'ingest' && s.kind === KIND.server,
      );
      expect(ingestServer.name).toBe('POST /analyst/v1/content/posts/add');
      expect(ingestServer.parentSpanId).toBe(forward.spanId);

      // 3. The ledger handles the reservation under the ingest request's producer span.
      const ledgerConsumer = await find(
        'ledger reserve',
        (s) =>
          s.service === 'ledger' &&
          s.kind === KIND.consumer &&
          s.attributes['analyst.message.type'] === 'ReserveCredits',
      );
      expect(ledgerConsumer.name).toBe('process analyst.commands.ledger');
      const request = byId(ledgerConsumer.parentSpanId);
      expect(request).toMatchObject({
        service: 'ingest',
        kind: KIND.producer,
        name: 'request analyst.commands.ledger',
      });

      // 4. The PostCreated process manager (ingest-fetch) continues the trace stored with the event,
      //    through the relay's publish.
      const fetch_ = await find(
        'ingest-fetch on PostCreated',
        (s) =>
          s.kind === KIND.consumer &&
          s.attributes['messaging.consumer.group.name'] === 'ingest-fetch' &&
          s.attributes['analyst.message.type'] === 'PostCreated',
      );
      expect(fetch_.service).toBe('ingest');
      const publish = byId(fetch_.parentSpanId);
      expect(publish).toMatchObject({
        service: 'relay',
        kind: KIND.producer,
        name: 'publish analyst.events.post',
      });
      expect(byId(publish!.parentSpanId)?.service).toBe('ingest');

      // 5. One trace: every span of it hangs from the caller through spans of the same trace, and
      //    every reservation the ledger handled belongs to it.
      await until(
        'every parent exported',
        async () => inTrace().every((s) => s.parentSpanId === callerSpanId || byId(s.parentSpanId)),
        30_000,
      );
      const services = new Set(inTrace().map((s) => s.service));
      expect([...services].sort()).toEqual(['gateway', 'ingest', 'ledger', 'relay']);
      const reservations = spans.filter(
        (s) => s.attributes['analyst.message.type'] === 'ReserveCredits' && s.kind === KIND.consumer,
      );
      expect(reservations.length).toBeGreaterThanOrEqual(1);
      expect(reservations.every((s) => s.traceId === traceId)).toBe(true);
    });
  },
);
