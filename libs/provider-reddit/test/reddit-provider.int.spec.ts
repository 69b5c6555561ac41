import { ProviderUnavailableError } from '@analyst/contracts';
import { TelemetryTally } from '@analyst/provider-core';
import {
  DEEP_PARENTS,
  DEEP_READABLE_ORDER,
  READABLE_ORDER,
  RedditFake,
  T0,
  comment,
  deepThreadPost,
  threadPost,
} from '@analyst/testing';
import { RedditProvider } from '../src';

const NOW = new Date('2026-03-10T12:00:00Z');
const LINK = 'https://reddit.com/comments/abc123';
const UA = 'node:analyst-tests:1.0 (by /u/analyst)';

describe('RedditProvider over HTTP against the fake OAuth API', () => {
  let fake: RedditFake;
  let tally: TelemetryTally;
  let waits: number[];

  const provider = (extra: { clientSecret?: string; timeoutMs?: number } = {}) =>
    new RedditProvider({
      clientId: fake.clientId,
      clientSecret: extra.clientSecret ?? fake.clientSecret,
      userAgent: UA,
      baseUrl: fake.baseUrl,
      tokenUrl: fake.tokenUrl,
      timeoutMs: extra.timeoutMs ?? 2_000,
      retry: { retries: 3, baseMs: 100, maxMs: 1_000 },
      retryEnv: { random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
      telemetry: tally,
      now: () => NOW,
    });

  beforeEach(async () => {
    fake = new RedditFake();
    tally = new TelemetryTally();
    waits = [];
    await fake.start();
  });
  afterEach(() => fake.stop());

  it('reads the post and its whole tree: more nodes expanded, removed and deleted comments left out, replies kept under their parent', async () => {
    fake.addPost(threadPost());
    const result = await provider().fetchPost(
      'https://old.reddit.com/r/berlin/comments/ABC123/rent_in_berlin/',
      { fullRead: true },
    );
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.post).toEqual({
      link: LINK,
      platform: 'reddit',
      creator: { username: 'op_user', name: 'op_user' },
      title: 'Rent in Berlin is out of control',
      caption: 'Rent in Berlin is out of control\n\nPaying 1,400 for 40 m². Is this normal now?',
      description: 'Paying 1,400 for 40 m². Is this normal now?',
      engagement: { views: 0, likes: 2_345, comments: 41, shares: 3 },
      postedAt: '2026-02-25T06:13:20.000Z',
      postType: 'text',
      thumbnail: null,
    });
    expect(result.comments.map((c) => c.id)).toEqual(READABLE_ORDER);
    const parents = Object.fromEntries(result.comments.map((c) => [c.id, c.parentId]));
    expect([
      parents.c0,
      parents.r0,
      parents.n0,
      parents.d0,
      parents.n1,
      parents.r5,
      parents.x0,
      parents.x1,
      parents.c29,
    ]).toEqual([null, 'c0', 'r0', 'n0', 'r0', 'c0', null, null, null]);
    expect(result.comments.find((c) => c.id === 'n1')).toEqual({
      id: 'n1',
      parentId: 'r0',
      authorUsername: 'user_n1',
      authorIsCreator: true,
      body: 'body of n1',
      likes: 2,
      postedAt: '2026-02-25T06:14:20.000Z',
      hidden: false,
    });
    expect(result.comments.find((c) => c.id === 'x1')!.likes).toBe(0); // score -4
    // One token, one /comments call, one morechildren batch of 29 ids (d0, r4, r5, c4..c29).
    expect(Object.fromEntries(fake.calls)).toEqual({
      '/api/v1/access_token': 1,
      '/comments/abc123': 1,
      '/api/morechildren': 1,
    });
    expect([...fake.userAgents]).toEqual([UA]);
    expect(tally.lastRateLimit).toEqual({ remaining: 998, resetSeconds: 420 });
  });

  it('commentLimit caps the first request and skips expansion', async () => {
    fake.addPost(threadPost());
    const result = await provider().fetchPost(LINK, { fullRead: false, commentLimit: 5 });
    expect(result.status === 'ok' && result.comments.map((c) => c.id)).toEqual([
      'c0',
      'r0',
      'n0',
      'n1',
      'r1',
    ]);
    expect(fake.calls.get('/api/morechildren')).toBeUndefined();
  });

  it('expands more than 100 pending ids in batches of at most 100', async () => {
    fake.addPost(threadPost('big001', { comments: Array.from({ length: 250 }, (_, i) => comment(`k${i}`)) }));
    const result = await provider().fetchPost('https://reddit.com/comments/big001', { fullRead: true });
    expect(result.status === 'ok' && result.comments.length).toBe(250);
    expect(fake.calls.get('/api/morechildren')).toBe(3); // 246 pending: 100 + 100 + 46
  });

  it('not found and private communities are unreachable', async () => {
    fake.addPost(threadPost('priv01', { private: true }));
    const p = provider();
    expect(await p.fetchPost('https://reddit.com/comments/gone01', { fullRead: true })).toEqual({
      status: 'unreachable',
      reason: 'reddit /comments/gone01: 404 not found',
    });
    expect(await p.fetchPost('https://reddit.com/comments/priv01', { fullRead: true })).toEqual({
      status: 'unreachable',
      reason: 'reddit /comments/priv01: 403 forbidden (private or banned)',
    });
  });

  it('a 429 holds the post until X-Ratelimit-Reset; a spent window holds without calling', async () => {
    fake.addPost(threadPost());
    fake.faults.add('/comments/abc123', { kind: 'quota' });
    const p = provider();
    expect(await p.fetchPost(LINK, { fullRead: true })).toEqual({
      status: 'holding',
      reason: 'reddit /comments/abc123: 429 rate limited (retry after 2026-03-10T12:07:00.000Z)',
      retryAt: '2026-03-10T12:07:00.000Z',
    });
    const calls = fake.calls.get('/comments/abc123');
    expect(await p.fetchPost(LINK, { fullRead: true })).toEqual({
      status: 'holding',
      reason:
        'reddit: rate-limit window spent (X-Ratelimit-Remaining 0; retry after 2026-03-10T12:07:00.000Z)',
      retryAt: '2026-03-10T12:07:00.000Z',
    });
    expect(fake.calls.get('/comments/abc123')).toBe(calls);
    expect(tally.lastRateLimit).toEqual({ remaining: 0, resetSeconds: 420 });
    expect(Object.fromEntries(tally.errors)).toEqual({ 'reddit quota': 2 });
  });

  it('waits out a short window instead of holding', async () => {
    fake.addPost(threadPost());
    fake.remaining = 1;
    fake.resetSeconds = 1;
    const p = provider();
    await p.fetchPost(LINK, { fullRead: false, commentLimit: 3 }); // spends the last request
    fake.remaining = 1000;
    const again = await p.fetchPost(LINK, { fullRead: false, commentLimit: 3 });
    expect(again.status).toBe('ok');
    expect(waits).toEqual([1000]);
  });

  it('retries 5xx and timeouts with jittered backoff, then fails after the bound', async () => {
    fake.addPost(threadPost());
    fake.faults.add('/comments/abc123', { kind: 'server' }, 2);
    expect((await provider().fetchPost(LINK, { fullRead: true })).status).toBe('ok');
    expect(waits).toEqual([50, 100]);
    waits = [];
    fake.faults.add('/comments/abc123', { kind: 'slow', ms: 300 }, 4);
    expect(await provider({ timeoutMs: 100 }).fetchPost(LINK, { fullRead: true })).toEqual({
      status: 'failed',
      reason: 'GET /comments/abc123: no answer within 100 ms',
    });
    expect(waits).toEqual([50, 100, 200]);
  });

  it('refused credentials fail the post clearly and report unhealthy; a revoked token is renewed once', async () => {
    fake.addPost(threadPost());
    const bad = provider({ clientSecret: 'wrong' });
    expect(await bad.fetchPost(LINK, { fullRead: true })).toEqual({
      status: 'failed',
      reason: 'Reddit refused REDDIT_CLIENT_ID/REDDIT_CLIENT_SECRET at the token endpoint (401)',
    });
    expect(bad.health()).toEqual({
      ready: false,
      detail: 'Reddit refused REDDIT_CLIENT_ID/REDDIT_CLIENT_SECRET at the token endpoint (401)',
    });
    const good = provider();
    expect((await good.fetchPost(LINK, { fullRead: false, commentLimit: 1 })).status).toBe('ok');
    fake.expireTokens();
    expect((await good.fetchPost(LINK, { fullRead: false, commentLimit: 1 })).status).toBe('ok');
    expect(fake.tokensIssued).toBe(2);
    expect(good.health()).toEqual({ ready: true });
  });

  describe('"continue this thread" nodes', () => {
    const DEEP = 'https://reddit.com/comments/deep01';
    const ids = (r: Awaited<ReturnType<RedditProvider['fetchPost']>>): string[] => {
      if (r.status !== 'ok') throw new Error(`${r.status}: ${r.reason}`);
      return r.comments.map((c) => c.id);
    };

    beforeEach(() => {
      fake.continueDepth = 3;
    });

    it('the fake answers a listing and a ?comment= request in the published shape', async () => {
      fake.addPost(deepThreadPost());
      const token = await fetch(fake.tokenUrl, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }).then((r) => r.json() as Promise<{ access_token: string }>);
      const get = (query: string): Promise<any> =>
        fetch(`${fake.baseUrl}/comments/deep01?${query}`, {
          headers: { authorization: `bearer ${token.access_token}` },
        }).then((r) => r.json());
      const [, top] = await get('limit=500');
      const q2 = top.data.children[0].data.replies.data.children[0].data.replies.data.children[0].data;
      expect(q2).toMatchObject({ id: 'q2', parent_id: 't1_q1', depth: 2 });
      expect(q2.replies.data.children).toEqual([
        {
          kind: 'more',
          data: { count: 0, name: 't1__', id: '_', parent_id: 't1_q2', depth: 3, children: [] },
        },
      ]);
      const [post, sub] = await get('comment=q2&limit=500');
      expect(post.data.children[0]).toMatchObject({ kind: 't3', data: { id: 'deep01' } });
      expect(sub.data.children).toHaveLength(1);
      const focal = sub.data.children[0].data;
      expect(focal).toMatchObject({ id: 'q2', parent_id: 't1_q1', depth: 0 });
      const q3 = focal.replies.data.children[0].data;
      expect(q3).toMatchObject({ id: 'q3', parent_id: 't1_q2', depth: 1 });
      expect(q3.replies.data.children.map((t: any) => [t.kind, t.data.id])).toEqual([
        ['t1', 'q4'],
        ['t1', 'w0'],
        ['t1', 'w1'],
        ['t1', 'w2'],
        ['more', 'w3'],
      ]);
      expect(q3.replies.data.children[0].data.replies.data.children[0].data).toEqual({
        count: 0,
        name: 't1__',
        id: '_',
        parent_id: 't1_q4',
        depth: 3,
        children: [],
      });
    });

    it('fullRead follows every one: exact comments, parents across the hops, none twice', async () => {
      fake.addPost(deepThreadPost());
      const result = await provider().fetchPost(DEEP, { fullRead: true });
      expect(ids(result)).toEqual(DEEP_READABLE_ORDER);
      expect(new Set(ids(result)).size).toBe(24);
      const parents = Object.fromEntries(
        (result.status === 'ok' ? result.comments : []).map((c) => [c.id, c.parentId]),
      );
      expect(parents).toEqual(DEEP_PARENTS);
      expect(result.status === 'ok' && result.comments.find((c) => c.id === 'p3')!.authorIsCreator).toBe(
        true,
      );
      // Ids before sub-threads; every sub-thread opened once, by its parent.
      expect(fake.focalRequests).toEqual(['q2', 'p2', 't1', 'q4', 'w4', 'q6']);
      expect(Object.fromEntries(fake.calls)).toEqual({
        '/api/v1/access_token': 1,
        '/comments/deep01': 7,
        '/api/morechildren': 4,
      });
      expect(tally.calls.get('reddit /comments/{id}')).toBe(7);
      expect(tally.lastRateLimit).toEqual({ remaining: 989, resetSeconds: 420 });
    });

    it('the fixture thread: d0 (below the limit) comes through its parent, not morechildren', async () => {
      fake.addPost(threadPost());
      const result = await provider().fetchPost(LINK, { fullRead: true });
      expect(ids(result)).toEqual(READABLE_ORDER);
      expect(result.status === 'ok' && result.comments.find((c) => c.id === 'd0')!.parentId).toBe('n0');
      expect(fake.focalRequests).toEqual(['n0']);
      expect(fake.calls.get('/comments/abc123')).toBe(2);
      expect(fake.calls.get('/api/morechildren')).toBe(1);
    });

    it('commentLimit bounds the hops: a sub-thread is opened only while comments are still wanted', async () => {
      fake.addPost(deepThreadPost());
      expect(ids(await provider().fetchPost(DEEP, { fullRead: false, commentLimit: 12 }))).toEqual([
        'q0',
        'q1',
        'q2',
        'p0',
        'p1',
        'p2',
        's0',
        's1',
        's2',
        's3',
        't0',
        't1',
      ]);
      expect(fake.focalRequests).toEqual([]);
      const result = await provider().fetchPost(DEEP, { fullRead: false, commentLimit: 14 });
      expect(ids(result)).toEqual([
        'q0',
        'q1',
        'q2',
        'q3',
        'q4',
        'w0',
        'w1',
        'w2',
        'w3',
        'w4',
        'p0',
        'p1',
        'p2',
        's0',
      ]);
      expect(result.status === 'ok' && result.comments.find((c) => c.id === 'q3')!.parentId).toBe('q2');
      expect(fake.focalRequests).toEqual(['q2']);
    });

    it('a 5xx on a sub-thread is retried like any call; a spent rate-limit window holds the post', async () => {
      fake.addPost(
        deepThreadPost('chain1', {
          comments: [comment('a0', [comment('a1', [comment('a2', [comment('a3')])])])],
        }),
      );
      fake.faults.add('/comments/chain1?comment=a2', { kind: 'server' }, 2);
      const ok = await provider().fetchPost('https://reddit.com/comments/chain1', { fullRead: true });
      expect(ok.status === 'ok' && ok.comments.map((c) => [c.id, c.parentId])).toEqual([
        ['a0', null],
        ['a1', 'a0'],
        ['a2', 'a1'],
        ['a3', 'a2'],
      ]);
      expect(waits).toEqual([50, 100]);
      expect(fake.focalRequests).toEqual(['a2']); // the two 503s never reached the handler
      expect(fake.calls.get('/comments/chain1')).toBe(4);

      fake.remaining = 1; // the first listing spends the window; the sub-thread would be a certain 429
      expect(await provider().fetchPost('https://reddit.com/comments/chain1', { fullRead: true })).toEqual({
        status: 'holding',
        reason:
          'reddit: rate-limit window spent (X-Ratelimit-Remaining 0; retry after 2026-03-10T12:07:00.000Z)',
        retryAt: '2026-03-10T12:07:00.000Z',
      });
      expect(fake.calls.get('/comments/chain1')).toBe(5);
    });
  });

  describe('account discovery', () => {
    beforeEach(() => {
      for (let i = 0; i < 130; i++) {
        fake.addPost(
          threadPost(`p${String(i).padStart(4, '0')}`, {
            createdUtc: T0 - i * 3600,
            title: i % 3 === 0 ? `Rent update ${i}` : `Weekend ${i}`,
            selftext: '',
            score: 100 + i,
            comments: [],
          }),
        );
      }
      fake.addPost(threadPost('other1', { author: 'someone_else', subreddit: 'munich', comments: [] }));
    });

    it('a user’s submissions and a subreddit’s new posts, newest first, paged, filtered at the source', async () => {
      const p = provider();
      const found = await p.discoverAccount('https://reddit.com/user/op_user', {
        limit: 2,
        keywords: { term: 'rent', match: 'includes' },
        until: new Date((T0 - 3600) * 1000).toISOString(),
      });
      expect(found).toEqual([
        {
          link: 'https://reddit.com/comments/p0003',
          postedAt: new Date((T0 - 3 * 3600) * 1000).toISOString(),
          postType: 'text',
          caption: 'Rent update 3',
          engagement: { views: 0, likes: 103 },
        },
        {
          link: 'https://reddit.com/comments/p0006',
          postedAt: new Date((T0 - 6 * 3600) * 1000).toISOString(),
          postType: 'text',
          caption: 'Rent update 6',
          engagement: { views: 0, likes: 106 },
        },
      ]);
      expect((await p.discoverAccount('https://reddit.com/r/berlin', { limit: 120 })).length).toBe(120);
      expect(fake.calls.get('/r/berlin/new')).toBe(2);
      expect(
        (
          await p.discoverAccount('https://reddit.com/u/op_user', {
            limit: 200,
            since: new Date((T0 - 9 * 3600) * 1000).toISOString(),
          })
        ).length,
      ).toBe(10);
    });

    it('a failing API throws ProviderUnavailableError at once', async () => {
      fake.faults.add('/user/op_user/submitted', { kind: 'server' });
      await expect(
        provider().discoverAccount('https://reddit.com/user/op_user', { limit: 5 }),
      ).rejects.toEqual(new ProviderUnavailableError('reddit /user/op_user/submitted: 503 server error'));
      expect(waits).toEqual([]);
    });
  });
});
