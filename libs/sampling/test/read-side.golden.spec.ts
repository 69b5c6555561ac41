import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMOTIONS, type BucketKey, type Emotion, type Platform } from '@analyst/contracts';
import {
  foldIntoTeams,
  catalogPostsProjector,
  catalogTeamsProjector,
  FoldedTeams,
  commentChunksProjector,
  commentScoresProjector,
  compileFilters,
  computeAnalysis,
  fnv1a32,
  CommentEmbeddings,
  EncoderSearchModel,
  materializedOf,
  PostAnalysesStep,
  ReadCache,
  searchMatchedRows,
  type CommentFilters,
  type PostEntry,
  type TeamIndex,
} from '@analyst/comment-index';
import { emotionOfCode, NO_COMMENT_FILTER } from '@analyst/domain-analysis';
import { DEMO_LINKS } from '@analyst/ingest';
import { MemoryReadStore, ProjectionRuntime, SqliteEventStore, type RecordedEvent } from '@analyst/platform';
import { SimulatedProvider } from '@analyst/provider-sim';
import { LexiconScorer } from '@analyst/scoring';
import {
  commentsFromPool,
  ContentLogWriter,
  HashingEncoder,
  SeededRandom,
  type CommentPool,
  type PostVersionContent,
} from '@analyst/testing';
import { commentRow, drawSample, type SampleInput } from '../src';

/**
 * The read side answers exactly what the log fold answered: every analysis, materialized post
 * analysis, AI-search match set and sample page computed from catalogs and comment rows loaded from
 * the read models (warm, kept fresh by live events; cold, loaded after everything; and with a budget
 * so small that every team is dropped after each use) equals the one computed from the whole log
 * folded into team indexes (`FoldedTeams`), as the services did before. Over the demo content (the 60 demo
 * links, fetched by the simulated provider and scored by the product's scorer) and a generated team
 * of over 100,000 comments, with refreshes, cancellations, failures, holds, settings changes and
 * tags arriving after the caches were loaded.
 */

const DEMO = 'tm_demo';
const GEN = 'tm_gen';
const OTHER = 'tm_other';
const GEN_POSTS = 110;
const scorer = new LexiconScorer();
const provider = new SimulatedProvider();
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** A link's content as ingest would record it: the simulated provider's fetch, the product's scorer. */
function fetchedAndScored(link: string, limit?: number): PostVersionContent {
  const result = provider.fetchPostSync(link, { fullRead: limit === undefined, commentLimit: limit });
  if (result.status !== 'ok') throw new Error(`simulated fetch of ${link}: ${result.status}`);
  const scoring = scorer.scorePost(result.post, result.comments);
  return {
    post: result.post,
    fetched: result.comments,
    scored: scoring.comments,
    topics: scoring.topics,
    messages: scoring.messages,
    scorer: { name: scorer.name, version: scorer.version },
  };
}

/** A generated version of a post: the pool's comments (real bodies, real scores) under new ids. */
function generated(pool: CommentPool, key: string, count: number, random: SeededRandom): PostVersionContent {
  const base = fetchedAndScored(`https://www.youtube.com/watch?v=G${pad(random.int(1e9), 10)}`, 5);
  const topics = base.topics.length > 0 ? base.topics : [{ title: 'Battery life', description: null }];
  const messages = base.messages.length > 0 ? base.messages : [{ topic: 'Battery', stance: 'lasts a day' }];
  const comments = commentsFromPool(pool, key, count, random, {
    topics: topics.length,
    messages: messages.length,
  });
  return { ...base, ...comments, topics, messages };
}

interface Fixture {
  dir: string;
  events: SqliteEventStore;
  reference: FoldedTeams;
  store: MemoryReadStore;
  warm: ReadCache;
  cold: ReadCache;
  tiny: ReadCache;
  comments: number;
}

