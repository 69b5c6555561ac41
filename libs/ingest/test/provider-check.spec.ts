import { RedditFake, YouTubeFake, threadPost, threads, video } from '@analyst/testing';
import { checkProvider, formatProviderCheck } from '../src/cli/provider-check';

describe('analyst provider check', () => {
  const youtube = new YouTubeFake();
  const reddit = new RedditFake();
  let env: Record<string, string>;

  beforeAll(async () => {
    await Promise.all([youtube.start(), reddit.start()]);
    youtube.addChannel({
      id: 'UCabcdefghijklmnopqrstuv',
      handle: '@CreatorHandle',
      title: 'Creator Name',
      uploads: [],
    });
    youtube.addVideo(video('dQw4w9WgXcQ', { threads: threads('dQw4w9WgXcQ', 3, (i) => (i === 0 ? 2 : 0)) }));
    reddit.addPost(threadPost());
    env = {
      ANALYST_PROVIDERS: 'youtube=youtube,reddit=reddit,*=simulated',
      YOUTUBE_API_KEY: youtube.apiKey,
      ANALYST_YOUTUBE_BASE_URL: youtube.baseUrl,
      REDDIT_CLIENT_ID: reddit.clientId,
      REDDIT_CLIENT_SECRET: reddit.clientSecret,
      REDDIT_USER_AGENT: 'node:analyst-check:1.0 (by /u/analyst)',
      ANALYST_REDDIT_BASE_URL: reddit.baseUrl,
      ANALYST_REDDIT_TOKEN_URL: reddit.tokenUrl,
    };
  });
  afterAll(() => Promise.all([youtube.stop(), reddit.stop()]));

  it('prints what the YouTube provider found, with the quota it spent', async () => {
    const report = await checkProvider('https://youtu.be/dQw4w9WgXcQ', { limit: 100 }, env);
    expect(formatProviderCheck(report)).toBe(
      [
        'https://youtube.com/watch?v=dQw4w9WgXcQ  (youtube via youtube)',
        'status: ok',
        'title: Video dQw4w9WgXcQ',
        'creator: creatorhandle',
        'engagement: 125000 views, 4321 likes, 5 comments, 0 shares',
        'fetched: 5 comments (2 replies)',
        '  viewer0 (0 likes): comment 0',
        '  replier0 (0 likes): reply 0 to 0',
        '  replier1 (1 likes): reply 1 to 0',
        '  viewer1 (3 likes): comment 1',
        '  viewer2 (6 likes): comment 2',
        '3 requests, 3 quota units',
      ].join('\n'),
    );
  });

  it('reports Reddit headroom, failures with their reason, and the simulator with a hint', async () => {
    const rd = await checkProvider('https://reddit.com/comments/abc123', { limit: 2 }, env);
    expect([rd.status, rd.commentsFetched, rd.requests, rd.rateLimitRemaining]).toEqual(['ok', 2, 2, 999]);
    const bad = await checkProvider(
      'https://reddit.com/comments/abc123',
      { limit: 2 },
      { ...env, REDDIT_CLIENT_SECRET: 'wrong' },
    );
    expect(formatProviderCheck(bad)).toBe(
      'https://reddit.com/comments/abc123  (reddit via reddit)\nstatus: failed — Reddit refused REDDIT_CLIENT_ID/REDDIT_CLIENT_SECRET at the token endpoint (401)\n1 requests',
    );
    const sim = await checkProvider('https://tiktok.com/@demo/video/7300000000000000001', { limit: 1 }, env);
    expect(formatProviderCheck(sim).split('\n').at(-1)).toBe(
      'note: this platform is served by the simulator; set ANALYST_PROVIDERS (e.g. youtube=youtube,reddit=reddit,*=simulated) to check real keys',
    );
    await expect(checkProvider('https://example.com/x', { limit: 1 }, env)).rejects.toThrow(
      'https://example.com/x is not a post link of a supported platform',
    );
    await expect(
      checkProvider('https://youtu.be/dQw4w9WgXcQ', { limit: 1 }, { ANALYST_PROVIDERS: 'youtube=youtube' }),
    ).rejects.toThrow('YOUTUBE_API_KEY: required');
  });
});
