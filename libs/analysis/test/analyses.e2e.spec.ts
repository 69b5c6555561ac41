import { EVENT_STORE, READ_STORE, type EventStore, type ReadStore } from '@analyst/platform';
import { ANALYSES, type AnalysisDoc } from '@analyst/analyses-read';
import { analysisTest, type SeedComment } from './analysis-fixture';
import { runJobRollingUp } from './run-job-rolling-up';

const day = (d: number) => `2026-03-0${d}T10:00:00.000Z`;
const many = (n: number, c: SeedComment): SeedComment[] => Array.from({ length: n }, () => ({ ...c }));

describe('POST /analyses and reads (issue 7)', () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;
  let key: string;
  let teamId: string;

  beforeAll(async () => {
    f = await analysisTest();
    ({ teamId, key } = await f.team());
    await f.collection(teamId, 'col_camp', 'campaign');
    await f.collection(teamId, 'col_group', 'group', 'col_camp');
    await f.posts(teamId, [
      {
        id: 'p1',
        postedAt: day(1),
        collectionIds: ['col_camp'],
        tags: ['launch'],
        username: 'alpha',
        comments: [
          { s: 9, body: 'love the battery 😍', likes: 10, author: 'ann' },
          { s: 2, body: 'battery died fast?', author: 'bob' },
          { s: 6, body: 'ok I guess', reply: true, author: 'cat' },
          { s: 9, body: 'hidden rant', hidden: true },
        ],
      },
      {
        id: 'p2',
        postedAt: day(2),
        collectionIds: ['col_group'],
        tags: ['Review'],
        platform: 'tiktok',
        username: 'beta',
        comments: [
          { s: 8, body: 'great camera', author: 'dan', creator: true },
          { s: 4, body: 'too pricey for me', author: 'eve' },
        ],
      },
      { id: 'p3', postedAt: day(3), username: 'alpha', comments: many(4, { s: 1, body: 'awful' }) },
      { id: 'p4', postedAt: day(4), unscored: true, comments: [{ s: 5 }] },
    ]);
  });
  afterAll(() => f.close());

  it('201 ready snapshot over a campaign with its nested group; every field; shareOfComments = matched/total', async () => {
    const res = await f.post('/analyses', key, {
      selection: { collectionId: 'col_camp' },
      filters: { sentiment: ['positive'] },
      include: ['wordCloud', 'emojiCloud'],
    });
    expect(res.status).toBe(201);
    const a = res.body.data;
    expect(a).toMatchObject({
      kind: 'snapshot',
      status: 'ready',
      postCount: 2,
      postIds: ['p2', 'p1'],
      selectionTruncated: false,
      comments: { path: `/analyses/${a.id}/comments` },
    });
    expect(a.id).toMatch(/^an_/);
    expect(a.selection).toEqual({ type: 'collection', collectionId: 'col_camp', status: 'complete' });
    expect(a.filters).toEqual({ sentiment: ['positive'] });
    // visible comments: p1 3 (one hidden), p2 2 → 5; positive (>= 7.5): 9 (p1), 8 (p2)
    expect(a.scope).toEqual({
      postCount: 2,
      totalComments: 5,
      matchedComments: 2,
      matchedPosts: 2,
      shareOfComments: 0.4,
      shareOfContent: 1,
    });
    // v3: the 9 has the most likes (weight 5), the 8 none (weight 1): sentiment (45 + 8) / 6 = 8.83;
    // relevance and consensus unweighted (9 + 8) / 2 = 8.5; service 0.6 × 8.833 + 0.2 × 8.5 × 2 = 8.7
    expect(a.commentAnalysis.scores).toEqual({
      scoreVersion: 3,
      serviceScore: 8.7,
      sentiment: 8.83,
      relevance: 8.5,
      consensus: 8.5,
      content: 8.83,
      topic: 8.83,
    });
    expect(a.commentAnalysis.mix.sentiment).toEqual({
      positivePercent: 100,
      leanPositivePercent: 0,
      neutralPercent: 0,
      leanNegativePercent: 0,
      negativePercent: 0,
    });
    expect(a.commentAnalysis.totalComments).toBe(2);
    expect(a.commentAnalysis.completeness).toBe('full');
    expect(a.commentAnalysis.notableComments).toEqual([
      { postId: 'p1', commentId: 'p1-c0' },
      { postId: 'p2', commentId: 'p2-c0' },
    ]);
    expect(a.commentAnalysis.emojiCloud).toEqual([
      { emoji: '😍', value: 1, avgSentiment: 9, sentimentCategory: 'positive', mentionPercentage: 50 },
    ]);
    expect(a.commentAnalysis.wordCloud.map((w: any) => w.text)).toEqual(
      expect.arrayContaining(['love', 'battery', 'great', 'camera']),
    );
    expect(a.content).toMatchObject({
      postCount: 2,
      postsTruncated: false,
      topics: [{ title: 'Battery', description: null, postCount: 2 }],
      scores: { content: 8.83, topic: 8.83 },
    });
    expect(a.content.posts).toEqual([
      { id: 'p2', platform: 'tiktok', creator: { username: 'beta' }, matchedComments: 1 },
      { id: 'p1', platform: 'youtube', creator: { username: 'alpha' }, matchedComments: 1 },
    ]);
    expect(res.body.meta).toEqual({ status: 'ready' });
    const again = await f.get(`/analyses/${a.id}`, key);
    expect(again.body.data).toEqual(a);
  });

  it('keeps the result in the log only: the read model holds a summary, GET reads the AnalysisCompleted event, the list shows the summary', async () => {
    const res = await f.post('/analyses', key, { selection: { collectionId: 'col_camp' } });
    expect(res.status).toBe(201);
    const a = res.body.data;
    // The create answers without waiting for the read models (issue 38): wait for them here.
    await f.projected();
    const stored = await f.t.app
      .get<ReadStore>(READ_STORE)
      .collection<AnalysisDoc>(ANALYSES)
      .findOne({ _id: a.id });
    expect(stored).not.toBeNull();
    expect(stored!.result).toBeUndefined();
    expect(stored!.resultSummary).toEqual({
      matchedComments: a.scope.matchedComments,
      serviceScore: a.commentAnalysis.scores.serviceScore,
    });
    const completed = (await f.events.readStream(`analysis-${a.id}`)).filter(
      (e) => e.type === 'AnalysisCompleted',
    );
    expect(completed).toHaveLength(1);
    expect((completed[0].data as { result: { commentAnalysis: unknown } }).result.commentAnalysis).toEqual(
      a.commentAnalysis,
    );
    const again = await f.get(`/analyses/${a.id}`, key);
    expect(again.body.data).toEqual(a);
    const listed = (await f.get('/analyses?limit=100', key)).body.data.find(
      (row: { id: string }) => row.id === a.id,
    );
    expect(listed).toMatchObject({
      matchedComments: a.scope.matchedComments,
      serviceScore: a.commentAnalysis.scores.serviceScore,
    });
  });

  it('GET /analyses/{id} answers from the analysis stream, not the read model: the same body without its document; 404 for another team and an unknown id', async () => {
    const res = await f.post('/analyses', key, { selection: { postIds: ['p1', 'p2'] } });
    expect(res.status).toBe(201);
    const a = res.body.data;
    await f.projected();
    const removed = await f.t.app
      .get<ReadStore>(READ_STORE)
      .collection<AnalysisDoc>(ANALYSES)
      .deleteMany({ _id: a.id });
    expect(removed).toBe(1);
    const again = await f.get(`/analyses/${a.id}`, key);
    expect([again.status, again.body.data]).toEqual([200, a]);
    const stranger = await f.team();
    const foreign = await f.get(`/analyses/${a.id}`, stranger.key);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'analysis_not_found']);
    const unknown = await f.get('/analyses/an_doesnotexist', key);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'analysis_not_found']);
  });

  it.each<[string, unknown, unknown, number, number]>([
    ['post filters (account)', { posts: { account: '@alpha' } }, undefined, 2, 7],
    [
      'post filters (platform list, tag case-insensitive)',
      { posts: { platform: ['tiktok'], tag: '#review' } },
      undefined,
      1,
      2,
    ],
    ['collection + filters', { collectionId: 'col_camp', posts: { platform: 'youtube' } }, undefined, 1, 3],
    ['explicit ids', { postIds: ['p1', 'p3'] }, undefined, 2, 7],
    ['status all takes the unscored post too', { posts: { status: 'all' } }, undefined, 4, 9],
    ['keywords any', { postIds: ['p1', 'p2', 'p3'] }, { keywords: ['battery', 'camera'] }, 3, 9],
    ['keywords all', { postIds: ['p1', 'p2'] }, { keywords: ['battery', 'love'], keywordMatch: 'all' }, 2, 5],
    ['excludeKeywords', { postIds: ['p1', 'p2'] }, { excludeKeywords: ['battery'] }, 2, 5],
    ['usernames with @', { postIds: ['p1', 'p2'] }, { usernames: ['@ann', 'eve'] }, 2, 5],
    ['excludeUsernames', { postIds: ['p1', 'p2'] }, { excludeUsernames: ['ann'] }, 2, 5],
    ['creator only', { postIds: ['p1', 'p2'] }, { creator: 'only' }, 2, 5],
    ['replies exclude', { postIds: ['p1'] }, { replies: 'exclude' }, 1, 3],
    ['questions only', { postIds: ['p1'] }, { questions: 'only' }, 1, 3],
    ['emoji only', { postIds: ['p1'] }, { emoji: 'only' }, 1, 3],
    ['mentions only', { postIds: ['p1'] }, { mentions: 'only' }, 1, 3],
    ['minLikes', { postIds: ['p1'] }, { minLikes: 5 }, 1, 3],
    ['relevance label on_topic', { postIds: ['p1', 'p2'] }, { relevance: ['on_topic'] }, 2, 5],
    ['consensus label fighting', { postIds: ['p1', 'p2', 'p3'] }, { consensus: ['fighting'] }, 3, 9],
    ['since/until', { postIds: ['p1', 'p2', 'p3'] }, { since: day(2), until: day(2) }, 3, 9],
  ])('selection and filter: %s', async (_name, selection, filters, postCount, totalComments) => {
    const res = await f.post('/analyses', key, { selection, ...(filters ? { filters } : {}) });
    expect(res.status).toBe(201);
    expect(res.body.data.postCount).toBe(postCount);
    expect(res.body.data.scope.totalComments).toBe(totalComments);
    const matched = res.body.data.scope.matchedComments;
    expect(res.body.data.scope.shareOfComments).toBeCloseTo(matched / totalComments, 10);
    expect(res.body.data.commentAnalysis.totalComments).toBe(matched);
  });

  it('filter matches: exact counts per filter', async () => {
    const matched = async (filters: unknown) =>
      (await f.post('/analyses', key, { selection: { postIds: ['p1', 'p2', 'p3'] }, filters })).body.data
        .scope.matchedComments;
    expect(await matched({ keywords: ['battery'] })).toBe(2);
    expect(await matched({ keywords: ['battery', 'love'], keywordMatch: 'all' })).toBe(1);
    expect(await matched({ usernames: ['@ann', 'eve'] })).toBe(2);
    expect(await matched({ creator: 'only' })).toBe(1);
    expect(await matched({ replies: 'only' })).toBe(1);
    expect(await matched({ questions: 'only' })).toBe(1);
    expect(await matched({ emoji: 'only' })).toBe(1);
    expect(await matched({ minLikes: 5 })).toBe(1);
    expect(await matched({ sentiment: ['negative'] })).toBe(5); // 2 in p1, 1 x4 in p3
    expect(await matched({ consensus: ['fighting'] })).toBe(5);
    expect(await matched({ since: day(2), until: day(2) })).toBe(2);
    const keyword = await f.post('/analyses', key, {
      selection: { postIds: ['p1', 'p2'] },
      search: { query: 'camera', mode: 'keyword' },
    });
    expect(keyword.status).toBe(201);
    // Keyword search stays a synchronous snapshot; only AI search is kind search.
    expect(keyword.body.data).toMatchObject({
      kind: 'snapshot',
      status: 'ready',
      filters: { keywords: ['camera'] },
    });
    expect(keyword.body.data.scope.matchedComments).toBe(1);
  });

  it('keyword and username terms are NFC-normalised and capped at 100 characters; a search query at 500', async () => {
    const decomposed = 'cafe\u0301';
    const res = await f.post('/analyses', key, {
      selection: { postIds: ['p1'] },
      filters: { keywords: [decomposed] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.filters.keywords).toEqual(['caf\u00e9']);
    const search = await f.post('/analyses', key, {
      selection: { postIds: ['p1'] },
      search: { query: decomposed, mode: 'keyword' },
    });
    expect(search.body.data.filters.keywords).toEqual(['caf\u00e9']);
    for (const body of [
      { selection: { postIds: ['p1'] }, filters: { keywords: ['x'.repeat(101)] } },
      { selection: { postIds: ['p1'] }, filters: { usernames: ['u'.repeat(1_000_000)] } },
      { selection: { postIds: ['p1'] }, search: { query: 'q'.repeat(101), mode: 'keyword' } },
      { selection: { postIds: ['p1'] }, search: { query: 'q '.repeat(300), mode: 'ai' } },
    ]) {
      const refused = await f.post('/analyses', key, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/at most (100|500) characters/);
    }
  });

  it.each<[string, unknown]>([
    ['empty selection', { selection: { posts: { account: 'nobody' } } }],
    ['no selection', {}],
    ['postIds combined', { selection: { postIds: ['p1'], collectionId: 'col_camp' } }],
    ['unknown bucket', { selection: { postIds: ['p1'] }, filters: { sentiment: ['great'] } }],
    ['unknown filter', { selection: { postIds: ['p1'] }, filters: { mood: 'x' } }],
    ['bad presence', { selection: { postIds: ['p1'] }, filters: { creator: 'yes' } }],
    [
      'too many keywords',
      {
        selection: { postIds: ['p1'] },
        filters: { keywords: Array.from({ length: 51 }, (_, i) => `k${i}`) },
      },
    ],
    ['bad include', { selection: { postIds: ['p1'] }, include: ['topics'] }],
    ['bad date', { selection: { postIds: ['p1'] }, filters: { since: 'yesterday' } }],
    ['negative minLikes', { selection: { postIds: ['p1'] }, filters: { minLikes: -1 } }],
  ])('400 for %s, nothing created', async (_name, body) => {
    const before = (await f.get('/analyses?limit=100', key)).body.data.length;
    const res = await f.post('/analyses', key, body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error.message).toBe('string');
    expect((await f.get('/analyses?limit=100', key)).body.data.length).toBe(before);
  });

  it('changing the team scoreVersion changes the next analysis without rescoring', async () => {
    const body = { selection: { postIds: ['p1'] } };
    const v3 = (await f.post('/analyses', key, body)).body.data.commentAnalysis.scores;
    await f.t.admin('PUT', `/admin/v1/teams/${teamId}/analysis-settings`, {
      scoreVersion: 1,
      engagementWeight: 1,
    });
    const v1 = (await f.post('/analyses', key, body)).body.data.commentAnalysis.scores;
    // v1: plain mean of 9, 2, 6 = 5.67. v3: weights 5 (most likes), 1, and the reply 1 (under its
    // pool cap 0.5 × 6): (45 + 2 + 6) / 7 = 7.57, but 1 of 3 below 3 caps it at 7 - 1.5 × (1/3 - 0.25) / 0.25 = 6.5
    expect(v1.scoreVersion).toBe(1);
    expect(v1.sentiment).toBe(5.67);
    expect(v3.scoreVersion).toBe(3);
    expect(v3.sentiment).toBe(6.5);
    await f.t.admin('PUT', `/admin/v1/teams/${teamId}/analysis-settings`, {
      scoreVersion: 3,
      engagementWeight: 1,
    });
  });

  it('GET /posts/{id}/analysis is materialized at scoring; metrics 404 until scored', async () => {
    const res = await f.get('/posts/p1/analysis', key);
    expect(res.status).toBe(200);
    expect(res.body.data.commentAnalysis.totalComments).toBe(3);
    expect(res.body.data.commentAnalysis.scores.scoreVersion).toBe(3);
    expect(res.body.data.comments).toEqual({ path: '/posts/p1/analysis/comments' });
    const pending = await f.get('/posts/p4/analysis', key);
    expect(pending.body.data.commentAnalysis).toMatchObject({
      totalComments: 0,
      completeness: 'unavailable',
      notableComments: [],
      wordCloud: [],
    });
    const notYet = await f.get('/posts/p4/metrics', key);
    expect([notYet.status, notYet.body.error.code]).toEqual([404, 'metrics_not_available']);
    expect(notYet.body.error.message).toBe('metrics of post p4 are not available until scoring finishes');
    // A post whose fetch failed will never be scored: the message says so instead of "until scoring finishes".
    const other = await f.team();
    await f.posts(other.teamId, [{ id: 'pf1', postedAt: day(1), failed: true }]);
    const never = await f.get('/posts/pf1/metrics', other.key);
    expect([never.status, never.body.error.code]).toEqual([404, 'metrics_not_available']);
    expect(never.body.error.message).toBe(
      'metrics of post pf1 are not available because it was never scored (status failed); a refresh that scores it makes them available',
    );
    const metrics = await f.get('/posts/p1/metrics', key);
    expect(metrics.body.data.daily).toHaveLength(1);
    expect(metrics.body.data.totals.comments).toBe(3);
    expect(Object.keys(metrics.body.data.totals.mix).sort()).toEqual([
      'consensus',
      'content',
      'relevance',
      'sentiment',
      'topic',
    ]);
    expect((await f.get('/posts/nope/analysis', key)).status).toBe(404);
  });

  it('GET /posts: default complete, status widening, filters, meta.filters, cursor paging, 400s', async () => {
    const ids = async (q: string) => (await f.get(`/posts${q}`, key)).body.data.map((p: any) => p.id);
    expect(await ids('')).toEqual(['p3', 'p2', 'p1']);
    expect(await ids('?status=all')).toEqual(['p4', 'p3', 'p2', 'p1']);
    expect(await ids('?status=pending')).toEqual(['p4']);
    expect(await ids('?platform=tiktok,youtube&account=alpha')).toEqual(['p3', 'p1']);
    expect(await ids('?tag=%23LAUNCH')).toEqual(['p1']);
    expect(await ids(`?posted_since=${day(2)}&posted_until=${day(3)}`)).toEqual(['p3', 'p2']);
    expect(await ids('?collection_id=col_camp')).toEqual(['p2', 'p1']);
    expect(await ids('?min_negative_percent=50')).toEqual(['p3']);
    expect(await ids('?max_negative_percent=40&min_positive_percent=30')).toEqual(['p2', 'p1']);
    expect(await ids('?min_score=5')).toEqual(['p2', 'p1']);
    expect(await ids('?min_score=5e0')).toEqual(['p2', 'p1']); // a JSON number, as the document's type: number says
    expect(await ids('?link=https://www.youtube.com/watch?v=p2')).toEqual(['p2']);
    const page1 = await f.get('/posts?limit=2&status=all', key);
    expect(page1.body.meta).toMatchObject({ hasMore: true, filters: { status: 'all' } });
    const page2 = await f.get(`/posts?limit=2&status=all&cursor=${page1.body.meta.nextCursor}`, key);
    expect(page2.body.data.map((p: any) => p.id)).toEqual(['p2', 'p1']);
    expect(page2.body.meta.hasMore).toBe(false);
    // A bare date is its whole UTC day: posted_until=2026-03-02 includes p2 (posted 10:00 that day).
    expect(await ids('?posted_since=2026-03-02&posted_until=2026-03-02')).toEqual(['p2']);
    for (const bad of [
      'posted_since=2026-02-30',
      'posted_until=2026-04-31',
      'updated_since=2026-02-29',
      'posted_since=soon',
      'min_score=11',
      'min_score=8&max_score=2',
      'min_neutral_percent=70&max_neutral_percent=10',
      'limit=0',
      'limit=101',
      'status=done',
      'cursor=zzz',
      'limit=0x10',
      'limit=1e2',
      'limit=%2B5',
      'limit=1.0',
      'limit=%205',
      'min_score=0x5',
      'min_score=%2B5',
      'min_score=Infinity',
      'limit=2&limit=3',
    ]) {
      const res = await f.get(`/posts?${bad}`, key);
      expect([bad, res.status]).toEqual([bad, 400]);
    }
  });

  it('one rule for query strings on every route: an undeclared or empty parameter is 400 invalid_request naming it', async () => {
    for (const [url, message] of [
      ['/posts?limit=', 'query parameter "limit" is empty'],
      [
        '/posts?colour=red',
        'unknown query parameter "colour": /analyst/v1/posts takes limit, cursor, status,',
      ],
      ['/collections?limit=5', 'unknown query parameter "limit": /analyst/v1/collections takes teamId'],
      ['/analyses?kind=', 'query parameter "kind" is empty'],
    ] as const) {
      const res = await f.get(url, key);
      expect([url, res.status, res.body.error.code]).toEqual([url, 400, 'invalid_request']);
      expect(res.body.error.message).toContain(message);
    }
  });

  it('checks the query only after authentication: no key is 401, and a refused query is still counted (rate headers on the 400)', async () => {
    const anonymous = await f.get('/posts?colour=red');
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'missing_api_key']);
    const refused = await f.get('/posts?colour=red', key);
    expect(refused.status).toBe(400);
    expect(Number(refused.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(Number(refused.headers['x-ratelimit-remaining'])).toBeLessThan(
      Number(refused.headers['x-ratelimit-limit']),
    );
  });

  it('post-list cursors are sealed and bound to the route, team, filters and limit: anything else is 400 invalid_cursor', async () => {
    const page1 = await f.get('/posts?limit=1&status=all', key);
    const cursor = page1.body.meta.nextCursor as string;
    expect(page1.body.data.map((p: any) => p.id)).toEqual(['p4']);
    expect(
      (await f.get(`/posts?limit=1&status=all&cursor=${cursor}`, key)).body.data.map((p: any) => p.id),
    ).toEqual(['p3']);
    // The same page always yields the same cursor.
    expect((await f.get('/posts?limit=1&status=all', key)).body.meta.nextCursor).toBe(cursor);
    // The old unsigned form, a forged position, an edited token: refused, never a silent restart.
    const forged = Buffer.from(JSON.stringify({ t: 0, id: 'p9' })).toString('base64url');
    const edited = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
    const refusals: [string, string][] = [
      [`/posts?limit=1&status=all&cursor=${forged}`, 'not a cursor of a post list'],
      [`/posts?limit=1&status=all&cursor=${edited}`, 'not a cursor of a post list'],
      [`/posts?limit=1&status=complete&cursor=${cursor}`, 'other filters'],
      [`/posts?limit=2&status=all&cursor=${cursor}`, 'limit 1'],
      [`/collections/col_camp/posts?limit=1&status=all&cursor=${cursor}`, 'another post list'],
    ];
    for (const [url, why] of refusals) {
      const res = await f.get(url, key);
      expect([url, res.status, res.body.error.code]).toEqual([url, 400, 'invalid_cursor']);
      expect(res.body.error.message).toContain(why);
    }
    // Another team's key with this team's cursor: same route, filters and limit, still refused.
    const stranger = await f.team();
    const foreign = await f.get(`/posts?limit=1&status=all&cursor=${cursor}`, stranger.key);
    expect([foreign.status, foreign.body.error.code]).toEqual([400, 'invalid_cursor']);
    expect(foreign.body.error.message).toContain('another post list');
  });

  it('collections: list, one, posts of a campaign include nested groups', async () => {
    const list = await f.get('/collections', key);
    expect(list.body.data.map((c: any) => [c.id, c.type, c.parentId, c.postCount])).toEqual(
      expect.arrayContaining([
        ['col_camp', 'campaign', null, 2],
        ['col_group', 'group', 'col_camp', 1],
      ]),
    );
    expect((await f.get('/collections/col_group', key)).body.data).toMatchObject({
      id: 'col_group',
      postCount: 1,
    });
    const posts = await f.get('/collections/col_camp/posts', key);
    expect(posts.body.data.map((p: any) => p.id)).toEqual(['p2', 'p1']);
    expect(posts.body.meta.filters).toMatchObject({ collectionId: 'col_camp', status: 'complete' });
    expect((await f.get('/collections/col_none', key)).status).toBe(404);
  });

  it('202 for an AI search: queued → running (phase, percent) → ready, with Location and Retry-After', async () => {
    await f.jobs.stop();
    const res = await f.post('/analyses', key, {
      selection: { postIds: ['p1', 'p2', 'p3'] },
      search: { query: 'battery' },
    });
    expect(res.status).toBe(202);
    const id = res.body.data.id;
    expect(res.headers.location).toBe(`/analyst/v1/analyses/${id}`);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.body.data).toMatchObject({
      kind: 'search',
      status: 'queued',
      pollAfterMs: 3000,
      progress: { phase: 'queued', percent: 0 },
    });
    expect(res.body.meta).toEqual({ status: 'queued', pollAfterMs: 3000 });
    let seen: any;
    await runJobRollingUp(f.t.app, id, async () => {
      seen = (await f.get(`/analyses/${id}`, key)).body;
    });
    expect(seen.data).toMatchObject({
      status: 'running',
      progress: { phase: 'rolling_up', percent: 90 },
      pollAfterMs: 3000,
    });
    const done = await f.get(`/analyses/${id}`, key);
    expect(done.body.data.status).toBe('ready');
    expect(done.body.data.progress).toBeUndefined();
    // "battery" occurs in two p1 comments
    expect(done.body.data.scope).toMatchObject({ totalComments: 9, matchedComments: 2, matchedPosts: 1 });
    f.jobs.start();
  });

  it('lists newest first with kind filter, including reports; expiry after 7 days is 404', async () => {
    const report = await f.t.admin('POST', `/admin/v1/teams/${teamId}/reports`, {
      campaignId: 'col_camp',
      title: 'Launch recap',
      summary: 'People love the battery.',
    });
    expect(report.status).toBe(201);
    expect(report.body.data).toMatchObject({ kind: 'report', postCount: 2 });
    const reports = await f.get('/analyses?kind=report', key);
    expect(reports.body.data.map((r: any) => [r.kind, r.title])).toEqual([['report', 'Launch recap']]);
    const searches = await f.get('/analyses?kind=search&limit=1', key);
    expect(searches.body.data).toHaveLength(1);
    expect(searches.body.data[0].kind).toBe('search');
    expect((await f.get('/analyses?kind=weird', key)).status).toBe(400);
    const snap = (await f.post('/analyses', key, { selection: { postIds: ['p1'] } })).body.data.id;
    f.clock.advance(7 * 24 * 3600 * 1000);
    expect((await f.get(`/analyses/${snap}`, key)).status).toBe(404);
    expect((await f.get('/analyses', key)).body.data.map((r: any) => r.kind)).toEqual(['report']);
  });

  it('saved analyses are sanitized; GET /insights returns the saved payload', async () => {
    const saved = await f.t.admin('POST', `/admin/v1/teams/${teamId}/saved-analyses`, {
      name: 'Q1',
      kind: 'snapshot',
      payload: { score: 7 },
      shareToken: 'tok',
      inviteEmails: ['a@b.c'],
    });
    expect(saved.status).toBe(201);
    const list = await f.get('/saved-analyses', key);
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body.data)).not.toMatch(/tok|a@b\.c|payload/);
    const insight = await f.get(`/insights?snapshot_id=${saved.body.data.id}`, key);
    expect(insight.body.data).toMatchObject({ name: 'Q1', insights: { score: 7 } });
    expect((await f.get('/insights', key)).status).toBe(400);
    // An unknown team is 404 and writes nothing (the log's head does not move).
    const events = f.t.app.get<EventStore>(EVENT_STORE);
    const head = await events.headPosition();
    const ghost = await f.t.admin('POST', '/admin/v1/teams/tm_nope/saved-analyses', { name: 'ghost' });
    expect([ghost.status, ghost.body.error.code]).toEqual([404, 'team_not_found']);
    expect(await events.headPosition()).toBe(head);
  });
});

