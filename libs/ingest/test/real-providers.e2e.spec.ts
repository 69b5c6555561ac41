import { postDecider, postStream, type ExistingPost } from '@analyst/domain-content';
import { type CommentsFetched, type PostFetched } from '@analyst/contracts';
import { CommandRunner, HttpMetrics, READ_STORE, type ReadStore } from '@analyst/platform';
import {
  CHANNEL_ID,
  DEEP_PARENTS,
  DEEP_READABLE_ORDER,
  READABLE_ORDER,
  RedditFake,
  VIDEO_ID,
  YouTubeFake,
  eventually,
  seedChannel,
  deepThreadPost,
  threadPost,
  threads,
  video,
} from '@analyst/testing';
import {
  HeldPostResumer,
  INGEST_OPTIONS,
  ProviderMetrics,
  contentProviderFromConfig,
  findPost,
  type IngestOptions,
} from '@analyst/ingest';
import { LedgerClient } from '../src/pipeline/ledger-client';
import { ingestTest, type IngestTest } from './ingest-fixture';
import { ContentJobCommands } from '../src/commands/content-job-commands';
import { PostCommands } from '../src/commands/post-commands';

/** What a post's current version stored: the provider's post and every fetched comment. */
async function stored(
  f: IngestTest,
  postId: string,
): Promise<{ post: PostFetched['data']['post']; comments: CommentsFetched['data']['comments'] }> {
  const events = await f.events.readStream(`post-${postId}`);
  const fetched = events.filter((e) => e.type === 'PostFetched').at(-1)!.data as PostFetched['data'];
  const comments = events
    .filter(
      (e) =>
        e.type === 'CommentsFetched' &&
        (e.data as CommentsFetched['data']).dataVersion === fetched.dataVersion,
    )
    .flatMap((e) => (e.data as CommentsFetched['data']).comments);
  return { post: fetched.post, comments };
}

