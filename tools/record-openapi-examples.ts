// Records the examples the OpenAPI document carries (libs/platform/src/nest/openapi/recorded-examples.json):
// one real request and the answer the standalone app gave it, for every public operation. The app
// is booted in-process on a temporary data dir with the demo team, so the examples are what the
// server sends, not what someone typed; lists of objects are cut to three items to keep them readable.
// Run: npm run openapi:examples   (the OpenAPI e2e test checks every example against its schema)
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, loadConfig, type OperationExample } from '@analyst/platform';
import { StandaloneModule } from '../apps/standalone/src/app.module';
import { DemoSeeder } from '../apps/standalone/src/demo-seeder';

const ROOT = join(__dirname, '..');
export const EXAMPLES_FILE = join(ROOT, 'libs/platform/src/nest/openapi/recorded-examples.json');
const PREFIX = '/analyst/v1';
const KEY = 'ak_example01.example-secret-0123456789';
const ADMIN = 'example-admin-token-0123456789';
const MAX_ITEMS = 3;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely here, as in the tests
type Json = any;

/** Lists of objects cut to MAX_ITEMS, recursively: an example shows the shape, not the whole page. */
function trimmed(value: Json): Json {
  if (Array.isArray(value))
    return (value.some((v) => v && typeof v === 'object') ? value.slice(0, MAX_ITEMS) : value).map(trimmed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}

class Recorder {
  readonly examples: Record<string, OperationExample> = {};
  constructor(private readonly app: NestFastifyApplication) {}

  async call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
  ) {
    const res = await this.app.inject({ method, url, headers, payload: body as object | undefined });
    // A 204 has no body to show.
    return { status: res.statusCode, body: (res.body === '' ? undefined : res.json()) as Json };
  }

  /** Calls the operation and keeps the request and the answer as its example. */
  async record(
    operationId: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { params?: Record<string, string>; query?: Record<string, string>; body?: Json } = {},
  ) {
    const params = options.params ?? {};
    const url =
      PREFIX +
      path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name])) +
      (options.query ? `?${new URLSearchParams(options.query)}` : '');
    const res = await this.call(method, url, options.body);
    if (res.status >= 300)
      throw new Error(`${operationId}: ${method} ${url} answered ${res.status} ${JSON.stringify(res.body)}`);
    this.examples[operationId] = {
      ...(Object.keys(params).length || options.query
        ? { parameters: { ...params, ...(options.query ?? {}) } }
        : {}),
      ...(options.body !== undefined ? { requestBody: options.body } : {}),
      responses: res.body === undefined ? {} : { [String(res.status)]: trimmed(res.body) },
    };
    return res.body;
  }

  async until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
}

