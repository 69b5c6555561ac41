import { ProviderUnavailableError } from '@analyst/contracts';
import { TelemetryTally } from '@analyst/provider-core';
import { CHANNEL_ID, VIDEO_ID, YouTubeFake, seedChannel, threads, video } from '@analyst/testing';
import { YouTubeProvider } from '../src';
const NOW = new Date('2026-03-10T12:00:00Z'); // 05:00 in Los Angeles (PDT from 8 March)
const LINK = `https://youtube.com/watch?v=${VIDEO_ID}`;

describe('YouTubeProvider over HTTP against the fake Data API', () => {
  let fake: YouTubeFake;
  let tally: TelemetryTally;
  let waits: number[];

  const provider = (extra: { apiKey?: string; timeoutMs?: number } = {}) =>
    new YouTubeProvider({
      apiKey: extra.apiKey ?? fake.apiKey,
      baseUrl: fake.baseUrl,
      timeoutMs: extra.timeoutMs ?? 2_000,
      retry: { retries: 3, baseMs: 100, maxMs: 1_000 },
      retryEnv: { random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
      telemetry: tally,
      now: () => NOW,
    });

  beforeEach(async () => {
    fake = new YouTubeFake();
    tally = new TelemetryTally();
    waits = [];
    await fake.start();
  });
  afterEach(() => fake.stop());

  it('maps the video, pages threads and fetches replies past the inline five', async () => {
    // 150 threads: page 1 holds 100, page 2 50. Thread 0 has 7 replies (comments.list), thread 1 has 3 (inline).
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(
      video(VIDEO_ID, { threads: threads(VIDEO_ID, 150, (i) => (i === 0 ? 7 : i === 1 ? 3 : 0)) }),
    );
    const result = await provider().fetchPost(LINK, { fullRead: true });
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.post).toEqual({
      link: LINK,
      platform: 'youtube',
      creator: { username: 'creatorhandle', name: 'Creator Name' },
      title: `Video ${VIDEO_ID}`,
      caption: `Video ${VIDEO_ID}\n\nWhat we learned about rent this year`,
      description: 'What we learned about rent this year',
      engagement: { views: 125_000, likes: 4_321, comments: 160, shares: 0 },
      postedAt: '2026-02-01T09:00:00.000Z',
      postType: 'video',
      thumbnail: `https://i.ytimg.com/vi/${VIDEO_ID}/hqdefault.jpg`,
    });
    expect(result.comments).toHaveLength(160);
    expect(
      result.comments
        .slice(0, 9)
        .map((c) => [c.id, c.parentId, c.authorUsername, c.authorIsCreator, c.likes]),
    ).toEqual([
      [`Ug${VIDEO_ID}0`, null, 'viewer0', false, 0],
      ...[0, 1, 2, 3, 4, 5, 6].map((j) => [
        `Ug${VIDEO_ID}0.r${j}`,
        `Ug${VIDEO_ID}0`,
        j === 3 ? 'creatorhandle' : `replier${j}`,
        j === 3,
        j,
      ]),
      [`Ug${VIDEO_ID}1`, null, 'viewer1', false, 3],
    ]);
    expect(result.comments[0]).toEqual({
      id: `Ug${VIDEO_ID}0`,
      parentId: null,
      authorUsername: 'viewer0',
      authorIsCreator: false,
      body: 'comment 0',
      likes: 0,
      postedAt: '2026-02-01T10:00:00.000Z',
      hidden: false,
    });
    expect(result.comments[159].id).toBe(`Ug${VIDEO_ID}149`);
    // videos 1 + channels 1 + commentThreads 2 + comments 1 = 5 units.
    expect(tally.quotaUnits).toBe(5);
    expect(fake.quotaUsed).toBe(5);
    expect(Object.fromEntries(tally.calls)).toEqual({
      'youtube videos': 1,
      'youtube channels': 1,
      'youtube commentThreads': 2,
      'youtube comments': 1,
    });
  });

  it('stops at commentLimit, counting replies, and makes no further page calls', async () => {
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(video(VIDEO_ID, { threads: threads(VIDEO_ID, 150, (i) => (i === 0 ? 3 : 0)) }));
    const result = await provider().fetchPost(LINK, { fullRead: false, commentLimit: 6 });
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.comments.map((c) => c.id)).toEqual([
      `Ug${VIDEO_ID}0`,
      `Ug${VIDEO_ID}0.r0`,
      `Ug${VIDEO_ID}0.r1`,
      `Ug${VIDEO_ID}0.r2`,
      `Ug${VIDEO_ID}1`,
      `Ug${VIDEO_ID}2`,
    ]);
    expect(result.post.engagement.comments).toBe(153);
    expect(fake.calls.get('/commentThreads')).toBe(1);
  });

  it('comments disabled is a complete post with zero comments; private or unknown videos are unreachable', async () => {
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(video(VIDEO_ID, { commentsDisabled: true }));
    fake.addVideo(video('privatevid1', { private: true }));
    const p = provider();
    const disabled = await p.fetchPost(LINK, { fullRead: true });
    expect(disabled.status === 'ok' && [disabled.comments.length, disabled.post.engagement.comments]).toEqual(
      [0, 0],
    );
    expect(await p.fetchPost('https://youtube.com/watch?v=privatevid1', { fullRead: true })).toEqual({
      status: 'unreachable',
      reason: 'youtube: video privatevid1 is private, deleted or does not exist',
    });
    expect((await p.fetchPost('https://youtube.com/watch?v=missingvid1', { fullRead: true })).status).toBe(
      'unreachable',
    );
  });

  it('quotaExceeded holds the post until midnight Pacific; rateLimitExceeded for a minute', async () => {
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(video(VIDEO_ID, { threads: threads(VIDEO_ID, 3, () => 0) }));
    fake.faults.add('/commentThreads', { kind: 'quota' });
    const held = await provider().fetchPost(LINK, { fullRead: true });
    expect(held).toEqual({
      status: 'holding',
      reason:
        'youtube commentThreads: 403 quotaExceeded: The request cannot be completed because you have exceeded your quota. (retry after 2026-03-11T07:00:00.000Z)',
      retryAt: '2026-03-11T07:00:00.000Z',
    });
    fake.faults.add('/videos', { kind: 'rate' });
    const rate = await provider().fetchPost(LINK, { fullRead: true });
    expect(rate.status === 'holding' && rate.reason.endsWith('(retry after 2026-03-10T12:01:00.000Z)')).toBe(
      true,
    );
    expect(rate).toMatchObject({ retryAt: '2026-03-10T12:01:00.000Z' });
    expect(Object.fromEntries(tally.errors)).toEqual({ 'youtube quota': 2 });
    expect(waits).toEqual([]);
  });

  it('retries 5xx with jittered backoff, then succeeds; after the bound it fails', async () => {
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(video(VIDEO_ID, { threads: threads(VIDEO_ID, 3, () => 0) }));
    fake.faults.add('/commentThreads', { kind: 'server' }, 2);
    const ok = await provider().fetchPost(LINK, { fullRead: true });
    expect(ok.status === 'ok' && ok.comments.length).toBe(3);
    expect(waits).toEqual([50, 100]); // random 0.5 × 100·2^attempt

    waits = [];
    fake.faults.add('/videos', { kind: 'server', status: 500 }, 4);
    expect(await provider().fetchPost(LINK, { fullRead: true })).toEqual({
      status: 'failed',
      reason: 'youtube videos: 500 backendError: Backend Error',
    });
    expect(waits).toEqual([50, 100, 200]);
    expect(fake.calls.get('/videos')).toBe(5);
  });

  it('a slow answer past the timeout is retried like a 5xx', async () => {
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(video(VIDEO_ID, { threads: threads(VIDEO_ID, 2, () => 0) }));
    fake.faults.add('/videos', { kind: 'slow', ms: 400 });
    const result = await provider({ timeoutMs: 150 }).fetchPost(LINK, { fullRead: true });
    expect(result.status === 'ok' && result.comments.length).toBe(2);
    expect(waits).toEqual([50]);
    expect(Object.fromEntries(tally.calls)['youtube videos']).toBe(2);
  });

  it('a refused key fails the post with a clear error and makes the provider unhealthy until a call succeeds', async () => {
    fake.addChannel({ id: CHANNEL_ID, handle: '@CreatorHandle', title: 'Creator Name', uploads: [] });
    fake.addVideo(video(VIDEO_ID));
    const bad = provider({ apiKey: 'wrong' });
    expect(await bad.fetchPost(LINK, { fullRead: true })).toEqual({
      status: 'failed',
      reason:
        'the YouTube Data API refused YOUTUBE_API_KEY (keyInvalid): API key not valid. Please pass a valid API key.',
    });
    expect(bad.health()).toEqual({
      ready: false,
      detail:
        'the YouTube Data API refused YOUTUBE_API_KEY (keyInvalid): API key not valid. Please pass a valid API key.',
    });
    expect(tally.quotaUnits).toBe(0);
    const good = provider();
    fake.faults.add('/videos', { kind: 'auth' });
    await good.fetchPost(LINK, { fullRead: true });
    expect(good.health().ready).toBe(false);
    await good.fetchPost(LINK, { fullRead: true });
    expect(good.health()).toEqual({ ready: true });
  });

  describe('account discovery through the uploads playlist', () => {
    const uploads = Array.from({ length: 60 }, (_, i) => `vid${String(i).padStart(8, '0')}`);

    it('@handle, /channel/ and /c/ find the channel; filters apply at the source, newest first', async () => {
      seedChannel(fake, uploads);
      const p = provider();
      const found = await p.discoverAccount('https://youtube.com/@creatorhandle', {
        limit: 3,
        keywords: { term: 'cooking', match: 'includes' },
        until: '2026-02-26T23:59:59Z',
      });
      expect(found).toEqual([
        {
          link: 'https://youtube.com/watch?v=vid00000003',
          postedAt: '2026-02-25T12:00:00.000Z',
          postType: 'video',
          caption: 'Cooking 3\n\nWhat we learned about rent this year',
          engagement: { views: 1003, likes: 13 },
        },
        {
          link: 'https://youtube.com/watch?v=vid00000005',
          postedAt: '2026-02-23T12:00:00.000Z',
          postType: 'video',
          caption: 'Cooking 5\n\nWhat we learned about rent this year',
          engagement: { views: 1005, likes: 15 },
        },
        {
          link: 'https://youtube.com/watch?v=vid00000007',
          postedAt: '2026-02-21T12:00:00.000Z',
          postType: 'video',
          caption: 'Cooking 7\n\nWhat we learned about rent this year',
          engagement: { views: 1007, likes: 17 },
        },
      ]);
      expect(
        (await p.discoverAccount(`https://youtube.com/channel/${CHANNEL_ID}`, { limit: 55 })).length,
      ).toBe(55);
      expect(
        (await p.discoverAccount('https://youtube.com/c/creatorhandle', { limit: 1 })).map((d) => d.link),
      ).toEqual(['https://youtube.com/watch?v=vid00000000']);
      expect(
        (await p.discoverAccount('https://youtube.com/user/creatorlegacy', { limit: 1 })).map((d) => d.link),
      ).toEqual(['https://youtube.com/watch?v=vid00000000']);
      // since stops the scan at the first older upload: one page of 50 covers it.
      const calls = fake.calls.get('/playlistItems')!;
      expect(
        (
          await p.discoverAccount('https://youtube.com/@creatorhandle', {
            limit: 50,
            since: '2026-02-20T00:00:00Z',
          })
        ).length,
      ).toBe(9);
      expect(fake.calls.get('/playlistItems')! - calls).toBe(1);
      expect(await p.discoverAccount('https://youtube.com/@nobodyhere', { limit: 5 })).toEqual([]);
    });

    it('a failing API throws ProviderUnavailableError at once (the discovery worker owns the 3 retries)', async () => {
      seedChannel(fake, uploads);
      fake.faults.add('/playlistItems', { kind: 'server' });
      await expect(
        provider().discoverAccount('https://youtube.com/@creatorhandle', { limit: 3 }),
      ).rejects.toEqual(
        new ProviderUnavailableError('youtube playlistItems: 503 backendError: Backend Error'),
      );
      expect(waits).toEqual([]);
    });
  });
});
