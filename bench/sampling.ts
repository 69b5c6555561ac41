/**
 * Sampling bench: latency of one 100-row comment sample over a 100-post analysis with 100,000
 * comments, through HTTP (gateway included) and straight at the service, for the default sample,
 * a bucket-filtered one, notables, and a deep page reached by cursor.
 * Run: SWC_NODE_PROJECT=tsconfig.json node -r @swc-node/register bench/sampling.ts
 *
 * The comments go in as ingest's events (CommentsFetched / CommentsScored in chunks of 250), so the
 * sampling service folds them exactly as in production; the fold time is printed too.
 */
import type { FetchedComment, ScoredComment } from '@analyst/contracts';
import { AnalysisModule } from '@analyst/analysis';
import { GatewayModule } from '@analyst/gateway';
import { EVENT_STORE, type EventStore, type NewEvent } from '@analyst/platform';
import { parseSampleQuery, SamplingModule, SamplingService } from '@analyst/sampling';
import { CommentReadSide } from '@analyst/comment-index';
import { createTestApp } from '@analyst/testing';

const POSTS = 100;
const PER_POST = 1000;
const CHUNK = 250;
const RUNS = 200;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  const t = await createTestApp({ modules: [GatewayModule, AnalysisModule, SamplingModule] });
  const created = await t.admin('POST', '/admin/v1/teams', { name: 'bench', plan: 'scale' });
  const teamId = created.body.data.id as string;
  const big = { perMinute: 1_000_000, perDay: 10_000_000 };
  await t.admin('PUT', `/admin/v1/teams/${teamId}/limits`, {
    limits: { global: big, analysis_create: big, analysis_comments: big },
  });
  const key = (
    await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, {
      name: 'bench',
      scopes: ['analyses:run', 'analyses:read', 'comments:read'],
    })
  ).body.data.key;
  const auth = { authorization: `Bearer ${key}` };

  const events = t.app.get<EventStore>(EVENT_STORE);
  const random = rng(7);
  const words = [
    'battery',
    'camera',
    'price',
    'love',
    'hate',
    'screen',
    'great',
    'awful',
    'shipping',
    'colour',
  ];
  const at = '2026-03-01T00:00:00.000Z';
  let id = 0;
  const ev = (type: string, data: unknown): NewEvent => ({
    id: `ev_bench_${++id}`,
    type,
    schemaVersion: 1,
    data,
    metadata: { correlationId: 'bench', causationId: null, teamId, occurredAt: at },
  });
  const seeding = Date.now();
  for (let p = 0; p < POSTS; p++) {
    const postId = `bp${String(p).padStart(3, '0')}`;
    const link = `https://www.youtube.com/watch?v=${postId}`;
    const list: NewEvent[] = [
      ev('PostCreated', {
        postId,
        teamId,
        link,
        normalizedLink: link,
        platform: 'youtube',
        collectionIds: [],
        tags: [],
        addedVia: 'api',
        dataVersion: 1,
        requestedAt: at,
      }),
      ev('PostFetched', {
        postId,
        dataVersion: 1,
        totalComments: PER_POST,
        chunks: PER_POST / CHUNK,
        at,
        post: {
          link,
          platform: 'youtube',
          creator: { username: 'creator', name: 'C' },
          title: 't',
          caption: 'c',
          description: null,
          engagement: { views: 1, likes: 1, comments: PER_POST, shares: 0 },
          postedAt: new Date(Date.parse(at) + p * 3600_000).toISOString(),
          postType: 'video',
          thumbnail: null,
        },
      }),
    ];
    for (let chunk = 0; chunk < PER_POST / CHUNK; chunk++) {
      const fetched: FetchedComment[] = [];
      const scored: ScoredComment[] = [];
      for (let c = chunk * CHUNK; c < (chunk + 1) * CHUNK; c++) {
        const commentId = `${postId}-c${c}`;
        const s = () => (random() < 0.03 ? null : Math.round((1 + 9 * random()) * 100) / 100);
        const body = Array.from(
          { length: 4 + Math.floor(random() * 12) },
          () => words[Math.floor(random() * words.length)],
        ).join(' ');
        fetched.push({
          id: commentId,
          parentId: random() < 0.3 ? `${postId}-c0` : null,
          authorUsername: `user${c % 700}`,
          authorIsCreator: false,
          body,
          likes: Math.floor(random() ** 4 * 1000),
          postedAt: at,
          hidden: random() < 0.02,
        });
        const topicIndex = random() < 0.4 ? Math.floor(random() * 3) : null;
        scored.push({
          commentId,
          scores: { sentiment: s(), content: s(), topic: s(), relevance: s(), consensus: s() },
          topicIndex,
          messageIndex: topicIndex === 0 ? 0 : null,
          scorer: { name: 'bench', version: '1' },
        });
      }
      list.push(
        ev('CommentsFetched', { postId, dataVersion: 1, chunk, comments: fetched }),
        ev('CommentsScored', { postId, dataVersion: 1, chunk, comments: scored }),
      );
    }
    list.push(
      ev('PostScored', {
        postId,
        dataVersion: 1,
        scorer: { name: 'bench', version: '1' },
        totalComments: PER_POST,
        at,
        topics: [
          { title: 'Battery', description: null },
          { title: 'Camera', description: null },
          { title: 'Price', description: null },
        ],
        messages: [{ topic: 'Battery', stance: 'lasts all day' }],
      }),
    );
    await events.append(`post-${postId}`, list, 'no_stream');
  }
  const appended = Date.now() - seeding;
  const folding = Date.now();
  await t.app.get(CommentReadSide).current(120_000);
  console.log(
    `seeded ${POSTS} posts × ${PER_POST} comments: append ${appended} ms, sampling index caught up ${Date.now() - folding} ms after`,
  );

  const postIds = Array.from({ length: POSTS }, (_, p) => `bp${String(p).padStart(3, '0')}`);
  const analysis = await t.request('POST', '/analyst/v1/analyses', {
    headers: auth,
    body: { selection: { postIds } },
  });
  if (analysis.status !== 201) throw new Error(`analysis: ${analysis.status} ${analysis.raw}`);
  const analysisId = analysis.body.data.id as string;
  console.log(
    `analysis ${analysisId}: ${analysis.body.data.postCount} posts, ${analysis.body.data.scope.matchedComments} matched comments`,
  );

  const base = `/analyst/v1/analyses/${analysisId}/comments?limit=100`;
  const deep = await (async () => {
    let url = base;
    for (let i = 0; i < 50; i++) {
      const res = await t.request('GET', url, { headers: auth });
      url = `${base}&cursor=${res.body.meta.nextCursor}`;
    }
    return url;
  })();
  const variants: [string, string][] = [
    ['default (source=all)', base],
    ['sentiment=negative,lean_negative', `${base}&sentiment=negative,lean_negative`],
    ['relevance=on_topic&consensus=fighting', `${base}&relevance=on_topic&consensus=fighting`],
    ['source=notables', `${base}&source=notables`],
    ['source=content', `${base}&source=content`],
    ['page 51 by cursor', deep],
  ];
  const service = t.app.get(SamplingService);
  console.log(`\none 100-row sample, ${RUNS} runs each after 20 warm-up runs (target p95 < 100 ms):`);
  console.log(
    'variant'.padEnd(40),
    'HTTP p50'.padStart(10),
    'HTTP p95'.padStart(10),
    'service p50'.padStart(12),
    'service p95'.padStart(12),
    'rows'.padStart(6),
    'total'.padStart(7),
  );
  const allHttp: number[] = [];
  for (const [name, url] of variants) {
    const query = Object.fromEntries([...new URL(url, 'http://x').searchParams.entries()]);
    for (let i = 0; i < 20; i++) await t.request('GET', url, { headers: auth });
    const http: number[] = [];
    const direct: number[] = [];
    let rows = 0;
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await t.request('GET', url, { headers: auth });
      http.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.raw}`);
      rows = res.body.data.length;
      total = res.body.meta.total;
      const t1 = performance.now();
      await service.analysisSample(teamId, analysisId, parseSampleQuery(query));
      direct.push(performance.now() - t1);
    }
    allHttp.push(...http);
    console.log(
      name.padEnd(40),
      ms(pct(http, 50)).padStart(10),
      ms(pct(http, 95)).padStart(10),
      ms(pct(direct, 50)).padStart(12),
      ms(pct(direct, 95)).padStart(12),
      String(rows).padStart(6),
      String(total).padStart(7),
    );
  }
  console.log(`\nall variants over HTTP: p50 ${ms(pct(allHttp, 50))}, p95 ${ms(pct(allHttp, 95))}`);
  await t.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