describe('content path over HTTP against the YouTube and Reddit fakes (standalone wiring)', () => {
  const youtube = new YouTubeFake();
  const reddit = new RedditFake();
  const metrics = new HttpMetrics('ingest-test');
  let f: IngestTest;

  beforeAll(async () => {
    await Promise.all([youtube.start(), reddit.start()]);
    seedChannel(youtube, ['upload00001', 'upload00002', 'upload00003', 'upload00004']);
    youtube.addVideo(
      video(VIDEO_ID, { threads: threads(VIDEO_ID, 150, (i) => (i === 0 ? 7 : i === 1 ? 3 : 0)) }),
    );
    youtube.addVideo(video('nocomments1', { commentsDisabled: true }));
    youtube.addVideo(video('privatevid1', { private: true }));
    youtube.addVideo(video('quotavideo1', { threads: threads('quotavideo1', 2, () => 0) }));
    youtube.addVideo(video('quotavideo2', { threads: threads('quotavideo2', 4, (i) => (i === 0 ? 2 : 0)) }));
    youtube.addVideo(video('quotavideo3', { threads: threads('quotavideo3', 1, () => 0) }));
    youtube.addVideo(video('refreshvid1', { threads: threads('refreshvid1', 3, () => 0) }));
    reddit.addPost(threadPost());
    const provider = contentProviderFromConfig(
      {
        ANALYST_MODE: 'standalone',
        ANALYST_PROVIDERS: 'youtube=youtube,reddit=reddit,*=simulated',
        YOUTUBE_API_KEY: youtube.apiKey,
        ANALYST_YOUTUBE_BASE_URL: youtube.baseUrl,
        REDDIT_CLIENT_ID: reddit.clientId,
        REDDIT_CLIENT_SECRET: reddit.clientSecret,
        REDDIT_USER_AGENT: 'node:analyst-e2e:1.0 (by /u/analyst)',
        ANALYST_REDDIT_BASE_URL: reddit.baseUrl,
        ANALYST_REDDIT_TOKEN_URL: reddit.tokenUrl,
      },
      new ProviderMetrics(metrics),
    );
    f = await ingestTest({ ingest: { provider } });
  });
  afterAll(async () => {
    await f.close();
    await Promise.all([youtube.stop(), reddit.stop()]);
  });

  it('a YouTube video and a Reddit thread: comments, replies, counts and engagement as the platforms gave them; one credit each', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, {
      links: [`https://youtu.be/${VIDEO_ID}`, 'https://www.reddit.com/r/berlin/comments/abc123/rent/'],
    });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 2,
      settled: 2,
      refunded: 0,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 8, reserved: 0 });

    const [yt, rd] = done.body.data.accepted.map((a: any) => a.postId as string);
    const ytStored = await stored(f, yt);
    expect(ytStored.post.engagement).toEqual({ views: 125_000, likes: 4_321, comments: 160, shares: 0 });
    expect(ytStored.post.creator).toEqual({ username: 'creatorhandle', name: 'Creator Name' });
    expect(ytStored.comments).toHaveLength(160);
    expect(ytStored.comments.filter((c) => c.parentId === `Ug${VIDEO_ID}0`).map((c) => c.id)).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((j) => `Ug${VIDEO_ID}0.r${j}`),
    );
    expect(ytStored.comments.filter((c) => c.authorIsCreator).map((c) => c.id)).toEqual([
      `Ug${VIDEO_ID}0.r3`,
    ]);
    expect(ytStored.comments[1]).toEqual({
      id: `Ug${VIDEO_ID}0.r0`,
      parentId: `Ug${VIDEO_ID}0`,
      authorUsername: 'replier0',
      authorIsCreator: false,
      body: 'reply 0 to 0',
      likes: 0,
      postedAt: '2026-02-02T11:00:00.000Z',
      hidden: false,
    });
    expect(await findPost(f.store, yt)).toMatchObject({ status: 'complete', totalComments: 160 });

    const rdStored = await stored(f, rd);
    expect(rdStored.post.engagement).toEqual({ views: 0, likes: 2_345, comments: 41, shares: 3 });
    expect(rdStored.comments.map((c) => c.id)).toEqual(READABLE_ORDER);
    expect(rdStored.comments.filter((c) => c.parentId === null)).toHaveLength(30); // c0, x0, x1 (removed parent), c3..c29
    expect(await findPost(f.store, rd)).toMatchObject({ status: 'complete', totalComments: 39 });
  });

  it('a YouTube channel account: uploads discovered newest first, each post fetched with its comments', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/accounts/add', key, {
      account: { url: `https://www.youtube.com/channel/${CHANNEL_ID}/videos` },
      filters: { limit: 3 },
    });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.accepted.map((a: any) => a.link)).toEqual(
      ['upload00001', 'upload00002', 'upload00003'].map((id) => `https://youtube.com/watch?v=${id}`),
    );
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 3,
      settled: 3,
      refunded: 0,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 7, reserved: 0 });
    const first = await stored(f, done.body.data.accepted[0].postId);
    expect([first.post.engagement, first.comments.map((c) => c.id)]).toEqual([
      { views: 1000, likes: 10, comments: 2, shares: 0 },
      ['Ugupload000010', 'Ugupload000011'],
    ]);
  });

  it('faults end in the spec states: comments off → complete with none, private → unreachable, quota → holding (job syncing); all refunded', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, {
      links: ['https://youtube.com/watch?v=nocomments1', 'https://youtube.com/watch?v=privatevid1'],
    });
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.accepted.map((a: any) => a.postStatus)).toEqual(['complete', 'unreachable']);
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 2,
      settled: 0,
      refunded: 2,
    });
    expect(await findPost(f.store, done.body.data.accepted[0].postId)).toMatchObject({
      status: 'complete',
      totalComments: 0,
    });

    youtube.faults.add('/commentThreads', { kind: 'quota' });
    const held = await f.post('/content/posts/add', key, {
      links: ['https://youtube.com/watch?v=quotavideo1'],
    });
    const job = await f.settle(held.body.data.id, key, (b) =>
      b.data.accepted.every((a: any) => a.postStatus === 'holding'),
    );
    expect(job.body.data.status).toBe('syncing');
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 10, reserved: 0 });
    const quota = (
      await metrics.registry.getSingleMetric('analyst_provider_errors_total')!.get()
    ).values.find((v) => v.labels.kind === 'quota');
    expect(quota?.value).toBe(1);
  });

  /** A resumer as another replica would run it, with its clock at `now`. */
  function resumerAt(now: Date): HeldPostResumer {
    const app = f.t.app;
    return new HeldPostResumer(
      app.get(LedgerClient),
      app.get(ContentJobCommands),
      app.get(PostCommands),
      app.get<ReadStore>(READ_STORE),
      { now: () => now },
      app.get<IngestOptions>(INGEST_OPTIONS),
    );
  }
  async function postState(postId: string): Promise<ExistingPost> {
    return (await f.t.app.get(CommandRunner).load(postStream(postId), postDecider)).state as ExistingPost;
  }

  it('a held post waits for the quota window, then is fetched again by its own job, which settles and charges once', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    youtube.faults.add('/commentThreads', { kind: 'quota' });
    const res = await f.post('/content/posts/add', key, {
      links: ['https://youtube.com/watch?v=quotavideo2'],
    });
    const held = await f.settle(res.body.data.id, key, (b) =>
      b.data.accepted.every((a: any) => a.postStatus === 'holding'),
    );
    const postId = held.body.data.accepted[0].postId as string;
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 10, reserved: 0 });
    const state = await postState(postId);
    // YouTube's daily quota reopens at midnight Pacific time: the hold names that instant.
    expect(state).toMatchObject({ status: 'holding', holds: 1 });
    const reopens = Date.parse(state.heldUntil!);
    expect(new Date(reopens).getUTCHours() === 7 || new Date(reopens).getUTCHours() === 8).toBe(true);

    // Before the window reopens nothing happens, on any replica.
    expect(await resumerAt(new Date(reopens - 1000)).runOnce()).toEqual({
      resumed: [],
      abandoned: [],
      failed: [],
    });
    expect((await postState(postId)).status).toBe('holding');
    expect((await f.get(`/content/jobs/${res.body.data.id}`, key)).body.data.status).toBe('syncing');

    // Two replicas sweep at once after it reopens: one reservation, one resumption.
    const after = new Date(reopens + 1000);
    const sweeps = await Promise.all([resumerAt(after).runOnce(), resumerAt(after).runOnce()]);
    expect(sweeps.flatMap((s) => s.resumed)).toContain(postId);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.accepted[0]).toMatchObject({ postId, postStatus: 'complete' });
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 1,
      settled: 1,
      refunded: 0,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
    const events = await f.events.readStream(postStream(postId));
    expect(
      events.map((e) => e.type).filter((t) => t !== 'CommentsFetched' && t !== 'CommentsScored'),
    ).toEqual(['PostCreated', 'PostFetchFailed', 'PostHoldResumed', 'PostFetched', 'PostScored']);
    expect((await stored(f, postId)).comments).toHaveLength(6);
    expect(await findPost(f.store, postId)).toMatchObject({ status: 'complete', totalComments: 6 });
  });

  it('a held post the team can no longer fund fails when its window reopens, with nothing charged', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 1 });
    const { key } = await f.key(teamId);
    youtube.faults.add('/commentThreads', { kind: 'quota' });
    const res = await f.post('/content/posts/add', key, {
      links: ['https://youtube.com/watch?v=quotavideo3'],
    });
    const held = await f.settle(res.body.data.id, key, (b) =>
      b.data.accepted.every((a: any) => a.postStatus === 'holding'),
    );
    const postId = held.body.data.accepted[0].postId as string;
    await f.idle(teamId);
    // The refunded credit is spent elsewhere while the post waits.
    const other = await f.post('/content/posts/add', key, { links: [`https://youtu.be/${VIDEO_ID}`] });
    await f.settle(other.body.data.id, key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    const sweep = await resumerAt(
      new Date(Date.parse((await postState(postId)).heldUntil!) + 1000),
    ).runOnce();
    expect(sweep.abandoned).toEqual([postId]);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('failed');
    expect(done.body.data.accepted[0].postStatus).toBe('failed');
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 1,
      settled: 0,
      refunded: 1,
    });
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
  });

  it('provider metrics: calls per endpoint, quota units, Reddit headroom', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'analyst_provider_calls_total{platform="reddit",endpoint="/comments/{id}",service="ingest-test"} 1',
    );
    expect(text).toContain(
      'analyst_provider_ratelimit_remaining{platform="reddit",service="ingest-test"} 998',
    );
    const units = (await metrics.registry.getSingleMetric('analyst_provider_quota_units_total')!.get())
      .values[0].value;
    expect(units).toBe(youtube.quotaUsed);
  });

  it('a platform answering 5xx past the retries fails the post and refunds it; the job fails with the reason', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 3 });
    const { key } = await f.key(teamId);
    youtube.addVideo(video('flakyvideo1', { threads: threads('flakyvideo1', 2, () => 0) }));
    const calls = youtube.calls.get('/videos') ?? 0;
    youtube.faults.add('/videos', { kind: 'server', status: 503 }, 4);
    const res = await f.post('/content/posts/add', key, {
      links: ['https://youtube.com/watch?v=flakyvideo1'],
    });
    // The retries take seconds: watch the read model, not the job route (polling it for that long
    // would spend the key's request budget, which never refills on the test's fixed clock).
    await eventually(
      async () => (await findPost(f.store, res.body.data.accepted[0].postId))?.status === 'failed',
      60_000,
    );
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('failed');
    expect(done.body.data.accepted[0].postStatus).toBe('failed');
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 1,
      settled: 0,
      refunded: 1,
    });
    // The first try and 3 retries with backoff, then no more.
    expect((youtube.calls.get('/videos') ?? 0) - calls).toBe(4);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 3, reserved: 0 });
  }, 180_000); // retries with backoff, then a settle and an idle wait: each bounded generously for a loaded machine

  it('a refresh 13 hours later fetches the video again as data version 2, with the comments the platform has now', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const added = await f.post('/content/posts/add', key, {
      links: ['https://www.youtube.com/watch?v=refreshvid1'],
    });
    const first = await f.settle(added.body.data.id, key);
    const postId = first.body.data.accepted[0].postId as string;
    expect(await findPost(f.store, postId)).toMatchObject({
      status: 'complete',
      totalComments: 3,
      dataVersion: 1,
    });
    await f.idle(teamId);

    youtube.addVideo(
      video('refreshvid1', {
        threads: threads('refreshvid1', 5, (i) => (i === 4 ? 2 : 0)),
        viewCount: 99_000,
      }),
    );
    f.clock.advance(13 * 3_600_000);
    const refresh = await f.post('/content/posts/refresh', key, { postIds: [postId] });
    expect(refresh.status).toBe(202);
    const done = await f.settle(refresh.body.data.id, key);
    expect(done.body.data).toMatchObject({ kind: 'refresh', status: 'completed' });
    expect(done.body.data.accepted[0]).toMatchObject({ postId, dataVersion: 2, postStatus: 'complete' });
    const now = await stored(f, postId);
    expect(now.comments.map((c) => c.id)).toEqual(
      [0, 1, 2, 3, 4].flatMap((i) =>
        i === 4 ? ['Ugrefreshvid14', 'Ugrefreshvid14.r0', 'Ugrefreshvid14.r1'] : [`Ugrefreshvid1${i}`],
      ),
    );
    expect(now.post.engagement).toMatchObject({ views: 99_000, comments: 7 });
    expect(await findPost(f.store, postId)).toMatchObject({
      status: 'complete',
      totalComments: 7,
      dataVersion: 2,
    });
  });

  it('a Reddit thread deeper than its listings go: "continue this thread" sub-threads stored once, each reply under its parent', async () => {
    reddit.continueDepth = 3;
    reddit.addPost(deepThreadPost());
    const teamId = await f.team('scale', { maps: 0, adhoc: 3 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, {
      links: ['https://www.reddit.com/r/berlin/comments/deep01/deep/'],
    });
    const done = await f.settle(res.body.data.id, key);
    reddit.continueDepth = Infinity;
    expect(done.body.data).toMatchObject({ status: 'completed', credits: { settled: 1, refunded: 0 } });
    const postId = done.body.data.accepted[0].postId as string;
    const { post, comments } = await stored(f, postId);
    expect(comments.map((c) => c.id)).toEqual(DEEP_READABLE_ORDER);
    expect(new Set(comments.map((c) => c.id)).size).toBe(24);
    expect(Object.fromEntries(comments.map((c) => [c.id, c.parentId]))).toEqual(DEEP_PARENTS);
    expect(post.engagement.comments).toBe(25); // num_comments counts the removed q5
    expect(reddit.focalRequests).toEqual(['q2', 'p2', 't1', 'q4', 'w4', 'q6']);
    expect(await findPost(f.store, postId)).toMatchObject({ status: 'complete', totalComments: 24 });
  });
});

