import type {
  CommentScores,
  CreatorMessage,
  CreatorTopic,
  Emotion,
  FetchedComment,
  ScoredComment,
} from '@analyst/contracts';
import { AnalysisJobWorker, AnalysisModule } from '@analyst/analysis';
import { GatewayModule } from '@analyst/gateway';
import { EVENT_STORE, FixedClock, type EventStore, type NewEvent } from '@analyst/platform';
import { createTestApp, type TestApp, type TestResponse } from '@analyst/testing';
import { SamplingModule } from '@analyst/sampling';

export const START = '2026-03-10T12:00:00.000Z';
export const ALL_SCOPES = [
  'analyses:run',
  'analyses:read',
  'comments:read',
  'posts:read',
  'collections:read',
  'team:read',
  'insights:read',
];
export const CURSOR_SECRET = 'sampling-test-internal-secret-0123456789';

export interface SeedComment {
  id?: string;
  body?: string;
  scores: Partial<CommentScores>;
  likes?: number;
  reply?: boolean;
  hidden?: boolean;
  author?: string;
  topicIndex?: number | null;
  messageIndex?: number | null;
  language?: string | null;
  /** The scorer's emotion; left out of the scored comment when not given (as scores before 2.1.0). */
  emotion?: Emotion | null;
}

export interface SeedPost {
  id: string;
  postedAt?: string;
  comments: SeedComment[];
  topics?: CreatorTopic[];
  messages?: CreatorMessage[];
  /** Fetched but never scored. */
  unscored?: boolean;
}

let seq = 0;

/**
 * Gateway + analysis + sampling in one app, with ingest's post events appended straight to the
 * store (the shapes of `@analyst/domain-content`), so hand-chosen scores, topics and hidden flags
 * reach both services without the fetch/score pipeline.
 */
