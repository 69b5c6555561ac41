import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  ANALYSIS_INCLUDES,
  EMOTIONS,
  JOB_KINDS,
  JOB_STATUSES,
  PLATFORMS,
  REJECT_REASONS,
  SAMPLE_REASONS,
  SKIP_REASONS,
  ROUTE_POLICIES,
} from '@analyst/contracts';
import { FixedClock, createHttpApp, loadConfig } from '@analyst/platform';
import { StandaloneModule } from '../src/app.module';
import { DemoSeeder } from '../src/demo-seeder';

/**
 * The OpenAPI document of the app that mounts every public module (standalone), checked against
 * the contract and against what the routes actually answer: the demo team gives real posts,
 * collections, content jobs and analyses to validate responses with.
 */
const PREFIX = '/analyst/v1';
const KEY = 'ak_demo0001.demo-secret-0123456789abcdef';
const AUTH = { 'x-api-key': KEY };

type Json = any;

function resolve(doc: Json, schema: Json): Json {
  if (!schema?.$ref) return schema;
  const [, , section, name] = (schema.$ref as string).split('/');
  return resolve(doc, doc.components[section][name]);
}

/**
 * Closes every object schema that lists its properties and says nothing of others
 * (`unevaluatedProperties: false`, which sees through allOf): a field the document does not list
 * is then an error. Clients may ignore unknown fields, but this test holds the document to listing
 * every field the server sends. Untyped subschemas (the request rules inside a oneOf/anyOf) and the
 * parts of an allOf are not shapes of their own: the allOf as a whole is closed instead.
 */
function closedCopy(schema: Json, partOfAllOf = false): Json {
  if (Array.isArray(schema)) return schema.map((s) => closedCopy(s));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'enum' || k === 'example' || k === 'default' || k === 'const') out[k] = v;
    else if (k === 'allOf') out[k] = (v as Json[]).map((part) => closedCopy(part, true));
    else out[k] = closedCopy(v);
  }
  const typedObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  const open = out.additionalProperties === undefined && out.unevaluatedProperties === undefined;
  if (open && !partOfAllOf && ((typedObject && out.properties) || out.allOf))
    out.unevaluatedProperties = false;
  return out;
}

/**
 * Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) over the served document, closed as above:
 * the components are one schema, each response schema is compiled against it, in strict mode (a
 * keyword Ajv does not know is an error, except OpenAPI's own annotations, declared below), with
 * formats checked.
 */
function ajvFor(doc: Json): (schema: Json) => ValidateFunction {
  // strictTypes off: the request rules (`{ required: [...] }` inside a oneOf) carry no type of their own.
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  addFormats(ajv);
  for (const keyword of ['example', 'discriminator', 'xml', 'externalDocs']) ajv.addKeyword(keyword);
  const rebase = (text: string) => text.replace(/"#\/components\/schemas\//g, '"analyst-components#/$defs/');
  ajv.addSchema(
    JSON.parse(
      rebase(JSON.stringify({ $id: 'analyst-components', $defs: closedCopy(doc.components.schemas) })),
    ),
  );
  const compiled = new Map<string, ValidateFunction>();
  return (schema: Json) => {
    const key = JSON.stringify(schema);
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.compile(closedCopy(JSON.parse(rebase(key))));
      compiled.set(key, fn);
    }
    return fn;
  };
}

