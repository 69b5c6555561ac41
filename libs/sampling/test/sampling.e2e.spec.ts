import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommentScores } from '@analyst/contracts';
import type { TestResponse } from '@analyst/testing';
import { samplingTest, START, type ErrorBody, type SampleBody, type SeedPost } from './sampling-fixture';
import { runJobRollingUp } from '../../analysis/test/run-job-rolling-up';

const all = (x: number): CommentScores => ({
  sentiment: x,
  content: x,
  topic: x,
  relevance: x,
  consensus: x,
});
const ids = (body: SampleBody): string[] => body.data.map((r) => r.commentId);
const sorted = (xs: string[]): string[] => [...xs].sort();

/** Hand-made posts: every comment's bucket and flags below follow from its scores and likes. */
const POSTS: SeedPost[] = [
  {
    id: 'q1',
    postedAt: '2026-03-05T10:00:00.000Z',
    topics: [
      { title: 'Battery', description: 'battery life' },
      { title: 'Camera', description: null },
    ],
    messages: [{ topic: 'Battery', stance: 'lasts all day' }],
    comments: [
      {
        body: 'battery lasts forever, love it',
        scores: all(9),
        likes: 100,
        topicIndex: 0,
        messageIndex: 0,
        author: '@Ann',
        language: 'en',
      }, // notable
      { body: 'worst purchase ever', scores: all(2), likes: 50 }, // engaged, off topic
      { body: 'camera is fine', scores: { ...all(6), relevance: null }, topicIndex: 1 }, // relevance unscored
      { body: 'meh', scores: all(4), reply: true },
      { body: 'great camera', scores: all(8) },
      { body: 'the camera zoom is nice', scores: all(6), topicIndex: 1 },
      { body: 'hidden battery rant', scores: all(1), likes: 500, hidden: true, topicIndex: 0 },
      { body: 'pretty good', scores: { ...all(7.6), consensus: null } },
      { body: 'it is ok', scores: all(5.2) },
      { body: 'not for me', scores: all(3) },
    ],
  },
  {
    id: 'q2',
    postedAt: '2026-03-06T10:00:00.000Z',
    topics: [{ title: 'Battery', description: null }],
    comments: [
      { body: 'battery charge holds', scores: all(9), likes: 10 }, // notable (the post's floor is 1 like)
      { body: 'battery died after a week', scores: all(2), topicIndex: 0 },
      { body: 'shipping was slow', scores: all(6) },
      { body: 'love the colour', scores: all(9) },
    ],
  },
  { id: 'q3', comments: [{ scores: all(5) }], unscored: true },
];