async function buildFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-golden-'));
  const events = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const log = new ContentLogWriter(events);
  const random = new SeededRandom(20);

  // The pool: full comment sections of simulated posts, scored by the product's scorer.
  const pool: CommentPool = { fetched: [], scored: [] };
  for (let i = 0; pool.fetched.length < 6000; i++) {
    const content = fetchedAndScored(`https://www.youtube.com/watch?v=P${pad(i, 10)}`);
    pool.fetched.push(...content.fetched);
    pool.scored.push(...content.scored);
  }

  // The demo team: the 60 demo links in two campaigns with nested groups, as npm start seeds them.
  await log.teamCreated(DEMO);
  await log.collectionCreated(DEMO, 'co_launch', 'Spring Launch', 'campaign', null);
  await log.collectionCreated(DEMO, 'co_creators', 'Creator Partnerships', 'group', 'co_launch');
  await log.collectionCreated(DEMO, 'co_reactions', 'Launch Reactions', 'group', 'co_launch');
  await log.collectionCreated(DEMO, 'co_pulse', 'Community Pulse', 'campaign', null);
  await log.collectionCreated(DEMO, 'co_forums', 'Forum Threads', 'group', 'co_pulse');
  await log.collectionCreated(DEMO, 'co_short', 'Short Video', 'group', 'co_pulse');
  const demoBatches: [Platform[], number, number, string, string[]][] = [
    [['youtube', 'tiktok', 'instagram', 'x'], 1, 3, 'co_launch', ['launch']],
    [['youtube', 'tiktok', 'instagram'], 10, 3, 'co_creators', ['launch', 'creators']],
    [['x', 'threads', 'facebook'], 20, 3, 'co_reactions', ['launch', 'reactions']],
    [['reddit', 'linkedin', 'facebook', 'threads'], 30, 3, 'co_pulse', ['community']],
    [['reddit', 'linkedin'], 40, 5, 'co_forums', ['community', 'forums']],
    [['tiktok', 'youtube', 'instagram', 'x'], 50, 2, 'co_short', ['community', 'video']],
  ];
  let comments = 0;
  const demoPosts: string[] = [];
  for (const [platforms, from, each, collection, tags] of demoBatches) {
    for (const platform of platforms) {
      for (let n = from; n < from + each; n++) {
        const postId = `po_demo_${platform}_${n}`;
        const link = DEMO_LINKS[platform](n);
        const content = fetchedAndScored(link);
        await log.postCreated(DEMO, postId, link, platform, { collectionIds: [collection], tags });
        await log.fetched(DEMO, postId, 1, content);
        await log.scored(DEMO, postId, 1, content);
        demoPosts.push(postId);
        comments += content.fetched.length;
      }
    }
  }

  // The generated team: over 100,000 comments, settings changed once before any post is scored.
  await log.teamCreated(GEN);
  await log.settingsChanged(GEN, 2, 0.5);
  await log.collectionCreated(GEN, 'co_gen_a', 'Gen Campaign', 'campaign', null);
  await log.collectionCreated(GEN, 'co_gen_b', 'Gen Group', 'group', 'co_gen_a');
  const genPosts: string[] = [];
  for (let p = 0; p < GEN_POSTS; p++) {
    const postId = `po_gen_${pad(p, 3)}`;
    const count = p % 37 === 5 ? 0 : 900 + random.int(300);
    const content = generated(pool, `${postId}-v1`, count, random);
    const collectionIds = p % 3 === 0 ? ['co_gen_a'] : p % 3 === 1 ? ['co_gen_b'] : [];
    await log.postCreated(GEN, postId, `https://www.youtube.com/watch?v=gen${pad(p, 8)}`, 'youtube', {
      collectionIds,
      tags: p % 2 ? ['odd'] : ['even'],
    });
    await log.fetched(GEN, postId, 1, content);
    await log.scored(GEN, postId, 1, content);
    genPosts.push(postId);
    comments += count;
  }

  // Another team whose words and authors never occur in the two above.
  await log.teamCreated(OTHER);
  for (let p = 0; p < 3; p++) {
    const postId = `po_other_${p}`;
    const content = generated(pool, postId, 50, random);
    content.fetched = content.fetched.map((c) => ({
      ...c,
      body: `zebracorn quokkafest ${c.body}`,
      authorUsername: 'OnlyOther',
    }));
    await log.postCreated(OTHER, postId, `https://www.youtube.com/watch?v=oth${pad(p, 8)}`, 'youtube');
    await log.fetched(OTHER, postId, 1, content);
    await log.scored(OTHER, postId, 1, content);
  }
  const loadedAt = await events.headPosition();

  // After the caches are loaded: what the live feed must bring into them.
  await log.settingsChanged(GEN, 3, 1);
  for (const p of [1, 7, 20, 44, 90]) {
    const postId = genPosts[p];
    await log.refreshRequested(GEN, postId, 2);
    const content = generated(pool, `${postId}-v2`, 500 + random.int(800), random);
    await log.fetched(GEN, postId, 2, content);
    await log.scored(GEN, postId, 2, content);
  }
  // Refreshed, fetched, cancelled while processing: the scored version stays v1.
  await log.refreshRequested(GEN, genPosts[3], 2);
  await log.fetched(GEN, genPosts[3], 2, generated(pool, `${genPosts[3]}-v2`, 300, random));
  await log.cancelled(GEN, genPosts[3], 2);
  // Refreshed and failed.
  await log.refreshRequested(GEN, genPosts[4], 2);
  await log.fetchFailed(GEN, genPosts[4], 2, 'failed');
  // Held, resumed, fetched and scored as the same version.
  await log.refreshRequested(GEN, genPosts[6], 2);
  await log.fetchFailed(GEN, genPosts[6], 2, 'holding');
  await log.holdResumed(GEN, genPosts[6], 2);
  const held = generated(pool, `${genPosts[6]}-v2`, 700, random);
  await log.fetched(GEN, genPosts[6], 2, held);
  await log.scored(GEN, genPosts[6], 2, held);
  // New posts: scored, and one still processing.
  for (let p = GEN_POSTS; p < GEN_POSTS + 3; p++) {
    const postId = `po_gen_${pad(p, 3)}`;
    const content = generated(pool, `${postId}-v1`, 400, random);
    await log.postCreated(GEN, postId, `https://www.youtube.com/watch?v=gen${pad(p, 8)}`, 'youtube');
    await log.fetched(GEN, postId, 1, content);
    await log.scored(GEN, postId, 1, content);
  }
  await log.postCreated(GEN, 'po_gen_pending', 'https://www.youtube.com/watch?v=genpending', 'youtube');
  await log.fetched(GEN, 'po_gen_pending', 1, generated(pool, 'po_gen_pending', 300, random));
  await log.collectionCreated(GEN, 'co_gen_c', 'Late Group', 'group', 'co_gen_a');
  await log.tagged(GEN, genPosts[10], ['co_gen_c'], ['late']);
  await log.tagged(GEN, genPosts[11], ['co_gen_c'], []);
  await log.settingsChanged(DEMO, 3, 0.25);
  for (const postId of demoPosts.slice(0, 2)) {
    await log.refreshRequested(DEMO, postId, 2);
    const content = generated(pool, `${postId}-v2`, 200, random);
    await log.fetched(DEMO, postId, 2, content);
    await log.scored(DEMO, postId, 2, content);
  }

  // The reference: the whole log folded into `FoldedTeams`, as the services did.
  const reference = new FoldedTeams({ minDeadRows: 100_000 });
  for await (const page of events.readAll(-1)) for (const e of page) foldIntoTeams(reference, e);

  // The read side: projections into an in-memory read store, a warm cache loaded half way.
  const store = new MemoryReadStore();
  const runtime = new ProjectionRuntime(
    store,
    [catalogTeamsProjector, catalogPostsProjector, commentChunksProjector, commentScoresProjector],
    { steps: [new PostAnalysesStep(store, events)] },
  );
  await runtime.createIndexes();
  const warm = new ReadCache(store, 1024 * 1024 * 1024, true, { minDeadRows: 2000 });
  runtime.onApplied((e: RecordedEvent) => warm.apply(e));
  const remaining: RecordedEvent[][] = [];
  for await (const page of events.readAll(-1)) {
    const before = page.filter((e) => e.position <= loadedAt);
    if (before.length > 0) await runtime.applyPage(before);
    const after = page.filter((e) => e.position > loadedAt);
    if (after.length > 0) remaining.push(after);
  }
  for (const teamId of [DEMO, GEN, OTHER]) {
    const team = await warm.team(teamId);
    await warm.rows(team, team.posts);
  }
  for (const page of remaining) await runtime.applyPage(page);
  const cold = new ReadCache(store, 1024 * 1024 * 1024);
  const tiny = new ReadCache(store, 1);
  return { dir, events, reference, store, warm, cold, tiny, comments };
}