describe('OpenAPI document at GET /analyst/v1/openapi.json', () => {
  let dataDir: string;
  let app: NestFastifyApplication;
  let doc: Json;
  let strict: (schema: Json) => ValidateFunction;
  let teamId: string;

  const call = async (
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = AUTH,
  ) => {
    const res = await app.inject({
      method,
      url: `${PREFIX}${url}`,
      headers,
      payload: body as object | undefined,
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const op = (method: string, path: string): Json => doc.paths[`${PREFIX}${path}`]?.[method.toLowerCase()];
  const operations = (): { method: string; path: string; operation: Json }[] =>
    Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
  const queryNames = (method: string, path: string): string[] =>
    op(method, path)
      .parameters.filter((p: Json) => p.in === 'query')
      .map((p: Json) => p.name);
  const bodySchema = (method: string, path: string): Json =>
    resolve(doc, op(method, path).requestBody.content['application/json'].schema);

  /** The documented response for the status the route answered, and what the body breaks of it. */
  const mismatches = (method: string, template: string, res: { status: number; body: unknown }): string[] => {
    const response = op(method, template)?.responses?.[String(res.status)];
    if (!response) return [`${method} ${template}: status ${res.status} is not documented`];
    const check = strict(response.content['application/json'].schema);
    if (check(res.body)) return [];
    return (check.errors ?? []).map(
      (e) =>
        `${method} ${template} ${res.status}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
    );
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'analyst-openapi-'));
    const config = loadConfig({ ANALYST_DATA_DIR: dataDir, ANALYST_DEMO_KEY: KEY, LOG_LEVEL: 'silent' });
    app = await createHttpApp(
      StandaloneModule.forRoot(config, { clock: new FixedClock('2026-11-22T10:00:00.000Z') }),
      { structuredLogs: false },
    );
    await app.getHttpAdapter().getInstance().ready();
    teamId = (await app.get(DemoSeeder).seedIfEmpty())!.teamId;
    const res = await app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    strict = ajvFor(doc);
    // Let the demo posts finish scoring, so the post, sample and analysis routes have data.
    const deadline = Date.now() + 30_000;
    while ((await call('GET', '/posts?limit=100')).body.data.length < 60 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is served without a key and lists no operator, health or metrics route', () => {
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => p.startsWith('/admin'))).toEqual([]);
    expect(paths.filter((p) => !p.startsWith(`${PREFIX}/`))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        `${PREFIX}/posts`,
        `${PREFIX}/analyses`,
        `${PREFIX}/content/posts/add`,
        `${PREFIX}/me`,
      ]),
    );
    // The admin DTOs are not left behind as orphan schemas either.
    expect(Object.keys(doc.components.schemas)).not.toContain('GrantCreditsDto');
  });

  it('requires the key (Bearer or X-Api-Key) with the route’s scopes on every /analyst/v1 operation except the document itself', () => {
    const ids = new Set<string>();
    for (const { method, path, operation } of operations()) {
      if (path === `${PREFIX}/openapi.json`) {
        expect(operation.security).toEqual([]);
        continue;
      }
      const policy = ROUTE_POLICIES.find(
        (p) => p.method === method.toUpperCase() && `${PREFIX}${p.path}` === path,
      );
      expect([method, path, Boolean(policy)]).toEqual([method, path, true]);
      expect([method, path, operation.security]).toEqual([
        method,
        path,
        [{ bearer: [...policy!.scopes] }, { apiKey: [...policy!.scopes] }],
      ]);
      // Names a person would call, one per operation.
      expect([method, path, operation.operationId]).toEqual([method, path, policy!.operationId]);
      expect(ids.has(operation.operationId)).toBe(false);
      ids.add(operation.operationId);
      expect([method, path, Object.keys(operation.responses)]).toEqual([
        method,
        path,
        expect.arrayContaining(['401', '403', '429']),
      ]);
    }
    expect(doc.paths[`${PREFIX}/posts`].get.operationId).toBe('listPosts');
    expect(doc.paths[`${PREFIX}/analyses`].post.security).toEqual([
      { bearer: ['analyses:run'] },
      { apiKey: ['analyses:run'] },
    ]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
    const { bearer, apiKey } = doc.components.securitySchemes;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer.bearerFormat).not.toBe('JWT');
    expect(bearer.description).toContain('ak_<key_id>.<secret>');
    expect(apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  });

  it('lists 202 on the content routes and on POST /analyses, 200 on a replayed add, and no phantom 201', () => {
    const statuses = (method: string, path: string) =>
      Object.keys(op(method, path).responses).filter((s) => s < '400');
    expect(statuses('POST', '/content/posts/add')).toEqual(['200', '202']);
    expect(statuses('POST', '/content/accounts/add')).toEqual(['200', '202']);
    expect(statuses('POST', '/content/posts/refresh')).toEqual(['202']);
    expect(statuses('POST', '/analyses')).toEqual(['201', '202']);
    for (const path of [
      '/content/posts/add',
      '/content/accounts/add',
      '/content/posts/refresh',
      '/analyses',
    ]) {
      expect(Object.keys(op('POST', path).responses['202'].headers)).toEqual(
        expect.arrayContaining(['Location', 'Retry-After']),
      );
    }
  });

  it('documents the optional Idempotency-Key header on the two add routes and POST /webhooks, and not on refresh', () => {
    const keyParam = (path: string) =>
      (op('POST', path).parameters ?? []).filter(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
    for (const path of ['/content/posts/add', '/content/accounts/add', '/webhooks']) {
      expect(keyParam(path)).toEqual([
        expect.objectContaining({
          required: false,
          schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
        }),
      ]);
    }
    expect(keyParam('/content/posts/refresh')).toEqual([]);
  });

  it('lists the error statuses of each route in the error envelope', () => {
    const errors = (method: string, path: string) =>
      Object.keys(op(method, path).responses).filter((s) => s >= '400');
    expect(errors('POST', '/content/posts/add')).toEqual([
      '400',
      '401',
      '402',
      '403',
      '404',
      '405',
      '409',
      '413',
      '414',
      '415',
      '429',
      '431',
    ]);
    expect(errors('POST', '/content/accounts/add')).toEqual([
      '400',
      '401',
      '403',
      '404',
      '405',
      '409',
      '413',
      '414',
      '415',
      '429',
      '431',
    ]);
    expect(errors('POST', '/content/posts/refresh')).toEqual([
      '400',
      '401',
      '402',
      '403',
      '404',
      '405',
      '413',
      '414',
      '415',
      '429',
      '431',
    ]);
    expect(errors('POST', '/analyses')).toEqual([
      '400',
      '401',
      '403',
      '404',
      '405',
      '413',
      '414',
      '415',
      '429',
      '431',
    ]);
    expect(errors('GET', '/analyses/{analysisId}/comments')).toEqual([
      '400',
      '401',
      '403',
      '404',
      '405',
      '409',
      '413',
      '414',
      '429',
      '431',
    ]);
    // What the HTTP shell adds to every answer: the correlation id, the rate headers of an admitted request, WWW-Authenticate on 401.
    for (const { path, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        expect([path, status, response.headers['X-Correlation-Id']]).toEqual([
          path,
          status,
          { $ref: '#/components/headers/XCorrelationId' },
        ]);
      }
      if (path === `${PREFIX}/openapi.json`) continue;
      expect(
        Object.keys(
          operation.responses[Object.keys(operation.responses).find((s) => s.startsWith('2'))!].headers,
        ),
      ).toEqual(
        expect.arrayContaining([
          'RateLimit',
          'RateLimit-Policy',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
        ]),
      );
      expect(operation.responses['401'].headers['WWW-Authenticate']).toEqual({
        $ref: '#/components/headers/WWWAuthenticate',
      });
      expect(operation.responses['429'].headers['Retry-After']).toEqual({
        $ref: '#/components/headers/RetryAfter',
      });
    }
    expect(doc.tags.map((t: Json) => t.name)).toEqual([
      'analyses',
      'collections',
      'comments',
      'content',
      'events',
      'identity',
      'insights',
      'meta',
      'posts',
      'webhooks',
    ]);
    for (const tag of doc.tags) expect(tag.description.length).toBeGreaterThan(5);
    expect(errors('GET', '/posts')).toEqual(expect.arrayContaining(['400']));
    expect(op('GET', '/posts/{postId}/metrics').responses['404'].description).toContain(
      'metrics_not_available',
    );
    for (const { path, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        if (status >= '400')
          expect([path, status, response.content['application/json'].schema]).toEqual([
            path,
            status,
            { $ref: '#/components/schemas/ErrorEnvelope' },
          ]);
      }
    }
    expect(doc.components.schemas.ErrorEnvelope).toMatchObject({
      required: ['error'],
      properties: {
        error: {
          required: ['message'],
          properties: {
            message: { type: 'string' },
            code: { type: 'string' },
            candidates: { type: 'array' },
          },
        },
      },
    });
  });

  it('describes the request bodies: POST /analyses field by field, and the content DTOs', () => {
    expect(op('POST', '/analyses').requestBody.required).toBe(true);
    const analysis = bodySchema('POST', '/analyses');
    expect(Object.keys(analysis.properties)).toEqual(['selection', 'filters', 'search', 'include', 'teamId']);
    expect(analysis.required).toEqual(['selection']);
    expect(Object.keys(analysis.properties.selection.properties)).toEqual([
      'collectionId',
      'posts',
      'postIds',
    ]);
    expect(Object.keys(analysis.properties.search.properties)).toEqual(['query', 'mode', 'minRelevance']);
    expect(analysis.properties.include.items.enum).toEqual(['wordCloud', 'emojiCloud', 'emotions']);
    expect(Object.keys(resolve(doc, analysis.properties.filters).properties)).toEqual(
      expect.arrayContaining([
        'sentiment',
        'relevance',
        'consensus',
        'keywords',
        'keywordMatch',
        'usernames',
        'creator',
        'minLikes',
        'since',
        'until',
      ]),
    );

    const add = bodySchema('POST', '/content/posts/add');
    expect(Object.keys(add.properties).sort()).toEqual([
      'capture',
      'collections',
      'credits',
      'links',
      'tags',
      'teamId',
    ]);
    expect(add.required).toEqual(['links']);
    expect(add.properties.links).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
    expect(Object.keys(resolve(doc, add.properties.collections.items).properties)).toEqual([
      'id',
      'name',
      'type',
      'parentId',
    ]);
    const account = bodySchema('POST', '/content/accounts/add');
    expect(Object.keys(account.properties).sort()).toEqual([
      'account',
      'capture',
      'collections',
      'credits',
      'dryRun',
      'filters',
      'tags',
      'teamId',
    ]);
    expect(account.required).toEqual(['account']);
    const refresh = bodySchema('POST', '/content/posts/refresh');
    expect(Object.keys(refresh.properties).sort()).toEqual([
      'capture',
      'credits',
      'links',
      'postIds',
      'teamId',
    ]);
  });

  it('documents the query parameters of the list and sample routes', () => {
    const postFilters = [
      'limit',
      'cursor',
      'status',
      'link',
      'account',
      'platform',
      'tag',
      'posted_since',
      'posted_until',
      'updated_since',
      'min_score',
      'max_score',
      ...['positive', 'lean_positive', 'neutral', 'lean_negative', 'negative'].flatMap((b) => [
        `min_${b}_percent`,
        `max_${b}_percent`,
      ]),
      'collection_id',
    ];
    expect(queryNames('GET', '/posts').sort()).toEqual([...postFilters, 'teamId'].sort());
    expect(queryNames('GET', '/collections/{collectionId}/posts').sort()).toEqual(
      [...postFilters, 'teamId'].sort(),
    );
    const sample = [
      'cursor',
      'limit',
      'source',
      'sentiment',
      'content',
      'topic',
      'relevance',
      'consensus',
      'emotion',
      'teamId',
    ].sort();
    expect(queryNames('GET', '/analyses/{analysisId}/comments').sort()).toEqual(sample);
    expect(queryNames('GET', '/posts/{postId}/analysis/comments').sort()).toEqual(sample);
    expect(queryNames('GET', '/analyses').sort()).toEqual(['kind', 'limit', 'teamId']);
    expect(queryNames('GET', '/content/jobs').sort()).toEqual(['limit', 'status', 'teamId']);
    expect(queryNames('GET', '/saved-analyses').sort()).toEqual(['kind', 'limit', 'teamId']);
    const relevance = op('GET', '/posts/{postId}/analysis/comments').parameters.find(
      (p: Json) => p.name === 'relevance',
    );
    expect(relevance.schema.items.enum).toEqual(
      expect.arrayContaining(['positive', 'on_topic', 'off_topic']),
    );
    const limit = op('GET', '/posts').parameters.find((p: Json) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    for (const { path, operation } of operations()) {
      for (const p of operation.parameters ?? [])
        if (p.in === 'query')
          expect([path, p.name, p.required]).toEqual([path, p.name, p.name === 'snapshot_id']);
    }
  });

  it('documents only query parameters the routes accept', async () => {
    const post = (await call('GET', '/posts?limit=1')).body.data[0];
    const collectionId = (await call('GET', '/collections')).body.data[0].id;
    const analysis = await call('POST', '/analyses', { selection: { postIds: [post.id] } });
    expect(analysis.status).toBe(201);
    const jobId = (await call('GET', '/content/jobs')).body.data[0].id;
    const webhook = await call('POST', '/webhooks', {
      url: 'https://8.8.8.8/hook',
      events: ['analysis.ready'],
    });
    expect(webhook.status).toBe(201);
    const ids: Record<string, string> = {
      postId: post.id,
      collectionId,
      analysisId: analysis.body.data.id,
      jobId,
      webhookId: webhook.body.data.id,
    };
    const sampleValue = (name: string, schema: Json): string | null => {
      if (name === 'cursor') return null; // opaque: only a value the route handed out is valid
      if (name === 'teamId') return teamId;
      if (name === 'collection_id') return collectionId;
      if (name.includes('since') || name.includes('until')) return '2026-01-01';
      const s = schema.type === 'array' ? schema.items : schema;
      if (s.enum) return String(s.enum[0]);
      if (s.type === 'integer' || s.type === 'number') return String(s.minimum ?? 1);
      return 'x';
    };
    const checked: string[] = [];
    for (const { method, path, operation } of operations()) {
      if (method !== 'GET' || path.endsWith('/openapi.json')) continue;
      // An event stream never ends, and inject waits for the end: libs/notifier/test/events.e2e
      // checks GET /events' parameters (types, teamId) on a listening server instead.
      if (operation.responses?.['200']?.content?.['text/event-stream']) continue;
      const route = path.slice(PREFIX.length).replace(/\{(\w+)\}/g, (_, name: string) => ids[name]);
      const query: Json[] = (operation.parameters ?? []).filter((x: Json) => x.in === 'query');
      const base = query.filter((p) => p.required).map((p) => `${p.name}=sa_missing`);
      for (const p of query.filter((x) => !x.required)) {
        const value = sampleValue(p.name, p.schema);
        if (value === null) continue;
        const res = await call(
          'GET',
          `${route}?${[...base, `${p.name}=${encodeURIComponent(value)}`].join('&')}`,
        );
        expect([path, p.name, res.body.error?.message ?? '']).toEqual([
          path,
          p.name,
          expect.not.stringMatching(/unknown/i),
        ]);
        expect([path, p.name, res.status]).toEqual([path, p.name, path.endsWith('/insights') ? 404 : 200]);
        checked.push(`${path}?${p.name}`);
      }
    }
    expect(checked.length).toBeGreaterThan(60);
  });

  it('describes the responses the routes return: envelopes, resources and errors', async () => {
    // The Ajv check bites: a post without its fields, or with a field the document does not list, is refused.
    expect(strict({ $ref: '#/components/schemas/Post' })({})).toBe(false);
    const listed = (await call('GET', '/posts?limit=1')).body;
    expect(strict(op('GET', '/posts').responses['200'].content['application/json'].schema)(listed)).toBe(
      true,
    );
    listed.data[0].undocumented = 1;
    expect(strict(op('GET', '/posts').responses['200'].content['application/json'].schema)(listed)).toBe(
      false,
    );
    listed.data[0].undocumented = undefined;
    listed.meta.filters.undocumented = 'x';
    expect(
      strict(op('GET', '/posts').responses['200'].content['application/json'].schema)(
        JSON.parse(JSON.stringify(listed)),
      ),
    ).toBe(false);
    const problems: string[] = [];
    const expectDocumented = async (
      method: 'GET' | 'POST',
      template: string,
      url: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => {
      const res = await call(method, url, body, headers);
      problems.push(...mismatches(method, template, res));
      return res;
    };

    await expectDocumented('GET', '/me', '/me');
    await expectDocumented('GET', '/team', '/team');
    const page = await expectDocumented('GET', '/posts', '/posts?limit=5&status=all');
    const post = page.body.data[0];
    await expectDocumented('GET', '/posts', `/posts?limit=5&cursor=${page.body.meta.nextCursor}`);
    const filtered = await expectDocumented(
      'GET',
      '/posts',
      `/posts?limit=2&status=all&platform=youtube,tiktok&tag=%23Demo&account=@someone&link=${encodeURIComponent(post.link)}&posted_since=2020-01-01&posted_until=2030-01-01&updated_since=2020-01-01T00:00:00Z&min_score=1&max_score=10&min_positive_percent=0&max_negative_percent=100`,
    );
    expect(filtered.body.meta.filters).toMatchObject({
      status: 'all',
      platform: ['youtube', 'tiktok'],
      tag: ['demo'],
      account: ['someone'],
      posted_until: '2030-01-01T23:59:59.999Z',
      min_positive_percent: 0,
    });
    await expectDocumented('GET', '/posts/{postId}/analysis', `/posts/${post.id}/analysis`);
    await expectDocumented('GET', '/posts/{postId}/metrics', `/posts/${post.id}/metrics`);
    await expectDocumented(
      'GET',
      '/posts/{postId}/analysis/comments',
      `/posts/${post.id}/analysis/comments?limit=5&relevance=on_topic,relevant`,
    );
    const collections = await expectDocumented('GET', '/collections', '/collections');
    const collectionId = collections.body.data[0].id;
    await expectDocumented('GET', '/collections/{collectionId}', `/collections/${collectionId}`);
    await expectDocumented(
      'GET',
      '/collections/{collectionId}/posts',
      `/collections/${collectionId}/posts?limit=3`,
    );

    const created = await expectDocumented('POST', '/analyses', '/analyses', {
      selection: { collectionId, posts: { status: 'all', platform: [...PLATFORMS] } },
      filters: {
        sentiment: ['positive', 'lean_positive'],
        relevance: ['on_topic'],
        replies: 'exclude',
        minLikes: 0,
      },
      search: { query: 'the', mode: 'keyword' },
      include: ['wordCloud', 'emojiCloud'],
      teamId,
    });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    const analysisId = created.body.data.id;
    await expectDocumented('GET', '/analyses/{analysisId}', `/analyses/${analysisId}`);
    await expectDocumented(
      'GET',
      '/analyses/{analysisId}/comments',
      `/analyses/${analysisId}/comments?limit=5&source=content`,
    );
    const search = await expectDocumented('POST', '/analyses', '/analyses', {
      selection: { posts: {} },
      search: { query: 'great video' },
    });
    expect(search.status).toBe(202);
    await expectDocumented('GET', '/analyses/{analysisId}', `/analyses/${search.body.data.id}`);
    await expectDocumented('GET', '/analyses', '/analyses?kind=all&limit=10');
    await expectDocumented('GET', '/saved-analyses', '/saved-analyses');

    const added = await expectDocumented('POST', '/content/posts/add', '/content/posts/add', {
      links: [post.link, 'https://example.com/not-a-post'],
      tags: ['openapi'],
    });
    expect(added.status).toBe(202);
    const replayed = await expectDocumented('POST', '/content/posts/add', '/content/posts/add', {
      links: [post.link, 'https://example.com/not-a-post'],
      tags: ['openapi'],
    });
    expect(replayed.status).toBe(200);
    const refreshed = await expectDocumented('POST', '/content/posts/refresh', '/content/posts/refresh', {
      postIds: [post.id, 'po_missing'],
    });
    expect(refreshed.status).toBe(202);
    const dryRun = await expectDocumented('POST', '/content/accounts/add', '/content/accounts/add', {
      account: { url: 'https://www.tiktok.com/@fitjoe' },
      dryRun: true,
      filters: { limit: 3, keywords: { term: 'a', match: 'includes' } },
    });
    expect(dryRun.status).toBe(202);
    for (
      let i = 0;
      i < 100 &&
      !['completed', 'partial', 'failed'].includes(
        (await call('GET', `/content/jobs/${dryRun.body.data.id}`)).body.data.status,
      );
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const job of [added, refreshed, dryRun])
      await expectDocumented('GET', '/content/jobs/{jobId}', `/content/jobs/${job.body.data.id}`);
    await expectDocumented('GET', '/content/jobs', '/content/jobs?limit=100');

    // Errors, each in the documented envelope.
    expect((await expectDocumented('GET', '/posts', '/posts', undefined, {})).status).toBe(401);
    expect((await expectDocumented('GET', '/posts', '/posts?min_score=11')).status).toBe(400);
    expect(
      (await expectDocumented('GET', '/posts/{postId}/analysis', '/posts/po_missing/analysis')).status,
    ).toBe(404);
    expect((await expectDocumented('POST', '/analyses', '/analyses', { selection: {} })).status).toBe(400);
    expect(
      (await expectDocumented('POST', '/content/posts/add', '/content/posts/add', { links: [] })).status,
    ).toBe(400);
    expect((await expectDocumented('GET', '/insights', '/insights?snapshot_id=sa_missing')).status).toBe(404);
    expect((await expectDocumented('GET', '/content/jobs/{jobId}', '/content/jobs/cj_missing')).status).toBe(
      404,
    );

    expect(problems).toEqual([]);
  });

  it('shows a recorded call on every operation: parameters, request body and success response, each valid against its schema', () => {
    const problems: string[] = [];
    const check = (where: string, schema: Json, value: unknown) => {
      if (value === undefined) return problems.push(`${where}: no example`);
      const fn = strict(schema);
      if (!fn(value))
        problems.push(...(fn.errors ?? []).map((e) => `${where}: ${e.instancePath} ${e.message}`));
    };
    let operationsWithExamples = 0;
    for (const { method, path, operation } of operations()) {
      if (path === `${PREFIX}/openapi.json`) continue;
      const where = `${method} ${path}`;
      for (const p of operation.parameters ?? [])
        if (p.in === 'path') check(`${where} parameter ${p.name}`, p.schema, p.example);
      for (const p of operation.parameters ?? [])
        if (p.in === 'query' && p.example !== undefined)
          check(`${where} parameter ${p.name}`, p.schema, p.example);
      const body = operation.requestBody?.content['application/json'];
      if (body) check(`${where} request body`, body.schema, body.example);
      // A success with a JSON body shows one (a 204 has no body to show).
      const success = Object.keys(operation.responses).filter(
        (s) => s.startsWith('2') && operation.responses[s].content?.['application/json'],
      );
      const shown = success.filter(
        (s) => operation.responses[s].content['application/json'].example !== undefined,
      );
      if (success.length > 0 && shown.length === 0) problems.push(`${where}: no success response example`);
      for (const status of shown) {
        const content = operation.responses[status].content['application/json'];
        check(`${where} ${status} example`, content.schema, content.example);
      }
      operationsWithExamples += 1;
    }
    expect(problems).toEqual([]);
    expect(operationsWithExamples).toBe(ROUTE_POLICIES.length);
    // A recorded list is cut to a few items, and it is a real answer: the listPosts example pages on.
    const listed = op('GET', '/posts').responses['200'].content['application/json'].example;
    expect(listed.data.length).toBeGreaterThan(0);
    expect(listed.meta.filters).toEqual({ status: 'complete', platform: ['youtube'] });
    expect(op('GET', '/posts').parameters.find((p: Json) => p.name === 'platform').example).toEqual([
      'youtube',
    ]);
  });

  it('lists the enumerations the code uses (the shared constants in @analyst/contracts)', () => {
    const schemas = doc.components.schemas;
    const enumOf = (schema: Json): unknown[] => schema.enum ?? schema.items?.enum;
    expect(enumOf(schemas.ContentJob.properties.kind)).toEqual([...JOB_KINDS]);
    expect(enumOf(schemas.ContentJob.properties.status)).toEqual([...JOB_STATUSES]);
    expect(enumOf(schemas.ContentJobSummary.properties.status)).toEqual([...JOB_STATUSES]);
    expect(enumOf(schemas.ContentJob.properties.skipped.items.properties.reason)).toEqual([...SKIP_REASONS]);
    expect(enumOf(schemas.ContentJob.properties.rejected.items.properties.reason)).toEqual([
      ...REJECT_REASONS,
    ]);
    expect(enumOf(schemas.CommentRow.properties.sampleReasons)).toEqual([...SAMPLE_REASONS]);
    expect(enumOf(schemas.AnalysisRequest.properties.include)).toEqual([...ANALYSIS_INCLUDES]);
    // The emotions extension: row values (with null), the sample filter, and the mix's seven shares.
    expect(enumOf(schemas.CommentRow.properties.emotion)).toEqual([...EMOTIONS, null]);
    const sample = op('GET', '/analyses/{analysisId}/comments').parameters.find(
      (p: Json) => p.name === 'emotion',
    );
    expect(enumOf(sample.schema)).toEqual([...EMOTIONS]);
    expect(Object.keys(schemas.EmotionMix.properties)).toEqual(EMOTIONS.map((e) => `${e}Percent`));
  });
});