describe('platforms routed to no provider (the distributed default without their credentials)', () => {
  const youtube = new YouTubeFake();
  let f: IngestTest;

  beforeAll(async () => {
    await youtube.start();
    youtube.addVideo(video(VIDEO_ID, { threads: threads(VIDEO_ID, 3, () => 0) }));
    const provider = contentProviderFromConfig({
      ANALYST_MODE: 'distributed',
      YOUTUBE_API_KEY: youtube.apiKey,
      ANALYST_YOUTUBE_BASE_URL: youtube.baseUrl,
    });
    f = await ingestTest({ ingest: { provider } });
  });
  afterAll(async () => {
    await f.close();
    await youtube.stop();
  });

  it('rejects their post links as unsupported_platform, uncharged, and still fetches the configured one', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const links = [
      `https://youtu.be/${VIDEO_ID}`,
      'https://www.reddit.com/r/berlin/comments/abc123/rent/',
      'https://x.com/someone/status/1800000000000000001',
    ];
    const res = await f.post('/content/posts/add', key, { links });
    expect(res.status).toBe(202);
    expect(res.body.data.rejected).toEqual([
      { link: links[1], reason: 'unsupported_platform' },
      { link: links[2], reason: 'unsupported_platform' },
    ]);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('partial');
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 1,
      settled: 1,
      refunded: 0,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 4, reserved: 0 });
  });

  it('refuses an account on such a platform with 400 unsupported_platform and writes nothing', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const before = (await f.events.readStream(`ledger-${teamId}`)).length;
    const res = await f.post('/content/accounts/add', key, {
      account: { url: 'https://www.tiktok.com/@creator' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'unsupported_platform' });
    expect(res.body.error.message).toContain('tiktok');
    expect((await f.get('/content/jobs', key)).body.data).toEqual([]);
    expect((await f.events.readStream(`ledger-${teamId}`)).length).toBe(before);
  });
});