let f: Fixture;
beforeAll(async () => {
  f = await buildFixture();
}, 600_000);
afterAll(() => {
  void f?.events.close();
  if (f) rmSync(f.dir, { recursive: true, force: true });
});

const caches = (): [string, ReadCache][] => [
  ['warm', f.warm],
  ['cold', f.cold],
  ['tiny', f.tiny],
];

/**
 * The post entry as the catalog routes see it (rows and internal numbering left out). The daily
 * metrics are compared apart: a catalog leaves them in the store until GET /metrics reads them.
 */
function catalogView(post: PostEntry) {
  const { index: _i, scored: _s, pending: _p, version, ...rest } = post;
  const v = version ? { ...version, source: undefined } : null;
  const held = materializedOf(post);
  const materialized = held ? { ...held, metrics: { totals: held.metrics.totals } } : null;
  return { ...rest, version: v, materialized };
}

/** Posts by id, in the reference's creation order. */
function postsOf(team: TeamIndex, ids: readonly string[]): PostEntry[] {
  return ids.map((id) => team.postsById.get(id)).filter((p): p is PostEntry => p !== undefined);
}

const REQUESTS: { name: string; filters: CommentFilters | null; include: string[] }[] = [
  { name: 'everything', filters: null, include: ['wordCloud', 'emojiCloud', 'emotions'] },
  {
    name: 'positive sentiment',
    filters: { sentiment: ['positive', 'lean_positive'] },
    include: ['wordCloud', 'emotions'],
  },
  {
    name: 'keywords any, with a word of another team',
    filters: { keywords: ['love', 'zebracorn', 'price'], keywordMatch: 'any' },
    include: ['wordCloud'],
  },
  { name: 'keywords all', filters: { keywords: ['love', 'this'], keywordMatch: 'all' }, include: [] },
  { name: 'exclude keywords', filters: { excludeKeywords: ['the', 'zebracorn'] }, include: ['emojiCloud'] },
  {
    name: 'presence flags and likes',
    filters: { replies: 'exclude', questions: 'only', minLikes: 2, emoji: 'include' },
    include: ['wordCloud'],
  },
  { name: 'creator only, mentions only', filters: { creator: 'only', mentions: 'only' }, include: [] },
  {
    name: 'authors, relevance and dates',
    filters: {
      excludeUsernames: ['OnlyOther'],
      relevance: ['positive', 'lean_positive', 'neutral'],
      since: '2026-01-01T00:00:00Z',
      until: '2026-10-30T00:00:00Z',
    },
    include: ['wordCloud', 'emojiCloud', 'emotions'],
  },
];

