import type { Emotion, FetchedComment, ScoredComment } from '@analyst/contracts';
import { GatewayModule } from '@analyst/gateway';
import { normalizeLink } from '@analyst/links';
import {
  EVENT_STORE,
  FixedClock,
  ProjectionService,
  type EventStore,
  type NewEvent,
} from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';
import { AnalysisJobWorker, AnalysisModule } from '@analyst/analysis';
import type { SearchModel } from '@analyst/comment-index';

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

/** A comment to seed: scores all five dimensions with `s` unless given one by one. */
export interface SeedComment {
  body?: string;
  s?: number;
  scores?: Partial<Record<'sentiment' | 'content' | 'topic' | 'relevance' | 'consensus', number | null>>;
  likes?: number;
  reply?: boolean;
  creator?: boolean;
  hidden?: boolean;
  author?: string;
  postedAt?: string;
  /** The scorer's emotion; left out of the scored comment when not given (as scores before 2.1.0). */
  emotion?: Emotion | null;
}

export interface SeedPost {
  id: string;
  platform?: string;
  username?: string;
  postedAt: string;
  collectionIds?: string[];
  tags?: string[];
  comments?: SeedComment[];
  /** Leave the post in `processing` (fetched, not scored). */
  unscored?: boolean;
  /** The fetch failed: the post ends `failed`, never scored. */
  failed?: boolean;
  topics?: { title: string; description: string | null }[];
}

let seq = 0;
const meta = (teamId: string, at: string) => ({
  correlationId: 'seed',
  causationId: null,
  teamId,
  occurredAt: at,
});

/**
 * Boots gateway + analysis and seeds ingest's events straight into the store (the shapes of
 * `@analyst/domain-content`'s post and collection events), so hand-computed comment scores reach
 * the analysis routes without the fetch/score pipeline.
 */
export async function analysisTest(
  options: { searchModel?: SearchModel; env?: Record<string, string>; modules?: unknown[] } = {},
) {
  const clock = new FixedClock(START);
  const t: TestApp = await createTestApp({
    modules: [
      GatewayModule,
      AnalysisModule.forRoot({ searchModel: options.searchModel }),
      ...(options.modules ?? []),
    ],
    clock,
    env: options.env,
  });
  const events = t.app.get<EventStore>(EVENT_STORE);
  const append = (stream: string, list: { type: string; data: unknown }[], teamId: string) =>
    events.append(
      stream,
      list.map((e): NewEvent => ({
        id: `ev_seed_${++seq}`,
        type: e.type,
        schemaVersion: 1,
        data: e.data,
        metadata: meta(teamId, START),
      })),
      'any',
    );

  const fixture = {
    t,
    clock,
    events,
    append,
    jobs: t.app.get(AnalysisJobWorker),
    async team(plan = 'scale'): Promise<{ teamId: string; key: string }> {
      const created = await t.admin('POST', '/admin/v1/teams', { name: 'Analysis team', plan });
      if (created.status !== 201) throw new Error(`team: ${created.status} ${created.raw}`);
      const teamId = created.body.data.id as string;
      // The tests send far more analyses than a minute's budget allows.
      const big = { perMinute: 100_000, perDay: 1_000_000 };
      const raised = await t.admin('PUT', `/admin/v1/teams/${teamId}/limits`, {
        limits: { global: big, analysis_create: big, analysis_search: big },
      });
      if (raised.status !== 200) throw new Error(`limits: ${raised.status} ${raised.raw}`);
      const key = await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: 'k', scopes: ALL_SCOPES });
      if (key.status !== 201) throw new Error(`key: ${key.status} ${key.raw}`);
      return { teamId, key: key.body.data.key };
    },
    async collection(
      teamId: string,
      id: string,
      type: 'campaign' | 'group',
      parentId: string | null = null,
      name = id,
    ) {
      await append(
        `collection-${id}`,
        [
          {
            type: 'CollectionCreated',
            data: { collectionId: id, teamId, name, type, parentId, createdVia: 'api', at: START },
          },
        ],
        teamId,
      );
    },
    async posts(teamId: string, posts: SeedPost[]) {
      for (const p of posts) {
        const link = `https://www.youtube.com/watch?v=${p.id}`;
        const comments: FetchedComment[] = (p.comments ?? []).map((c, i) => ({
          id: `${p.id}-c${i}`,
          parentId: c.reply ? `${p.id}-c0` : null,
          authorUsername: c.author ?? `user${i}`,
          authorIsCreator: c.creator ?? false,
          body: c.body ?? `comment ${i}`,
          likes: c.likes ?? 0,
          postedAt: c.postedAt ?? p.postedAt,
          hidden: c.hidden ?? false,
        }));
        const scored: ScoredComment[] = (p.comments ?? []).map((c, i) => ({
          commentId: `${p.id}-c${i}`,
          scores: {
            sentiment: c.s ?? null,
            content: c.s ?? null,
            topic: c.s ?? null,
            relevance: c.s ?? null,
            consensus: c.s ?? null,
            ...c.scores,
          },
          topicIndex: null,
          messageIndex: null,
          ...(c.emotion === undefined ? {} : { emotion: c.emotion }),
          scorer: { name: 'seed', version: '1' },
        }));
        const list: { type: string; data: unknown }[] = [
          {
            type: 'PostCreated',
            data: {
              postId: p.id,
              teamId,
              link,
              normalizedLink: normalizeLink(link) ?? link,
              platform: p.platform ?? 'youtube',
              collectionIds: p.collectionIds ?? [],
              tags: p.tags ?? [],
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
              chunks: 1,
              at: START,
              post: {
                link,
                platform: p.platform ?? 'youtube',
                creator: { username: p.username ?? 'creator', name: 'Creator' },
                title: `Post ${p.id}`,
                caption: 'caption',
                description: null,
                engagement: { views: 100, likes: 10, comments: comments.length, shares: 1 },
                postedAt: p.postedAt,
                postType: 'video',
                thumbnail: null,
              },
            },
          },
          { type: 'CommentsFetched', data: { postId: p.id, dataVersion: 1, chunk: 0, comments } },
        ];
        if (p.failed) {
          list.splice(1, list.length - 1, {
            type: 'PostFetchFailed',
            data: {
              postId: p.id,
              dataVersion: 1,
              jobId: 'cj_seed',
              reservationId: null,
              outcome: 'failed',
              reason: 'seeded failure',
              at: START,
            },
          });
        } else if (!p.unscored) {
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
                topics: p.topics ?? [{ title: 'Battery', description: null }],
                messages: [],
                totalComments: comments.length,
                at: START,
              },
            },
          );
        }
        await append(`post-${p.id}`, list, teamId);
      }
    },
    post: (url: string, key: string, body: unknown) =>
      t.request('POST', `/analyst/v1${url}`, { headers: { authorization: `Bearer ${key}` }, body }),
    get: (url: string, key?: string) =>
      t.request('GET', `/analyst/v1${url}`, {
        headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
      }),
    /** Resolves once the service's read models have applied every event stored now. */
    projected: async () => t.app.get(ProjectionService).waitFor(await events.headPosition()),
    close: () => t.close(),
  };
  return fixture;
}