describe('comment samples (issue 8)', () => {
  let f: Awaited<ReturnType<typeof samplingTest>>;
  let key: string;
  let teamId: string;
  let other: { teamId: string; key: string };
  let analysisId: string;

  beforeAll(async () => {
    f = await samplingTest();
    ({ teamId, key } = await f.team());
    await f.posts(teamId, POSTS);
    other = await f.team();
    await f.posts(other.teamId, [{ id: 'r1', comments: [{ scores: all(9) }, { scores: all(1) }] }]);
    const created = await f.post('/analyses', key, { selection: { postIds: ['q1', 'q2'] } });
    expect(created.status).toBe(201);
    analysisId = created.body.data.id;
  });
  afterAll(() => f.close());

  describe('rows and meta', () => {
    it('defaults: source all, limit 25, every visible comment, notable first; a row carries every field', async () => {
      const res = await f.get(`/posts/q1/analysis/comments`, key);
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({
        postId: 'q1',
        dataVersion: 1,
        source: 'all',
        scoreVersion: 3,
        limit: 25,
        filters: {},
        total: 9,
        offset: 0,
        hasMore: false,
        nextCursor: null,
      });
      expect(sorted(ids(res.body))).toEqual([
        'q1-c0',
        'q1-c1',
        'q1-c2',
        'q1-c3',
        'q1-c4',
        'q1-c5',
        'q1-c7',
        'q1-c8',
        'q1-c9',
      ]);
      expect(res.body.data[0]).toEqual({
        commentId: 'q1-c0',
        postId: 'q1',
        authorUsername: 'Ann',
        body: 'battery lasts forever, love it',
        likes: 100,
        postedAt: '2026-03-05T10:00:00.000Z',
        isReply: false,
        topic: 'Battery',
        message: { topic: 'Battery', stance: 'lasts all day' },
        language: 'en',
        emotion: null,
        scores: all(9),
        buckets: {
          sentiment: 'positive',
          content: 'positive',
          topic: 'positive',
          relevance: 'positive',
          consensus: 'positive',
        },
        sampleReasons: ['high_engagement', 'high_relevance', 'topic_match', 'message_match'],
      });
      const byId = new Map(res.body.data.map((r) => [r.commentId, r]));
      expect(byId.get('q1-c3')).toMatchObject({
        isReply: true,
        sampleReasons: ['random_sample'],
        buckets: { sentiment: 'lean_negative', relevance: 'lean_negative' },
      });
      expect(byId.get('q1-c1')!.sampleReasons).toEqual(['high_engagement']);
      // The language the scorer stored; null where it stored none.
      expect(byId.get('q1-c1')!.language).toBeNull();
      expect(byId.get('q1-c4')!.sampleReasons).toEqual(['high_relevance']);
      // v3 sentiment has no neutral bar: 5.2 is lean_positive there, neutral on content and topic.
      expect(byId.get('q1-c8')!.buckets).toEqual({
        sentiment: 'lean_positive',
        content: 'neutral',
        topic: 'neutral',
        relevance: 'lean_positive',
        consensus: 'lean_positive',
      });
      expect(byId.get('q1-c2')).toMatchObject({
        scores: { relevance: null },
        buckets: { relevance: null, sentiment: 'lean_positive' },
      });
    });

    it('meta.groups: creator topics and messages with commentCount and sampleCommentIds; postId only over several posts', async () => {
      const one = await f.get(`/posts/q1/analysis/comments`, key);
      expect(
        one.body.meta.groups.map((g) => ({ ...g, sampleCommentIds: sorted(g.sampleCommentIds) })),
      ).toEqual([
        {
          type: 'topic',
          title: 'Camera',
          description: null,
          commentCount: 2,
          sampleCommentIds: ['q1-c2', 'q1-c5'],
        },
        {
          type: 'topic',
          title: 'Battery',
          description: 'battery life',
          commentCount: 1,
          sampleCommentIds: ['q1-c0'],
        },
        {
          type: 'message',
          topic: 'Battery',
          stance: 'lasts all day',
          commentCount: 1,
          sampleCommentIds: ['q1-c0'],
        },
      ]);
      const many = await f.get(`/analyses/${analysisId}/comments?limit=2`, key);
      expect(many.body.meta.groups.map((g) => [g.type, g.postId, g.commentCount])).toEqual([
        ['topic', 'q1', 2],
        ['topic', 'q2', 1],
        ['topic', 'q1', 1],
        ['message', 'q1', 1],
      ]);
      // Groups describe the whole sample, not the page, and narrow with the filters.
      const negative = await f.get(`/analyses/${analysisId}/comments?sentiment=negative`, key);
      expect(negative.body.meta.groups).toEqual([
        {
          type: 'topic',
          postId: 'q2',
          title: 'Battery',
          description: null,
          commentCount: 1,
          sampleCommentIds: ['q2-c1'],
        },
      ]);
    });

    it('the analysis route samples across every post of the analysis; total equals the analysis matchedComments', async () => {
      const analysis = await f.analysis(analysisId, key);
      const { rows, pages } = await f.pages(`/analyses/${analysisId}/comments?limit=5`, key);
      expect(rows).toHaveLength(analysis.body.data.scope.matchedComments);
      expect(pages[0].meta).toMatchObject({ analysisId, total: 13, offset: 0, hasMore: true, limit: 5 });
      expect(pages.map((p) => p.meta.offset)).toEqual([0, 5, 10]);
      expect(new Set(rows.map((r) => r.postId))).toEqual(new Set(['q1', 'q2']));
      // notables lead: both posts' notable comments, most notable first.
      expect(rows.slice(0, 2).map((r) => r.commentId)).toEqual(['q1-c0', 'q2-c0']);
    });
  });

  describe('sources', () => {
    it('notables: high engagement and high relevance; content: on a creator topic or message; all: every matched comment (the default)', async () => {
      const notables = await f.get(`/analyses/${analysisId}/comments?source=notables`, key);
      expect(ids(notables.body)).toEqual(['q1-c0', 'q2-c0']);
      expect(
        notables.body.data.every(
          (r) => r.sampleReasons.includes('high_engagement') && r.sampleReasons.includes('high_relevance'),
        ),
      ).toBe(true);
      const content = await f.get(`/analyses/${analysisId}/comments?source=content`, key);
      expect(sorted(ids(content.body))).toEqual(['q1-c0', 'q1-c2', 'q1-c5', 'q2-c1']);
      expect(content.body.data.every((r) => r.topic !== null || r.message !== null)).toBe(true);
      const everything = await f.get(`/analyses/${analysisId}/comments?source=all&limit=100`, key);
      const byDefault = await f.get(`/analyses/${analysisId}/comments?limit=100`, key);
      expect(byDefault.body).toEqual(everything.body);
      const union = new Set([...ids(notables.body), ...ids(content.body)]);
      expect([...union].every((id) => ids(everything.body).includes(id))).toBe(true);
      expect(everything.body.meta.total).toBe(13);
    });
  });

  describe('bucket filters', () => {
    it('values in one parameter combine with OR (comma-separated or repeated), parameters with AND', async () => {
      const comma = await f.get(`/posts/q1/analysis/comments?sentiment=positive,negative`, key);
      const repeated = await f.get(`/posts/q1/analysis/comments?sentiment=positive&sentiment=negative`, key);
      expect(sorted(ids(comma.body))).toEqual(['q1-c0', 'q1-c1', 'q1-c4', 'q1-c7']);
      expect(repeated.body).toEqual(comma.body);
      expect(comma.body.meta.filters).toEqual({ sentiment: ['positive', 'negative'] });
      const and = await f.get(
        `/posts/q1/analysis/comments?sentiment=negative,positive&relevance=on_topic`,
        key,
      );
      expect(sorted(ids(and.body))).toEqual(['q1-c0', 'q1-c4', 'q1-c7']);
      expect(and.body.meta.filters).toEqual({ sentiment: ['positive', 'negative'], relevance: ['positive'] });
      expect(and.body.data.every((r) => r.sampleReasons.includes('bucket_filter'))).toBe(true);
    });

    it('relevance and consensus labels mean their bucket keys and are echoed as keys', async () => {
      const label = await f.get(`/posts/q1/analysis/comments?relevance=on_topic`, key);
      const bucket = await f.get(`/posts/q1/analysis/comments?relevance=positive`, key);
      expect(label.body).toEqual(bucket.body);
      const relevant = await f.get(`/posts/q1/analysis/comments?relevance=relevant`, key);
      expect(sorted(ids(relevant.body))).toEqual(['q1-c5', 'q1-c8']);
      const general = await f.get(`/posts/q1/analysis/comments?relevance=general,off_topic`, key);
      expect(sorted(ids(general.body))).toEqual(['q1-c1', 'q1-c3', 'q1-c9']);
      expect(general.body.meta.filters).toEqual({ relevance: ['lean_negative', 'negative'] });
      const fighting = await f.get(`/posts/q1/analysis/comments?consensus=fighting`, key);
      expect(ids(fighting.body)).toEqual(['q1-c1']);
      const agreeing = await f.get(`/posts/q1/analysis/comments?consensus=agreeing`, key);
      expect(sorted(ids(agreeing.body))).toEqual(['q1-c0', 'q1-c4']);
      const supportive = await f.get(`/posts/q1/analysis/comments?content=Supportive`, key);
      expect(supportive.body.meta.filters).toEqual({ content: ['positive'] });
      expect(sorted(ids(supportive.body))).toEqual(['q1-c0', 'q1-c4', 'q1-c7']);
    });

    it('unscored comments are excluded only where their dimension is filtered', async () => {
      const every = 'positive,lean_positive,neutral,lean_negative,negative';
      const relevance = await f.get(`/posts/q1/analysis/comments?relevance=${every}`, key);
      expect(relevance.body.meta.total).toBe(8);
      expect(ids(relevance.body)).not.toContain('q1-c2');
      const consensus = await f.get(`/posts/q1/analysis/comments?consensus=${every}`, key);
      expect(ids(consensus.body)).not.toContain('q1-c7');
      expect(ids(consensus.body)).toContain('q1-c2');
      const sentiment = await f.get(`/posts/q1/analysis/comments?sentiment=${every}`, key);
      expect(sentiment.body.meta.total).toBe(9);
    });

    it('an empty or unknown query parameter is 400 invalid_request on both routes (the one rule of every route)', async () => {
      for (const url of [`/posts/q1/analysis/comments`, `/analyses/${analysisId}/comments`]) {
        const empty = await f.get(`${url}?topic=`, key);
        expect([empty.status, empty.body.error.code, empty.body.error.message]).toEqual([
          400,
          'invalid_request',
          'query parameter "topic" is empty; give it a value or leave it out',
        ]);
        const unknown = await f.get(`${url}?sentimant=positive`, key);
        expect([unknown.status, unknown.body.error.code]).toEqual([400, 'invalid_request']);
        expect(unknown.body.error.message).toContain('unknown query parameter "sentimant"');
        expect(unknown.body.error.message).toContain(
          'takes cursor, limit, source, sentiment, content, topic, relevance, consensus, emotion, teamId',
        );
      }
    });

    it.each([
      ['sentiment=great', 'sentiment: "great" is not a bucket of sentiment'],
      ['relevance=agreeing', 'relevance: "agreeing" is not a bucket of relevance'],
      ['sentiment=on_topic', 'sentiment: "on_topic" is not a bucket of sentiment'],
      ['consensus=positive,nope', 'consensus: "nope" is not a bucket of consensus'],
    ])('400 invalid_bucket for %s on both routes', async (query, message) => {
      for (const url of [
        `/posts/q1/analysis/comments?${query}`,
        `/analyses/${analysisId}/comments?${query}`,
      ]) {
        const res = await f.get(url, key);
        expect([res.status, res.body.error.code]).toEqual([400, 'invalid_bucket']);
        expect(res.body.error.message).toContain(message);
      }
    });

    it.each([
      ['source=everything', 'source must be one of notables, content, all'],
      ['limit=0', 'limit must be an integer from 1 to 100'],
      ['limit=101', 'limit must be an integer from 1 to 100'],
      ['limit=ten', 'limit must be an integer from 1 to 100'],
      ['mood=happy', 'unknown query parameter "mood"'],
      ['cursor=not-a-cursor', 'invalid cursor'],
    ])('400 for %s', async (query, message) => {
      const res = await f.get(`/posts/q1/analysis/comments?${query}`, key);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    });

    it('limit 100 and limit 1 are accepted', async () => {
      expect((await f.get(`/posts/q1/analysis/comments?limit=100`, key)).body.data).toHaveLength(9);
      expect((await f.get(`/posts/q1/analysis/comments?limit=1`, key)).body.data).toHaveLength(1);
    });
  });

  describe('cursor', () => {
    it('is opaque, pages without overlap, and only works for the query, scope and team that made it', async () => {
      const first = await f.get(
        `/posts/q1/analysis/comments?limit=4&sentiment=positive,lean_positive,lean_negative,negative`,
        key,
      );
      const cursor = first.body.meta.nextCursor!;
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain('q1');
      const second = await f.get(
        `/posts/q1/analysis/comments?limit=4&sentiment=positive,lean_positive,lean_negative,negative&cursor=${cursor}`,
        key,
      );
      expect(second.status).toBe(200);
      expect(ids(second.body).some((id) => ids(first.body).includes(id))).toBe(false);
      // The limit may change between pages; the filters may not.
      expect(
        (
          await f.get(
            `/posts/q1/analysis/comments?limit=50&sentiment=lean_negative,negative,positive,lean_positive&cursor=${cursor}`,
            key,
          )
        ).status,
      ).toBe(200);
      const otherFilters = await f.get(
        `/posts/q1/analysis/comments?limit=4&sentiment=positive&cursor=${cursor}`,
        key,
      );
      expect([otherFilters.status, otherFilters.body.error.code]).toEqual([400, 'invalid_cursor']);
      expect(otherFilters.body.error.message).toContain('another source or other filters');
      const otherSource = await f.get(
        `/posts/q1/analysis/comments?limit=4&source=content&sentiment=positive,lean_positive,lean_negative,negative&cursor=${cursor}`,
        key,
      );
      expect(otherSource.status).toBe(400);
      const otherPost = await f.get(
        `/posts/q2/analysis/comments?limit=4&sentiment=positive,lean_positive,lean_negative,negative&cursor=${cursor}`,
        key,
      );
      expect([otherPost.status, otherPost.body.error.message]).toEqual([
        400,
        expect.stringContaining('another analysis or post'),
      ]);
      const analysisRoute = await f.get(
        `/analyses/${analysisId}/comments?limit=4&sentiment=positive,lean_positive,lean_negative,negative&cursor=${cursor}`,
        key,
      );
      expect(analysisRoute.status).toBe(400);
      const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
      expect(
        (
          await f.get(
            `/posts/q1/analysis/comments?limit=4&sentiment=positive,lean_positive,lean_negative,negative&cursor=${tampered}`,
            key,
          )
        ).status,
      ).toBe(400);
    });
  });

  describe('analysis filters and search apply first', () => {
    it("the analysis's own filters narrow every sample; query filters AND with them", async () => {
      const created = await f.post('/analyses', key, {
        selection: { postIds: ['q1', 'q2'] },
        filters: { replies: 'exclude', sentiment: ['positive', 'lean_positive'] },
      });
      const id = created.body.data.id;
      const { rows } = await f.pages(`/analyses/${id}/comments?limit=3`, key);
      expect(rows).toHaveLength(created.body.data.scope.matchedComments);
      expect(sorted(rows.map((r) => r.commentId))).toEqual([
        'q1-c0',
        'q1-c2',
        'q1-c4',
        'q1-c5',
        'q1-c7',
        'q1-c8',
        'q2-c0',
        'q2-c2',
        'q2-c3',
      ]);
      expect(rows.every((r) => r.sampleReasons.includes('analysis_filter'))).toBe(true);
      const none = await f.get(`/analyses/${id}/comments?sentiment=negative`, key);
      expect([none.status, none.body.data, none.body.meta.total, none.body.meta.nextCursor]).toEqual([
        200,
        [],
        0,
        null,
      ]);
      const narrowed = await f.get(`/analyses/${id}/comments?sentiment=lean_positive`, key);
      expect(sorted(ids(narrowed.body))).toEqual(['q1-c2', 'q1-c5', 'q1-c8', 'q2-c2']);
    });

    it('keyword search matches are the sample', async () => {
      const created = await f.post('/analyses', key, {
        selection: { postIds: ['q1', 'q2'] },
        search: { query: 'battery', mode: 'keyword' },
      });
      expect(created.status).toBe(201);
      const res = await f.get(`/analyses/${created.body.data.id}/comments`, key);
      expect(sorted(ids(res.body))).toEqual(['q1-c0', 'q2-c0', 'q2-c1']);
      expect(
        res.body.data.every(
          (r) => r.sampleReasons.includes('search_match') && !r.sampleReasons.includes('analysis_filter'),
        ),
      ).toBe(true);
    });

    it('AI search: the matches the job recorded are the sample; total equals the analysis matchedComments', async () => {
      const created = await f.post('/analyses', key, {
        selection: { postIds: ['q1', 'q2'] },
        search: { query: 'battery', mode: 'ai' },
      });
      expect(created.status).toBe(202);
      await f.jobs.drain();
      const analysis = await f.analysis(created.body.data.id, key);
      expect(analysis.body.data.status).toBe('ready');
      const stream = await f.events.readStream(`analysis-${created.body.data.id}`);
      const recorded = stream
        .filter((e) => e.type === 'AnalysisSearchMatched')
        .flatMap((e) => (e.data as { commentIds: string[] }).commentIds);
      expect(recorded).toHaveLength(analysis.body.data.scope.matchedComments);
      const res = await f.get(`/analyses/${created.body.data.id}/comments?limit=100`, key);
      expect(res.body.meta.total).toBe(analysis.body.data.scope.matchedComments);
      expect(res.body.meta.total).toBeGreaterThan(0);
      expect(sorted(ids(res.body))).toEqual(sorted(recorded));
      expect(
        res.body.data.every((r) => /battery|charge/.test(r.body) && r.sampleReasons.includes('search_match')),
      ).toBe(true);
    });

    it('AI search: a sample follows the recorded matches, not what the search model would answer now; without a record it searches again', async () => {
      const search = (id: string, extra: { type: string; data: unknown }[]) => [
        {
          type: 'AnalysisCreated',
          data: {
            analysisId: id,
            teamId,
            kind: 'search',
            selection: { type: 'postIds', postIds: ['q1', 'q2'] },
            filters: null,
            search: { query: 'battery', mode: 'ai', minRelevance: 0.82 },
            include: [],
            postIds: ['q1', 'q2'],
            postCount: 2,
            selectionTruncated: false,
            settings: { scoreVersion: 3, engagementWeight: 1 },
            createdAt: START,
            expiresAt: '2026-03-17T12:00:00.000Z',
          },
        },
        {
          type: 'AnalysisStarted',
          data: { analysisId: id, phase: 'loading_comments', percent: 0, at: START },
        },
        ...extra,
        { type: 'AnalysisCompleted', data: { analysisId: id, result: {}, at: START } },
      ];
      // The model would match every battery comment; the record says one.
      await f.append(
        'analysis-an_recorded',
        search('an_recorded', [
          {
            type: 'AnalysisSearchMatched',
            data: { analysisId: 'an_recorded', chunk: 0, chunks: 1, commentIds: ['q2-c1'], at: START },
          },
        ]),
        teamId,
      );
      const recorded = await f.get(`/analyses/an_recorded/comments?limit=100`, key);
      expect([recorded.status, ids(recorded.body)]).toEqual([200, ['q2-c1']]);
      // An analysis from before matches were recorded: the local model runs again over the same rows.
      await f.append('analysis-an_unrecorded', search('an_unrecorded', []), teamId);
      const again = await f.get(`/analyses/an_unrecorded/comments?limit=100`, key);
      expect(again.status).toBe(200);
      expect(again.body.meta.total).toBeGreaterThan(1);
      expect(again.body.data.every((r) => /battery|charge/.test(r.body))).toBe(true);
    });
  });

  describe('hidden comments', () => {
    it('never appear: not in any source, bucket, group or page', async () => {
      const everywhere = [
        `/posts/q1/analysis/comments?limit=100`,
        `/posts/q1/analysis/comments?source=notables`,
        `/posts/q1/analysis/comments?source=content`,
        `/posts/q1/analysis/comments?sentiment=negative`,
        `/analyses/${analysisId}/comments?limit=100`,
      ];
      for (const url of everywhere) {
        const res = await f.get(url, key);
        expect(res.raw).not.toContain('q1-c6');
        expect(res.raw).not.toContain('hidden battery rant');
      }
      const negative = await f.get(`/posts/q1/analysis/comments?sentiment=negative`, key);
      expect(ids(negative.body)).toEqual(['q1-c1']);
    });
  });

  describe('errors', () => {
    it('404 for unknown analyses, other teams’ analyses and posts, and posts never scored', async () => {
      const cases: [string, string, string][] = [
        [`/analyses/an_missing/comments`, key, 'analysis_not_found'],
        [`/analyses/${analysisId}/comments`, other.key, 'analysis_not_found'],
        [`/posts/q1/analysis/comments`, other.key, 'post_not_found'],
        [`/posts/r1/analysis/comments`, key, 'post_not_found'],
        [`/posts/nope/analysis/comments`, key, 'post_not_found'],
        [`/posts/q3/analysis/comments`, key, 'comments_not_available'],
      ];
      for (const [url, k, code] of cases) {
        const res = await f.get(url, k);
        expect([url, res.status, res.body.error.code]).toEqual([url, 404, code]);
        expect(res.body).not.toHaveProperty('data');
      }
      // Another team's post reads exactly like a post that does not exist.
      const foreign = await f.get(`/posts/r1/analysis/comments`, key);
      expect(foreign.body.error.message).toBe('post r1 not found');
      const own = await f.get(`/posts/r1/analysis/comments`, other.key);
      expect(own.body.meta.total).toBe(2);
    });

    it('409 analysis_not_ready (with Retry-After) while queued and while running, then 200 once ready', async () => {
      await f.jobs.stop();
      const created = await f.post('/analyses', key, {
        selection: { postIds: ['q1'] },
        search: { query: 'camera', mode: 'ai' },
      });
      const id = created.body.data.id;
      const queued = await f.get(`/analyses/${id}/comments`, key);
      expect([queued.status, queued.body.error.message, queued.headers['retry-after']]).toEqual([
        409,
        'analysis_not_ready',
        '3',
      ]);
      let running: TestResponse<SampleBody & ErrorBody> | null = null;
      await runJobRollingUp(f.t.app, id, async () => {
        running = await f.get(`/analyses/${id}/comments`, key);
      });
      f.jobs.start();
      expect([running!.status, running!.body.error.message, running!.headers['retry-after']]).toEqual([
        409,
        'analysis_not_ready',
        '3',
      ]);
      const ready = await f.get(`/analyses/${id}/comments`, key);
      expect(ready.status).toBe(200);
      expect(ready.body.data.every((r) => r.body.includes('camera'))).toBe(true);
    });

    it("a report's comments are a sample across the report's posts", async () => {
      await f.append(
        'analysis-an_report',
        [
          {
            type: 'ReportSaved',
            data: {
              analysisId: 'an_report',
              teamId,
              campaignId: 'col_x',
              title: 'Recap',
              summary: 'ok',
              postIds: ['q1', 'q2'],
              savedBy: null,
              at: START,
              expiresAt: null,
            },
          },
        ],
        teamId,
      );
      const report = await f.get(`/analyses/an_report/comments?limit=100`, key);
      expect(report.status).toBe(200);
      const perPost = await Promise.all(
        ['q1', 'q2'].map((id) => f.get(`/posts/${id}/analysis/comments?limit=100`, key)),
      );
      expect(sorted(ids(report.body))).toEqual(sorted(perPost.flatMap((r) => ids(r.body))));
      expect(report.body.meta.total).toBe(perPost[0].body.meta.total + perPost[1].body.meta.total);
    });

    it('409 analysis_failed for a failed analysis; 400 for an analysis over 1,000 posts', async () => {
      const created = (analysisIdOf: string, postIds: string[]) => ({
        type: 'AnalysisCreated',
        data: {
          analysisId: analysisIdOf,
          teamId,
          kind: 'snapshot',
          selection: { type: 'postIds', postIds },
          filters: null,
          search: null,
          include: [],
          postIds,
          postCount: postIds.length,
          selectionTruncated: false,
          settings: { scoreVersion: 3, engagementWeight: 1 },
          createdAt: START,
          expiresAt: '2026-03-17T12:00:00.000Z',
        },
      });
      await f.append(
        'analysis-an_failed',
        [
          created('an_failed', ['q1']),
          {
            type: 'AnalysisFailed',
            data: { analysisId: 'an_failed', message: 'analysis failed: boom', at: START },
          },
        ],
        teamId,
      );
      const failed = await f.get(`/analyses/an_failed/comments`, key);
      expect([failed.status, failed.body.error.message, failed.body.error.code]).toEqual([
        409,
        'analysis_failed',
        'analysis_failed',
      ]);
      const huge = Array.from({ length: 1001 }, (_, i) => (i % 2 === 0 ? 'q1' : `q_missing_${i}`));
      await f.append(
        'analysis-an_huge',
        [
          created('an_huge', huge),
          { type: 'AnalysisCompleted', data: { analysisId: 'an_huge', result: {}, at: START } },
        ],
        teamId,
      );
      const tooBig = await f.get(`/analyses/an_huge/comments`, key);
      expect([tooBig.status, tooBig.body.error.code]).toEqual([400, 'analysis_too_large']);
      expect(tooBig.body.error.message).toContain('1001 posts');
    });

    it('scopes and rate classes come from the gateway: comments:read is needed; classes analysis_comments and comments', async () => {
      const noComments = await f.key(teamId, ['analyses:read', 'posts:read']);
      for (const url of [`/analyses/${analysisId}/comments`, `/posts/q1/analysis/comments`]) {
        const res = await f.get(url, noComments);
        expect([res.status, res.body.error.code]).toEqual([403, 'missing_scope']);
      }
      expect((await f.get(`/analyses/${analysisId}/comments`, key)).headers['x-ratelimit-class']).toBe(
        'analysis_comments',
      );
      expect((await f.get(`/posts/q1/analysis/comments`, key)).headers['x-ratelimit-class']).toBe('comments');
    });
  });

  describe('score versions', () => {
    it('each route keeps the version its analysis was computed with, so bars and samples still agree after the team changes version', async () => {
      const before = await f.get(`/posts/q1/analysis/comments?limit=2`, key);
      await f.scoreVersion(teamId, 2);
      try {
        // The post analysis was materialized under v3 and is never recomputed; its sample stays v3.
        const postAnalysis = (await f.get('/posts/q1/analysis', key)).body.data as unknown as {
          commentAnalysis: { scores: { scoreVersion: number }; mix: { sentiment: Record<string, number> } };
        };
        expect(postAnalysis.commentAnalysis.scores.scoreVersion).toBe(3);
        const all = await f.get(`/posts/q1/analysis/comments?limit=100`, key);
        expect(all.body.meta.scoreVersion).toBe(3);
        const mix = postAnalysis.commentAnalysis.mix.sentiment;
        const fields = {
          positive: 'positivePercent',
          lean_positive: 'leanPositivePercent',
          neutral: 'neutralPercent',
          lean_negative: 'leanNegativePercent',
          negative: 'negativePercent',
        };
        for (const [bucket, field] of Object.entries(fields)) {
          const sample = await f.get(`/posts/q1/analysis/comments?sentiment=${bucket}&limit=100`, key);
          expect([bucket, Math.round((sample.body.meta.total / all.body.meta.total) * 1000) / 10]).toEqual([
            bucket,
            mix[field],
          ]);
        }
        const analysis = await f.get(`/analyses/${analysisId}/comments?sentiment=neutral`, key);
        expect([analysis.body.meta.scoreVersion, analysis.body.meta.total]).toEqual([3, 0]);
        // Cursors of the post's sample keep working: nothing about it changed.
        const next = await f.get(
          `/posts/q1/analysis/comments?limit=2&cursor=${before.body.meta.nextCursor}`,
          key,
        );
        expect(next.status).toBe(200);
      } finally {
        await f.scoreVersion(teamId, 3);
      }
    });
  });

  describe('determinism', () => {
    it('the same analysis and query give the same rows, order and cursors every time', async () => {
      const url = `/analyses/${analysisId}/comments?limit=4`;
      const a = await f.pages(url, key);
      const b = await f.pages(url, key);
      expect(b.pages).toEqual(a.pages);
      // A filtered sample is the unfiltered order with the other comments taken out.
      const filtered = await f.get(
        `/analyses/${analysisId}/comments?sentiment=positive,lean_positive&limit=100`,
        key,
      );
      expect(ids(filtered.body)).toEqual(
        a.rows.map((r) => r.commentId).filter((id) => ids(filtered.body).includes(id)),
      );
    });

    it('expired analyses are 404 (7 days after creation)', async () => {
      f.clock.advance(7 * 24 * 3600 * 1000);
      const res = await f.get(`/analyses/${analysisId}/comments`, key);
      expect([res.status, res.body.error.code]).toEqual([404, 'analysis_not_found']);
    });
  });
});

describe('determinism across a restart', () => {
  it('a new process over the same log returns the same pages, and earlier cursors still work', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'analyst-sampling-'));
    try {
      const first = await samplingTest({ dataDir });
      const { teamId, key } = await first.team();
      await first.posts(teamId, POSTS);
      const id = (await first.post('/analyses', key, { selection: { postIds: ['q1', 'q2'] } })).body.data.id;
      const page1 = await first.get(`/analyses/${id}/comments?limit=3`, key);
      const page2 = await first.get(
        `/analyses/${id}/comments?limit=3&cursor=${page1.body.meta.nextCursor}`,
        key,
      );
      await first.close();

      const second = await samplingTest({ dataDir });
      try {
        expect((await second.get(`/analyses/${id}/comments?limit=3`, key)).body).toEqual(page1.body);
        expect(
          (await second.get(`/analyses/${id}/comments?limit=3&cursor=${page1.body.meta.nextCursor}`, key))
            .body,
        ).toEqual(page2.body);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