describe('normalized filters: links as the content routes store them, calendar dates, empty lists', () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;
  let key: string;
  beforeAll(async () => {
    f = await analysisTest();
    ({ key } = await f.team().then(async (t) => {
      // Two videos whose ids differ only in case are two posts; youtu.be and www forms name the same one.
      await f.posts(t.teamId, [
        {
          id: 'teamBvid001',
          postedAt: day(1),
          tags: ['Launch'],
          comments: [
            { s: 9, author: 'ann' },
            { s: 3, author: 'bob' },
          ],
        },
        { id: 'TEAMBVID001', postedAt: day(2), comments: [{ s: 5, author: 'cat' }] },
      ]);
      return t;
    }));
  });
  afterAll(() => f.close());

  it('GET /posts?link= finds a post by any form of its URL, case-sensitive in the video id, and echoes the stored form', async () => {
    const byLink = async (link: string) => (await f.get(`/posts?link=${encodeURIComponent(link)}`, key)).body;
    const short = await byLink('https://youtu.be/teamBvid001');
    expect(short.data.map((p: any) => p.id)).toEqual(['teamBvid001']);
    expect(short.meta.filters.link).toEqual(['https://youtube.com/watch?v=teamBvid001']);
    expect(
      (await byLink('HTTPS://WWW.YOUTUBE.COM/watch?v=TEAMBVID001&t=30')).data.map((p: any) => p.id),
    ).toEqual(['TEAMBVID001']);
  });

  it('POST /analyses echoes selection.posts normalized, and selects by the short link too', async () => {
    const res = await f.post('/analyses', key, {
      selection: {
        posts: { link: 'https://youtu.be/teamBvid001', tag: '#LAUNCH', posted_since: '2026-03-01' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.postIds).toEqual(['teamBvid001']);
    expect(res.body.data.selection).toEqual({
      type: 'posts',
      posts: {
        link: ['https://youtube.com/watch?v=teamBvid001'],
        tag: ['launch'],
        posted_since: '2026-03-01T00:00:00.000Z',
      },
      status: 'complete',
    });
  });

  it('400 for dates the calendar lacks, in comment filters and in selection.posts; nothing is created', async () => {
    const before = (await f.get('/analyses', key)).body.data.length;
    for (const body of [
      { selection: { posts: {} }, filters: { since: '2026-02-30' } },
      { selection: { posts: {} }, filters: { until: '2026-04-31T10:00:00Z' } },
      { selection: { posts: { posted_since: '2026-02-29' } } },
    ]) {
      const res = await f.post('/analyses', key, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/since|until/);
      expect(res.body.error.message).toContain('on the calendar');
    }
    expect((await f.get('/analyses', key)).body.data).toHaveLength(before);
  });

  it('empty or blank term lists filter nothing and are not echoed', async () => {
    const all = (await f.post('/analyses', key, { selection: { posts: {} } })).body.data.scope
      .matchedComments;
    expect(all).toBe(3);
    for (const filters of [
      { usernames: [''] },
      { usernames: [] },
      { usernames: ['@'] },
      { excludeUsernames: [' '] },
      { keywords: [''] },
      { sentiment: [] },
    ]) {
      const res = await f.post('/analyses', key, { selection: { posts: {} }, filters });
      expect([
        JSON.stringify(filters),
        res.status,
        res.body.data.scope.matchedComments,
        res.body.data.filters,
      ]).toEqual([JSON.stringify(filters), 201, all, {}]);
    }
    // A bare until date is its whole day.
    const day2 = await f.post('/analyses', key, {
      selection: { posts: {} },
      filters: { since: '2026-03-02', until: '2026-03-02' },
    });
    expect(day2.body.data.filters).toEqual({
      since: '2026-03-02T00:00:00.000Z',
      until: '2026-03-02T23:59:59.999Z',
    });
  });
});

describe('an Enterprise key acting on a sub-team', () => {
  it('gets a Location and comments.path that carry teamId, so following them with the same key works', async () => {
    const f = await analysisTest();
    try {
      const parent = await f.team('enterprise');
      const sub = await f.t.admin('POST', '/admin/v1/teams', {
        name: 'Sub brand',
        plan: 'enterprise',
        parentTeamId: parent.teamId,
      });
      const subId = sub.body.data.id as string;
      await f.posts(subId, [
        {
          id: 's1',
          postedAt: day(1),
          comments: [
            { s: 9, body: 'battery fine' },
            { s: 2, body: 'meh' },
          ],
        },
      ]);
      await f.jobs.stop();
      const res = await f.post(`/analyses?teamId=${subId}`, parent.key, {
        selection: { postIds: ['s1'] },
        search: { query: 'battery' },
      });
      expect(res.status).toBe(202);
      const id = res.body.data.id;
      expect(res.headers.location).toBe(`/analyst/v1/analyses/${id}?teamId=${subId}`);
      expect(res.body.data.comments.path).toBe(`/analyses/${id}/comments?teamId=${subId}`);
      await f.jobs.drain();
      const polled = await f.t.request('GET', res.headers.location as string, {
        headers: { authorization: `Bearer ${parent.key}` },
      });
      expect([polled.status, polled.body.data.status]).toEqual([200, 'ready']);
      const post = await f.get(`/posts/s1/analysis?teamId=${subId}`, parent.key);
      expect(post.body.data.comments.path).toBe(`/posts/s1/analysis/comments?teamId=${subId}`);
      // The key's own team: no query added.
      const own = await f.post('/analyses', parent.key, {
        selection: { posts: { status: 'all' } },
        search: { query: 'x' },
      });
      expect(own.status).toBe(400); // the parent team has no posts: empty selection
      await f.posts(parent.teamId, [{ id: 'o1', postedAt: day(1), comments: [{ s: 5 }] }]);
      const ownRes = await f.post('/analyses', parent.key, {
        selection: { postIds: ['o1'] },
        search: { query: 'x' },
      });
      expect(ownRes.headers.location).toBe(`/analyst/v1/analyses/${ownRes.body.data.id}`);
      expect(ownRes.body.data.comments.path).toBe(`/analyses/${ownRes.body.data.id}/comments`);
    } finally {
      f.jobs.start();
      await f.close();
    }
  }, 60_000);
});
