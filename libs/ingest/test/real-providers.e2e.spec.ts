import type { CommentsFetched, PostFetched } from '@analyst/domain-content';
import { HttpMetrics } from '@analyst/platform';
import { CHANNEL_ID, READABLE_ORDER, RedditFake, VIDEO_ID, YouTubeFake, seedChannel, threadPost, threads, video } from '@analyst/testing';
import { ProviderMetrics, contentProviderFromConfig, findPost } from '@analyst/ingest';
import { ingestTest, type IngestTest } from './ingest-fixture';

/** What a post's current version stored: the provider's post and every fetched comment. */
async function stored(f: IngestTest, postId: string): Promise<{ post: PostFetched['data']['post']; comments: CommentsFetched['data']['comments'] }> {
  const events = await f.events.readStream(`post-${postId}`);
  const fetched = events.filter((e) => e.type === 'PostFetched').at(-1)!.data as PostFetched['data'];
  const comments = events.filter((e) => e.type === 'CommentsFetched' && (e.data as CommentsFetched['data']).dataVersion === fetched.dataVersion).flatMap((e) => (e.data as CommentsFetched['data']).comments);
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
    youtube.addVideo(video(VIDEO_ID, { threads: threads(VIDEO_ID, 150, (i) => (i === 0 ? 7 : i === 1 ? 3 : 0)) }));
    youtube.addVideo(video('nocomments1', { commentsDisabled: true }));
    youtube.addVideo(video('privatevid1', { private: true }));
    youtube.addVideo(video('quotavideo1', { threads: threads('quotavideo1', 2, () => 0) }));
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
    const res = await f.post('/content/posts/add', key, { links: [`https://youtu.be/${VIDEO_ID}`, 'https://www.reddit.com/r/berlin/comments/abc123/rent/'] });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.credits).toEqual({ source: 'auto', perPost: 1, reserved: 2, settled: 2, refunded: 0 });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 8, reserved: 0 });

    const [yt, rd] = done.body.data.accepted.map((a: any) => a.postId as string);
    const ytStored = await stored(f, yt);
    expect(ytStored.post.engagement).toEqual({ views: 125_000, likes: 4_321, comments: 160, shares: 0 });
    expect(ytStored.post.creator).toEqual({ username: 'creatorhandle', name: 'Creator Name' });
    expect(ytStored.comments).toHaveLength(160);
    expect(ytStored.comments.filter((c) => c.parentId === `Ug${VIDEO_ID}0`).map((c) => c.id)).toEqual([0, 1, 2, 3, 4, 5, 6].map((j) => `Ug${VIDEO_ID}0.r${j}`));
    expect(ytStored.comments.filter((c) => c.authorIsCreator).map((c) => c.id)).toEqual([`Ug${VIDEO_ID}0.r3`]);
    expect(ytStored.comments[1]).toEqual({ id: `Ug${VIDEO_ID}0.r0`, parentId: `Ug${VIDEO_ID}0`, authorUsername: 'replier0', authorIsCreator: false, body: 'reply 0 to 0', likes: 0, postedAt: '2026-02-02T11:00:00.000Z', hidden: false });
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
    const res = await f.post('/content/accounts/add', key, { account: { url: `https://www.youtube.com/channel/${CHANNEL_ID}/videos` }, filters: { limit: 3 } });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.accepted.map((a: any) => a.link)).toEqual(['upload00001', 'upload00002', 'upload00003'].map((id) => `https://youtube.com/watch?v=${id}`));
    expect(done.body.data.credits).toEqual({ source: 'auto', perPost: 1, reserved: 3, settled: 3, refunded: 0 });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 7, reserved: 0 });
    const first = await stored(f, done.body.data.accepted[0].postId);
    expect([first.post.engagement, first.comments.map((c) => c.id)]).toEqual([{ views: 1000, likes: 10, comments: 2, shares: 0 }, ['Ugupload000010', 'Ugupload000011']]);
  });

  it('faults end in the spec states: comments off → complete with none, private → unreachable, quota → holding (job syncing); all refunded', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, { links: ['https://youtube.com/watch?v=nocomments1', 'https://youtube.com/watch?v=privatevid1'] });
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.accepted.map((a: any) => a.postStatus)).toEqual(['complete', 'unreachable']);
    expect(done.body.data.credits).toEqual({ source: 'auto', perPost: 1, reserved: 2, settled: 0, refunded: 2 });
    expect(await findPost(f.store, done.body.data.accepted[0].postId)).toMatchObject({ status: 'complete', totalComments: 0 });

    youtube.faults.add('/commentThreads', { kind: 'quota' });
    const held = await f.post('/content/posts/add', key, { links: ['https://youtube.com/watch?v=quotavideo1'] });
    const job = await f.settle(held.body.data.id, key, (b) => b.data.accepted.every((a: any) => a.postStatus === 'holding'));
    expect(job.body.data.status).toBe('syncing');
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 10, reserved: 0 });
    const quota = (await metrics.registry.getSingleMetric('analyst_provider_errors_total')!.get()).values.find((v) => v.labels.kind === 'quota');
    expect(quota?.value).toBe(1);
  });

  it('provider metrics: calls per endpoint, quota units, Reddit headroom', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toContain('analyst_provider_calls_total{platform="reddit",endpoint="/comments/{id}",service="ingest-test"} 1');
    expect(text).toContain('analyst_provider_ratelimit_remaining{platform="reddit",service="ingest-test"} 998');
    const units = (await metrics.registry.getSingleMetric('analyst_provider_quota_units_total')!.get()).values[0].value;
    expect(units).toBe(youtube.quotaUsed);
  });
});