function selections(team: TeamIndex): [string, string[]][] {
  const newestFirst = [...team.posts].reverse().map((p) => p.id);
  const inCollection = team.posts
    .filter((p) => p.collectionIds.some((c) => c === 'co_gen_a' || c === 'co_launch' || c === 'co_gen_c'))
    .map((p) => p.id);
  return [
    ['all posts', newestFirst],
    ['100 posts', newestFirst.slice(0, 100)],
    ['a collection', inCollection],
    ['three posts', newestFirst.filter((_, i) => i % 29 === 3).slice(0, 3)],
  ];
}

describe('the read side answers what the log fold answered', () => {
  it('holds the whole fixture: demo content and a generated team of over 100,000 comments', () => {
    expect(f.reference.team(GEN).posts.length).toBe(GEN_POSTS + 4);
    expect(f.reference.team(DEMO).posts.length).toBe(60);
    const genRows = f.reference.team(GEN).posts.reduce((n, p) => n + (p.scored?.rows.length ?? 0), 0);
    expect(genRows).toBeGreaterThan(100_000);
    // The product's scorer reads emotions: the comparisons below carry them, not only nulls.
    const ref = f.reference.team(GEN);
    const perEmotion = new Map<Emotion | null, number>();
    for (const p of ref.posts)
      for (const r of p.scored?.rows ?? []) {
        const e = emotionOfCode(ref.columns.emotion[r]);
        perEmotion.set(e, (perEmotion.get(e) ?? 0) + 1);
      }
    expect(EMOTIONS.filter((e) => (perEmotion.get(e) ?? 0) > 0).length).toBeGreaterThanOrEqual(5);
    expect(perEmotion.get(null) ?? 0).toBeLessThan(genRows / 2);
  });

  it.each([['warm'], ['cold'], ['tiny']])(
    '%s: catalogs, settings, collections and materialized post analyses',
    async (name) => {
      const cache = caches().find(([n]) => n === name)![1];
      for (const teamId of [DEMO, GEN, OTHER]) {
        const ref = f.reference.team(teamId);
        const team = await cache.team(teamId);
        expect(team.known).toBe(true);
        expect(team.settings).toEqual(ref.settings);
        expect([...team.collections.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
          [...ref.collections.values()].sort((a, b) => a.id.localeCompare(b.id)),
        );
        expect(team.posts.map((p) => p.id)).toEqual(ref.posts.map((p) => p.id));
        for (const post of ref.posts) {
          const held = team.postsById.get(post.id)!;
          expect(catalogView(held)).toEqual(catalogView(post));
          expect(await cache.dailyMetrics(team, held)).toEqual(materializedOf(post)?.metrics.daily ?? null);
        }
      }
      // A materialized analysis carries numbers (not just shape): the generated team's first post has comments.
      const first = f.reference.team(GEN).postsById.get('po_gen_000')!;
      expect(materializedOf(first)!.metrics.totals.comments).toBeGreaterThan(800);
    },
  );

  it.each([['warm'], ['cold'], ['tiny']])(
    '%s: analyses over every selection, filter and settings version',
    async (name) => {
      const cache = caches().find(([n]) => n === name)![1];
      let compared = 0;
      for (const teamId of [DEMO, GEN]) {
        const ref = f.reference.team(teamId);
        for (const [, ids] of selections(ref)) {
          for (const request of REQUESTS) {
            const team = await cache.team(teamId);
            const posts = postsOf(team, ids);
            await cache.rows(team, posts);
            for (const settings of [ref.settings, { scoreVersion: 1 as const, engagementWeight: 0 }]) {
              const expected = computeAnalysis({
                team: ref,
                posts: postsOf(ref, ids),
                filter: compileFilters(request.filters, ref),
                settings,
                include: request.include,
              });
              const actual = computeAnalysis({
                team,
                posts,
                filter: compileFilters(request.filters, team),
                settings,
                include: request.include,
              });
              expect(actual).toEqual(expected);
              compared++;
            }
          }
        }
      }
      expect(compared).toBe(2 * 4 * REQUESTS.length * 2);
    },
  );

  it('AI search matches the same comments (the encoder search, vectors computed or read from comment_embeddings)', async () => {
    // A stand-in encoder: what is compared is the read side against the fold, not meaning.
    const encoder = new HashingEncoder();
    const model = new EncoderSearchModel(async () => encoder);
    const embeddings = new CommentEmbeddings(f.store, async () => encoder);
    for (const [, cache] of caches()) {
      const ref = f.reference.team(GEN);
      const ids = [...ref.posts]
        .reverse()
        .slice(0, 40)
        .map((p) => p.id);
      const team = await cache.team(GEN);
      const posts = postsOf(team, ids);
      await cache.rows(team, posts);
      const search = { query: 'too expensive battery', mode: 'ai' as const, minRelevance: 0.2 };
      const expected = await searchMatchedRows(model, ref, postsOf(ref, ids), search);
      const actual = await searchMatchedRows(model, team, posts, search, { embeddings });
      const idsOf = (t: TeamIndex, rows: Set<number>) => [...rows].map((r) => t.commentIds[r]).sort();
      expect(idsOf(team, actual)).toEqual(idsOf(ref, expected));
      expect(actual.size).toBeGreaterThan(0);
    }
  });

  it('samples: post samples and analysis samples, every source, bucket and emotion filters and a second page', async () => {
    const queries: Partial<SampleInput>[] = [
      {},
      { buckets: { sentiment: ['negative', 'lean_negative'] as BucketKey[] } },
      { emotions: ['anger', 'sadness'] },
      { buckets: { relevance: ['positive'] as BucketKey[] }, emotions: ['joy'] },
    ];
    for (const [, cache] of caches()) {
      for (const teamId of [DEMO, GEN]) {
        const ref = f.reference.team(teamId);
        const page = async (ids: string[], filters: CommentFilters | null, input: Partial<SampleInput>) => {
          const out = [];
          for (const t of [ref, await cache.team(teamId)]) {
            const posts = postsOf(t, ids);
            if (t !== ref) await cache.rows(t, posts);
            const version = input.version ?? t.settings.scoreVersion;
            const base: SampleInput = {
              team: t,
              details: t.details,
              posts,
              baseFilter: filters ? compileFilters(filters, t) : NO_COMMENT_FILTER,
              searchMatch: null,
              buckets: {},
              version,
              source: 'all',
              seed: fnv1a32(`golden:${ids.join(',')}`),
              after: null,
              limit: 25,
              ...input,
            };
            const first = drawSample(base);
            const second = first.last ? drawSample({ ...base, after: first.last }) : null;
            const context = {
              version,
              bucketFiltered: false,
              analysisFiltered: filters !== null,
              searched: false,
            };
            const view = (p: ReturnType<typeof drawSample>) => ({
              rows: p.rows.map((r, i) => commentRow(t, t.details, r, p.flags[i], context)),
              total: p.total,
              remaining: p.remaining,
              last: p.last,
              groups: p.groups.map((g) => ({
                type: g.type,
                postId: g.post.id,
                index: g.index,
                count: g.commentCount,
                ids: g.sampleRows.map((r) => t.commentIds[r]),
              })),
            });
            out.push({ first: view(first), second: second ? view(second) : null });
          }
          expect(out[1]).toEqual(out[0]);
          return out[0];
        };
        const newest = [...ref.posts].reverse().map((p) => p.id);
        for (const postId of newest.filter((_, i) => i % 17 === 0)) {
          const post = ref.postsById.get(postId)!;
          if (!post.scored) continue;
          await page([postId], null, { version: post.scored.settings.scoreVersion });
        }
        for (const source of ['all', 'notables', 'content'] as const) {
          for (const q of queries) {
            const shown = await page(newest.slice(0, 100), { minLikes: 1 }, { source, ...q });
            if (source === 'all' && Object.keys(q).length === 0) expect(shown.first.rows).toHaveLength(25);
            if (source === 'all' && q.emotions && !q.buckets) {
              expect(shown.first.rows.length).toBeGreaterThan(0);
              for (const row of shown.first.rows) expect(q.emotions).toContain(row.emotion);
            }
          }
        }
      }
    }
  });

  it('keeps a team from another team: nothing of tm_other in tm_gen', async () => {
    const team = await f.cold.team(GEN);
    await f.cold.rows(team, team.posts);
    expect(team.commentIds.some((id) => id?.startsWith('po_other'))).toBe(false);
    expect(team.vocab.lookup('zebracorn')).toBe(-1);
    expect(f.tiny.stats().teams).toBeLessThanOrEqual(1);
  });
});