export async function samplingTest(options: { dataDir?: string } = {}) {
  const clock = new FixedClock(START);
  const t: TestApp = await createTestApp({
    modules: [GatewayModule, AnalysisModule, SamplingModule],
    clock,
    dataDir: options.dataDir,
    env: { ANALYST_INTERNAL_SECRET: CURSOR_SECRET },
  });
  const events = t.app.get<EventStore>(EVENT_STORE);
  const append = (stream: string, list: { type: string; data: unknown }[], teamId: string) =>
    events.append(
      stream,
      list.map((e): NewEvent => ({
        id: `ev_sampling_${Date.now()}_${++seq}`,
        type: e.type,
        schemaVersion: 1,
        data: e.data,
        metadata: { correlationId: 'seed', causationId: null, teamId, occurredAt: START },
      })),
      'any',
    );

  const f = {
    t,
    clock,
    events,
    append,
    jobs: t.app.get(AnalysisJobWorker),
    async team(scopes = ALL_SCOPES): Promise<{ teamId: string; key: string }> {
      const created = await t.admin('POST', '/admin/v1/teams', { name: 'Sampling team', plan: 'scale' });
      if (created.status !== 201) throw new Error(`team: ${created.status} ${created.raw}`);
      const teamId = created.body.data.id as string;
      const big = { perMinute: 100_000, perDay: 1_000_000 };
      const limits = {
        global: big,
        analysis_create: big,
        analysis_search: big,
        analysis_comments: big,
        comments: big,
        analysis_read: big,
      };
      const raised = await t.admin('PUT', `/admin/v1/teams/${teamId}/limits`, { limits });
      if (raised.status !== 200) throw new Error(`limits: ${raised.status} ${raised.raw}`);
      return { teamId, key: await f.key(teamId, scopes) };
    },
    async key(teamId: string, scopes = ALL_SCOPES): Promise<string> {
      const key = await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: `k${++seq}`, scopes });
      if (key.status !== 201) throw new Error(`key: ${key.status} ${key.raw}`);
      return key.body.data.key as string;
    },
    async scoreVersion(teamId: string, scoreVersion: 1 | 2 | 3): Promise<void> {
      const res = await t.admin('PUT', `/admin/v1/teams/${teamId}/analysis-settings`, {
        scoreVersion,
        engagementWeight: 1,
      });
      if (res.status !== 200) throw new Error(`settings: ${res.status} ${res.raw}`);
    },
    async posts(teamId: string, posts: SeedPost[]): Promise<void> {
      for (const p of posts) {
        const link = `https://www.youtube.com/watch?v=${p.id}`;
        const postedAt = p.postedAt ?? START;
        const idOf = (c: SeedComment, i: number) => c.id ?? `${p.id}-c${i}`;
        const comments: FetchedComment[] = p.comments.map((c, i) => ({
          id: idOf(c, i),
          parentId: c.reply ? idOf(p.comments[0], 0) : null,
          authorUsername: c.author ?? `User${i}`,
          authorIsCreator: false,
          body: c.body ?? `comment ${i} on ${p.id}`,
          likes: c.likes ?? 0,
          postedAt: new Date(Date.parse(postedAt) + i * 60_000).toISOString(),
          hidden: c.hidden ?? false,
        }));
        const scored: ScoredComment[] = p.comments.map((c, i) => ({
          commentId: idOf(c, i),
          scores: {
            sentiment: null,
            content: null,
            topic: null,
            relevance: null,
            consensus: null,
            ...c.scores,
          },
          topicIndex: c.topicIndex ?? null,
          messageIndex: c.messageIndex ?? null,
          ...(c.language !== undefined ? { language: c.language } : {}),
          ...(c.emotion !== undefined ? { emotion: c.emotion } : {}),
          scorer: { name: 'seed', version: '1' },
        }));
        const list: { type: string; data: unknown }[] = [
          {
            type: 'PostCreated',
            data: {
              postId: p.id,
              teamId,
              link,
              normalizedLink: link,
              platform: 'youtube',
              collectionIds: [],
              tags: [],
              addedVia: 'api',
              addedBy: { id: 'ak_x', name: 'key' },
              isDemo: false,
              dataVersion: 1,
              jobId: 'cj_seed',
              reservationId: null,
              creditSource: 'credit',
              unitCost: 1,
              fullRead: false,
              commentLimit: null,
              requestedAt: START,
            },
          },
          {
            type: 'PostFetched',
            data: {
              postId: p.id,
              dataVersion: 1,
              totalComments: comments.length,
              chunks: 2,
              at: START,
              post: {
                link,
                platform: 'youtube',
                creator: { username: 'creator', name: 'Creator' },
                title: `Post ${p.id}`,
                caption: 'caption',
                description: null,
                engagement: { views: 100, likes: 10, comments: comments.length, shares: 1 },
                postedAt,
                postType: 'video',
                thumbnail: null,
              },
            },
          },
          // Two chunks, as ingest stores them.
          {
            type: 'CommentsFetched',
            data: {
              postId: p.id,
              dataVersion: 1,
              chunk: 0,
              comments: comments.slice(0, Math.ceil(comments.length / 2)),
            },
          },
          {
            type: 'CommentsFetched',
            data: {
              postId: p.id,
              dataVersion: 1,
              chunk: 1,
              comments: comments.slice(Math.ceil(comments.length / 2)),
            },
          },
        ];
        if (!p.unscored) {
          list.push(
            {
              type: 'CommentsScored',
              data: {
                postId: p.id,
                dataVersion: 1,
                chunk: 0,
                scorer: { name: 'seed', version: '1' },
                comments: scored,
              },
            },
            {
              type: 'PostScored',
              data: {
                postId: p.id,
                dataVersion: 1,
                jobId: 'cj_seed',
                reservationId: null,
                scorer: { name: 'seed', version: '1' },
                topics: p.topics ?? [{ title: 'Battery', description: 'battery life' }],
                messages: p.messages ?? [],
                totalComments: comments.length,
                at: START,
              },
            },
          );
        }
        await append(`post-${p.id}`, list, teamId);
      }
    },
    get: <T = SampleBody & ErrorBody>(url: string, key: string) =>
      t.request<T>('GET', `/analyst/v1${url}`, { headers: { authorization: `Bearer ${key}` } }),
    analysis: (id: string, key: string) =>
      t.request<{ data: { status: string; scope: { matchedComments: number } } }>(
        'GET',
        `/analyst/v1/analyses/${id}`,
        { headers: { authorization: `Bearer ${key}` } },
      ),
    post: (url: string, key: string, body: unknown) =>
      t.request('POST', `/analyst/v1${url}`, { headers: { authorization: `Bearer ${key}` }, body }),
    /** Every page of a sample, following `meta.nextCursor`. */
    async pages(url: string, key: string): Promise<{ rows: SampledRow[]; pages: SampleBody[] }> {
      const rows: SampledRow[] = [];
      const pages: SampleBody[] = [];
      let next: string | null = null;
      for (let i = 0; i < 10_000; i++) {
        const sep = url.includes('?') ? '&' : '?';
        const res: TestResponse<SampleBody> = await t.request<SampleBody>(
          'GET',
          `/analyst/v1${next ? `${url}${sep}cursor=${encodeURIComponent(next)}` : url}`,
          { headers: { authorization: `Bearer ${key}` } },
        );
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.raw}`);
        pages.push(res.body);
        rows.push(...res.body.data);
        next = res.body.meta.nextCursor;
        if (!next) return { rows, pages };
      }
      throw new Error('too many pages');
    },
    close: () => t.close(),
  };
  return f;
}

export interface SampledRow {
  commentId: string;
  postId: string;
  authorUsername: string;
  body: string;
  likes: number;
  postedAt: string;
  isReply: boolean;
  topic: string | null;
  message: { topic: string; stance: string } | null;
  language: string | null;
  emotion: Emotion | null;
  scores: Record<string, number | null>;
  buckets: Record<string, string | null>;
  sampleReasons: string[];
}

export interface SampleGroupBody {
  type: 'topic' | 'message';
  postId?: string;
  title?: string;
  topic?: string;
  stance?: string;
  commentCount: number;
  sampleCommentIds: string[];
}

export interface ErrorBody {
  error: { message: string; code?: string };
}

export interface SampleBody {
  data: SampledRow[];
  meta: {
    total: number;
    offset: number;
    hasMore: boolean;
    nextCursor: string | null;
    source: string;
    scoreVersion: number;
    filters: Record<string, string[]>;
    groups: SampleGroupBody[];
  } & Record<string, unknown>;
}

/** A small deterministic generator (mulberry32), so seeded comment sets are the same every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Scores on both sides of every cutoff (7.5, 5.5, 5, 4.5, 3), plus the ends of the scale. */
export const EDGE_SCORES = [1, 2.99, 3, 4, 4.49, 4.5, 4.99, 5, 5.49, 5.5, 6.5, 7.49, 7.5, 9, 10];