export async function recordExamples(): Promise<Record<string, OperationExample>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-openapi-examples-'));
  const config = loadConfig({
    ANALYST_DATA_DIR: dataDir,
    ANALYST_DEMO_KEY: KEY,
    ANALYST_ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'silent',
  });
  const app = await createHttpApp(StandaloneModule.forRoot(config), { structuredLogs: false });
  try {
    await app.getHttpAdapter().getInstance().ready();
    const teamId = (await app.get(DemoSeeder).seedIfEmpty())!.teamId;
    const r = new Recorder(app);
    await r.until(
      'the demo posts to be scored',
      async () => (await r.call('GET', `${PREFIX}/posts?limit=100`)).body.data.length >= 60,
    );

    await r.record('getMe', 'GET', '/me');
    await r.record('getTeam', 'GET', '/team');
    const posts = await r.record('listPosts', 'GET', '/posts', {
      query: { limit: '2', platform: 'youtube' },
    });
    const postId: string = posts.data[0].id;
    await r.record('getPostAnalysis', 'GET', '/posts/{postId}/analysis', { params: { postId } });
    await r.record('listPostComments', 'GET', '/posts/{postId}/analysis/comments', {
      params: { postId },
      query: { limit: '2', sentiment: 'positive,lean_positive' },
    });
    await r.record('getPostMetrics', 'GET', '/posts/{postId}/metrics', { params: { postId } });
    const collections = await r.record('listCollections', 'GET', '/collections');
    const collectionId: string = collections.data[0].id;
    await r.record('getCollection', 'GET', '/collections/{collectionId}', { params: { collectionId } });
    await r.record('listCollectionPosts', 'GET', '/collections/{collectionId}/posts', {
      params: { collectionId },
      query: { limit: '2' },
    });

    const analysis = await r.record('createAnalysis', 'POST', '/analyses', {
      body: {
        selection: { collectionId },
        filters: { sentiment: ['negative', 'lean_negative'], replies: 'exclude' },
        include: ['wordCloud', 'emojiCloud', 'emotions'],
      },
    });
    const analysisId: string = analysis.data.id;
    await r.record('getAnalysis', 'GET', '/analyses/{analysisId}', { params: { analysisId } });
    await r.record('listAnalysisComments', 'GET', '/analyses/{analysisId}/comments', {
      params: { analysisId },
      query: { limit: '2', source: 'content' },
    });
    await r.record('listAnalyses', 'GET', '/analyses', { query: { limit: '2' } });

    const added = await r.record('addPosts', 'POST', '/content/posts/add', {
      body: {
        links: [
          'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          'https://www.tiktok.com/@fitjoe/video/7301234567890123456',
        ],
        tags: ['spring-launch'],
        collections: [{ name: 'Spring launch', type: 'campaign' }],
      },
    });
    const jobId: string = added.data.id;
    await r.until('the add job to finish', async () =>
      ['completed', 'partial', 'failed'].includes(
        (await r.call('GET', `${PREFIX}/content/jobs/${jobId}`)).body.data.status,
      ),
    );
    await r.record('getContentJob', 'GET', '/content/jobs/{jobId}', { params: { jobId } });
    await r.record('refreshPosts', 'POST', '/content/posts/refresh', { body: { postIds: [postId] } });
    await r.record('addAccount', 'POST', '/content/accounts/add', {
      body: {
        account: { url: 'https://www.tiktok.com/@fitjoe' },
        dryRun: true,
        filters: { limit: 5, minViews: 1000 },
      },
    });
    await r.record('listContentJobs', 'GET', '/content/jobs', { query: { limit: '2' } });

    const saved = await r.call(
      'POST',
      `/admin/v1/teams/${teamId}/saved-analyses`,
      {
        name: 'Negative threads, spring launch',
        kind: 'snapshot',
        analysisId,
        savedBy: 'ana@example.com',
        payload: { headline: 'Shipping delays drive the negative share' },
      },
      {
        authorization: `Bearer ${ADMIN}`,
      },
    );
    if (saved.status !== 201) throw new Error(`saving an analysis answered ${saved.status}`);
    await r.record('listSavedAnalyses', 'GET', '/saved-analyses', { query: { limit: '2' } });
    await r.record('getInsights', 'GET', '/insights', { query: { snapshot_id: saved.body.data.id } });

    // Push: an IP literal (example.com's), so registering resolves nothing. The ping's delivery is
    // attempted there and fails (no receiver of ours answers there; the deliveries example shows that
    // attempt), then the endpoint is deleted. GET /events is a stream: no JSON example.
    const webhook = await r.record('createWebhookEndpoint', 'POST', '/webhooks', {
      body: {
        url: 'https://93.184.215.14/hooks/analyst',
        events: ['content_job.completed', 'analysis.ready'],
        description: 'Back office',
      },
    });
    const webhookId: string = webhook.data.id;
    await r.record('listWebhookEndpoints', 'GET', '/webhooks');
    await r.record('rotateWebhookSecret', 'POST', '/webhooks/{webhookId}/rotate-secret', {
      params: { webhookId },
    });
    await r.record('getWebhookEndpoint', 'GET', '/webhooks/{webhookId}', { params: { webhookId } });
    await r.record('pingWebhookEndpoint', 'POST', '/webhooks/{webhookId}/ping', { params: { webhookId } });
    await r.until(
      "the ping's first attempt",
      async () =>
        ((await r.call('GET', `${PREFIX}/webhooks/${webhookId}/deliveries`)).body.data[0]?.attempts ?? 0) > 0,
    );
    await r.record('listWebhookDeliveries', 'GET', '/webhooks/{webhookId}/deliveries', {
      params: { webhookId },
      query: { limit: '2' },
    });
    await r.record('deleteWebhookEndpoint', 'DELETE', '/webhooks/{webhookId}', { params: { webhookId } });
    return Object.fromEntries(Object.entries(r.examples).sort(([a], [b]) => a.localeCompare(b)));
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  recordExamples()
    .then((examples) => {
      writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
      console.log(`wrote ${Object.keys(examples).length} operation examples to ${EXAMPLES_FILE}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
