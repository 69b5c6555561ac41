import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoReadStore } from '@analyst/platform';
import {
  CHANNEL_ID,
  RedditFake,
  VIDEO_ID,
  YouTubeFake,
  seedChannel,
  threadPost,
  threads,
  unique,
  video,
} from '@analyst/testing';
import { call, clusterConfig, startApp, stopAll, until, type Cluster } from './cluster';
import { sqliteLocation } from './e2e-event-store';

const ready = Boolean(process.env.KAFKA_BROKERS && process.env.MONGO_URL);

/**
 * The content path with real provider adapters in the ingest process, talking HTTP to local fakes
 * of the YouTube Data API and Reddit's OAuth API (this test's process serves them), every service
 * its own process: add posts, account discovery, refresh, a rate-limit hold resumed, the
 * unsupported platforms, and the providers on /readyz and /metrics.
 */
(ready ? describe : describe.skip)(
  'distributed topology with the YouTube and Reddit providers against local fakes',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'analyst-providers-'));
    const run = unique('prov');
    const youtube = new YouTubeFake();
    const reddit = new RedditFake();
    let cluster: Cluster;
    let key = '';

    /** Credits left (the plan's MAPs are spent before Ad Hoc ones) and reserved. */
    async function credits(): Promise<{ left: number; reserved: number }> {
      const c = (await call(cluster, 'GET', '/analyst/v1/team', { key })).body.data.credits;
      return { left: c.maps + c.adhoc, reserved: c.reserved };
    }

    /** A post as GET /posts lists it, whatever its status. */
    async function postOf(link: string): Promise<any> {
      const page = await call(
        cluster,
        'GET',
        `/analyst/v1/posts?status=all&link=${encodeURIComponent(link)}`,
        { key },
      );
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      return page.body.data[0];
    }

    async function settled(
      jobId: string,
      done = (job: any) => ['completed', 'partial', 'failed'].includes(job.status),
    ): Promise<any> {
      return until(
        `job ${jobId}`,
        async () => {
          const job = (await call(cluster, 'GET', `/analyst/v1/content/jobs/${jobId}`, { key })).body.data;
          return job && done(job) ? job : null;
        },
        90_000,
      );
    }

    async function idle(): Promise<void> {
      await until('credits to settle', async () => (await credits()).reserved === 0, 60_000);
    }

    beforeAll(async () => {
      await Promise.all([youtube.start(), reddit.start()]);
      seedChannel(youtube, ['upload00001', 'upload00002', 'upload00003']);
      youtube.addVideo(
        video(VIDEO_ID, { threads: threads(VIDEO_ID, 150, (i) => (i === 0 ? 7 : i === 1 ? 3 : 0)) }),
      );
      reddit.addPost(threadPost());
      reddit.addPost(threadPost('def456'));
      cluster = clusterConfig({
        dataDir,
        logDir: join(tmpdir(), `analyst-providers-logs-${run}`),
        basePort: 22300 + Math.floor(Math.random() * 500) * 6,
        namespace: `${run}.`,
        database: `analyst_${run}`,
        // SQLite: this suite is about the providers, not the store (the distributed, replicas and fault suites run on PostgreSQL).
        eventStore: sqliteLocation(dataDir),
      });
      // The distributed default: real providers where credentials are given, no provider elsewhere.
      delete cluster.env.ANALYST_PROVIDERS;
      Object.assign(cluster.env, {
        YOUTUBE_API_KEY: youtube.apiKey,
        ANALYST_YOUTUBE_BASE_URL: youtube.baseUrl,
        REDDIT_CLIENT_ID: reddit.clientId,
        REDDIT_CLIENT_SECRET: reddit.clientSecret,
        REDDIT_USER_AGENT: 'node:analyst-distributed-e2e:1.0 (by /u/analyst)',
        ANALYST_REDDIT_BASE_URL: reddit.baseUrl,
        ANALYST_REDDIT_TOKEN_URL: reddit.tokenUrl,
        // A hold the platform names no end for is retried 4 s later; held posts are checked every second.
        ANALYST_HOLD_RETRY_MS: '4000',
      });
      await startApp(cluster, 'relay');
      await Promise.all([
        startApp(cluster, 'ledger'),
        startApp(cluster, 'ingest'),
        startApp(cluster, 'analysis'),
        startApp(cluster, 'sampling'),
      ]);
      await startApp(cluster, 'gateway');
      const team = await call(cluster, 'POST', '/admin/v1/teams', {
        admin: true,
        body: { name: 'Providers', plan: 'scale' },
      });
      const created = await call(cluster, 'POST', `/admin/v1/teams/${team.body.data.id}/keys`, {
        admin: true,
        body: { name: 'providers', scopes: ['posts:read', 'posts:write', 'accounts:write', 'team:read'] },
      });
      key = created.body.data.key;
      await call(cluster, 'POST', `/admin/v1/teams/${team.body.data.id}/credits`, {
        admin: true,
        body: { pool: 'adhoc', amount: 20, reason: 'e2e' },
      });
    }, 400_000);

    afterAll(async () => {
      await stopAll(cluster);
      await Promise.all([youtube.stop(), reddit.stop()]);
      const mongo = await MongoReadStore.connect(process.env.MONGO_URL!, cluster.env.MONGO_DB);
      await mongo.database.dropDatabase();
      await mongo.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("adds a YouTube video and a Reddit thread with the platforms' comments and engagement; a TikTok link is unsupported here", async () => {
      const before = await credits();
      const links = [
        `https://youtu.be/${VIDEO_ID}`,
        'https://www.reddit.com/r/berlin/comments/abc123/rent/',
        'https://www.tiktok.com/@creator/video/7300000000000000001',
      ];
      const added = await call(cluster, 'POST', '/analyst/v1/content/posts/add', { key, body: { links } });
      expect(added.status).toBe(202);
      expect(added.body.data.rejected).toEqual([{ link: links[2], reason: 'unsupported_platform' }]);
      const job = await settled(added.body.data.id);
      expect(job.status).toBe('partial');
      expect(job.credits).toEqual({ source: 'auto', perPost: 1, reserved: 2, settled: 2, refunded: 0 });
      const ytPost = await postOf(links[0]);
      expect(ytPost).toMatchObject({
        platform: 'youtube',
        totalComments: 160,
        engagement: { views: 125_000, likes: 4_321, comments: 160, shares: 0 },
        creator: { username: 'creatorhandle', name: 'Creator Name' },
      });
      const rdPost = await postOf(links[1]);
      expect(rdPost).toMatchObject({
        platform: 'reddit',
        totalComments: 39,
        engagement: { views: 0, likes: 2_345, comments: 41, shares: 3 },
      });
      await idle();
      expect((await credits()).left).toBe(before.left - 2);
    });

    it("discovers a channel's uploads newest first and fetches each; a refresh inside 12 hours is skipped with the next time", async () => {
      const before = await credits();
      const added = await call(cluster, 'POST', '/analyst/v1/content/accounts/add', {
        key,
        body: { account: { url: `https://www.youtube.com/channel/${CHANNEL_ID}` }, filters: { limit: 2 } },
      });
      expect(added.status).toBe(202);
      const job = await settled(added.body.data.id);
      expect(job.status).toBe('completed');
      expect(job.accepted.map((a: any) => a.link)).toEqual(
        ['upload00001', 'upload00002'].map((id) => `https://youtube.com/watch?v=${id}`),
      );
      await idle();
      expect((await credits()).left).toBe(before.left - 2);

      const postId = job.accepted[0].postId;
      const refresh = await call(cluster, 'POST', '/analyst/v1/content/posts/refresh', {
        key,
        body: { postIds: [postId] },
      });
      expect(refresh.status).toBe(202);
      const refreshed = await settled(refresh.body.data.id);
      expect(refreshed.skipped).toEqual([
        expect.objectContaining({ postId, reason: 'min_interval', nextRefreshAt: expect.any(String) }),
      ]);
    });

    it('a thread Reddit rate-limits is held, its job syncing, then fetched again when the window reopens and charged once', async () => {
      const before = await credits();
      reddit.resetSeconds = 3;
      reddit.faults.add('/comments/def456', { kind: 'quota' });
      const added = await call(cluster, 'POST', '/analyst/v1/content/posts/add', {
        key,
        body: { links: ['https://redd.it/def456'] },
      });
      const held = await settled(added.body.data.id, (job) => job.accepted[0]?.postStatus === 'holding');
      expect(held.status).toBe('syncing');
      reddit.remaining = 1000; // the fake's window reopens
      const job = await settled(added.body.data.id);
      expect(job.status).toBe('completed');
      expect(job.accepted[0].postStatus).toBe('complete');
      expect(job.credits).toEqual({ source: 'auto', perPost: 1, reserved: 1, settled: 1, refunded: 0 });
      await idle();
      expect((await credits()).left).toBe(before.left - 1);
      expect(await postOf('https://redd.it/def456')).toMatchObject({ status: 'complete', totalComments: 39 });
    });

    it('the ingest process counts provider calls, errors and quota on /metrics', async () => {
      const metrics = await (await fetch(`http://127.0.0.1:${cluster.ports.ingest}/metrics`)).text();
      expect(metrics).toMatch(
        /analyst_provider_calls_total\{platform="youtube",endpoint="commentThreads"[^}]*\} \d+/,
      );
      expect(metrics).toMatch(
        /analyst_provider_errors_total\{platform="reddit",kind="quota"[^}]*\} [1-9]\d*/,
      );
      const units = /analyst_provider_quota_units_total\{[^}]*\} (\d+)/.exec(metrics);
      expect(Number(units?.[1])).toBe(youtube.quotaUsed);
    });

    it('a refused API key fails the post with nothing charged and takes ingest out of /readyz until a call succeeds again', async () => {
      const ingestReady = async () => {
        const res = await fetch(`http://127.0.0.1:${cluster.ports.ingest}/readyz`);
        return { status: res.status, text: await res.text() };
      };
      expect((await ingestReady()).status).toBe(200);
      const before = await credits();
      youtube.addVideo(video('refusedkey1', { threads: threads('refusedkey1', 2, () => 0) }));
      youtube.faults.add('/videos', { kind: 'auth' });
      const added = await call(cluster, 'POST', '/analyst/v1/content/posts/add', {
        key,
        body: { links: ['https://www.youtube.com/watch?v=refusedkey1'] },
      });
      const job = await settled(added.body.data.id);
      expect(job.status).toBe('failed');
      expect(job.accepted[0].postStatus).toBe('failed');
      await idle();
      expect((await credits()).left).toBe(before.left);
      const down = await ingestReady();
      expect(down.status).toBe(503);
      expect(down.text).toContain('provider:youtube');
      expect(down.text).toContain('YOUTUBE_API_KEY');

      // The key works again (an operator fixed it): the next call succeeds and ingest is ready.
      youtube.addVideo(video('refusedkey2', { threads: threads('refusedkey2', 1, () => 0) }));
      const again = await call(cluster, 'POST', '/analyst/v1/content/posts/add', {
        key,
        body: { links: ['https://www.youtube.com/watch?v=refusedkey2'] },
      });
      expect((await settled(again.body.data.id)).status).toBe('completed');
      expect((await ingestReady()).status).toBe(200);
    });
  },
);
