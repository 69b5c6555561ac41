import type { ContentProvider, FetchOptions, FetchResult } from '@analyst/contracts';
import { SequentialIdGenerator } from '@analyst/platform';
import { SimulatedProvider, simulatedCommentCount } from '@analyst/provider-sim';
import { HeldPostResumer, findPost } from '@analyst/ingest';
import { ingestTest, LINKS, type IngestTest } from './ingest-fixture';

const UNREACHABLE = 'https://instagram.com/p/sim-unreachable-1';
const FAILING = 'https://threads.net/@demo/post/sim-fail-2';
const HOLDING = 'https://facebook.com/sim-holding/posts/12345678';
const EMPTY = 'https://youtu.be/sim-empty-1';

describe('post outcomes and their credits', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('refunds unreachable, failed and zero-comment posts, settles the scored one, and settles the job partial', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, {
      links: [UNREACHABLE, FAILING, EMPTY, LINKS.youtube('c5abcdefgh')],
    });
    expect(res.body.data.credits.reserved).toBe(4);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('partial');
    expect(done.body.data.accepted.map((a: any) => a.postStatus)).toEqual([
      'unreachable',
      'failed',
      'complete',
      'complete',
    ]);
    expect(done.body.data.counts).toMatchObject({ accepted: 4, syncing: 0, complete: 2, failed: 2 });
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 4,
      settled: 1,
      refunded: 3,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
    const empty = await findPost(f.store, done.body.data.accepted[2].postId);
    expect(empty).toMatchObject({ status: 'complete', totalComments: 0 });
  });

  it('refunds a holding post at once but keeps its job syncing', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, { links: [HOLDING, LINKS.reddit('c2abcdefgh')] });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
    const job = await f.settle(res.body.data.id, key, (b) =>
      b.data.accepted.every((a: any) => a.postStatus !== 'fetching' && a.postStatus !== 'processing'),
    );
    expect(job.body.data.status).toBe('syncing');
    expect(job.headers['retry-after']).toBe('5');
    expect(job.body.meta).toEqual({ status: 'syncing', pollAfterMs: 5000, replayed: false });
    expect(job.body.data.accepted.map((a: any) => a.postStatus)).toEqual(['holding', 'complete']);
    expect(job.body.data.counts).toMatchObject({ syncing: 1, complete: 1, failed: 0 });
    expect(job.body.data.credits).toMatchObject({ settled: 1, refunded: 1 });
  });

  it('resumes a held post after the retry delay, and fails it without charge once it was held maxHolds times', async () => {
    const held = await ingestTest({ ingest: { maxHolds: 2 } });
    try {
      const teamId = await held.team('scale', { maps: 0, adhoc: 5 });
      const { key } = await held.key(teamId);
      const res = await held.post('/content/posts/add', key, {
        links: [HOLDING.replace('12345678', '12345679')],
      });
      const postId = res.body.data.accepted[0].postId as string;
      const resumer = held.t.app.get(HeldPostResumer);
      const holding = async () => (await findPost(held.store, postId))?.status === 'holding';
      const { eventually } = await import('@analyst/testing');
      await eventually(holding);
      // The simulator names no end: the post waits the 5-minute default.
      expect(await resumer.runOnce()).toMatchObject({ resumed: [], abandoned: [] });
      held.clock.advance(300_000);
      expect(await resumer.runOnce()).toMatchObject({ resumed: [postId] });
      // Held again by the platform: a second PostFetchFailed, and the read model shows it.
      await eventually(
        async () =>
          (await held.events.readStream(`post-${postId}`)).filter((e) => e.type === 'PostFetchFailed')
            .length === 2 && (await holding()),
      );
      held.clock.advance(300_000);
      expect(await resumer.runOnce()).toMatchObject({ abandoned: [postId] });
      const job = await held.settle(res.body.data.id, key);
      expect(job.body.data.status).toBe('failed');
      expect(job.body.data.accepted[0].postStatus).toBe('failed');
      expect(job.body.data.credits).toEqual({
        source: 'auto',
        perPost: 1,
        reserved: 1,
        settled: 0,
        refunded: 1,
      });
      await held.idle(teamId);
      expect(await held.credits(teamId)).toEqual({ maps: 0, adhoc: 5, reserved: 0 });
      const types = (await held.events.readStream(`post-${postId}`)).map((e) => e.type);
      expect(types).toEqual([
        'PostCreated',
        'PostFetchFailed',
        'PostHoldResumed',
        'PostFetchFailed',
        'PostFetchFailed',
      ]);
    } finally {
      await held.close();
    }
  });

  it('settles a job that is never polled (the process manager), and a failed job says why', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, { links: [UNREACHABLE.replace('-1', '-7')] });
    await f.idle(teamId);
    const { findJob } = await import('@analyst/ingest');
    const { eventually } = await import('@analyst/testing');
    await eventually(
      async () => (await findJob(f.store, teamId, res.body.data.id, f.clock.now()))?.status === 'failed',
    );
    const job = await f.get(`/content/jobs/${res.body.data.id}`, key);
    expect(job.body.data.error).toEqual({ code: 'processing_failed', message: 'no post could be processed' });
    expect(job.body.data.completedAt).toBe('2026-03-10T12:00:00.000Z');
  });

  it("lists the team's jobs newest first with a status filter, and never shows another team's job", async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const a = await f.post('/content/posts/add', key, { links: [LINKS.linkedin(2)] });
    await f.settle(a.body.data.id, key);
    const b = await f.post('/content/posts/add', key, { links: [HOLDING.replace('12345678', '12345679')] });
    const all = await f.get('/content/jobs', key);
    expect(all.status).toBe(200);
    expect(all.body.data.map((j: any) => j.id)).toEqual([b.body.data.id, a.body.data.id]);
    expect(all.body.data[1]).toMatchObject({
      id: a.body.data.id,
      kind: 'posts',
      status: 'completed',
      counts: { accepted: 1, complete: 1 },
    });
    const syncing = await f.get('/content/jobs?status=syncing', key);
    expect(syncing.body.data.map((j: any) => j.id)).toEqual([b.body.data.id]);
    expect((await f.get('/content/jobs?status=bogus', key)).status).toBe(400);
    // One strict reading of integers: decimal digits only.
    for (const limit of ['0x10', '1e2', '%2B5', '1.0', '0', '101']) {
      const res = await f.get(`/content/jobs?limit=${limit}`, key);
      expect([limit, res.status, res.body.error?.code]).toEqual([limit, 400, 'invalid_request']);
    }
    expect((await f.get('/content/jobs?limit=16', key)).body.meta.limit).toBe(16);
    const other = await f.team('scale', { maps: 0 });
    const otherKey = (await f.key(other)).key;
    expect((await f.get('/content/jobs', otherKey)).body.data).toEqual([]);
    const hidden = await f.get(`/content/jobs/${a.body.data.id}`, otherKey);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toEqual({
      message: `content job ${a.body.data.id} not found`,
      code: 'job_not_found',
    });
    expect((await f.get('/content/jobs/cj_nope', key)).status).toBe(404);
  });

  it('needs posts:write to add and posts:read to poll', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId, ['posts:read']);
    expect((await f.post('/content/posts/add', key, { links: [LINKS.x(40)] })).status).toBe(403);
    const writer = (await f.key(teamId, ['posts:write'])).key;
    const res = await f.post('/content/posts/add', writer, { links: [LINKS.x(40)] });
    expect(res.status).toBe(202);
    expect((await f.get(`/content/jobs/${res.body.data.id}`, writer)).status).toBe(403);
  });
});

describe('sub-team targeting', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('adds posts to an Enterprise sub-team with its credits, and answers 404 for any other team', async () => {
    const parent = await f.team('enterprise', { maps: 0, adhoc: 10 });
    const sub = await f.team('growth', { parentTeamId: parent, maps: 0, adhoc: 3 });
    const stranger = await f.team('scale', { maps: 0, adhoc: 3 });
    const { key } = await f.key(parent);
    const res = await f.post('/content/posts/add', key, { links: [LINKS.x(2)], teamId: sub });
    expect(res.status).toBe(202);
    // The Location names the sub-team, so polling it with the same key finds the job.
    expect(res.headers.location).toBe(`/analyst/v1/content/jobs/${res.body.data.id}?teamId=${sub}`);
    // The job is the sub-team's: polled for the key's own team it does not exist.
    expect((await f.get(`/content/jobs/${res.body.data.id}`, key)).status).toBe(404);
    let done: any;
    const { eventually } = await import('@analyst/testing');
    await eventually(async () => {
      done = await f.t.request('GET', res.headers.location as string, {
        headers: { authorization: `Bearer ${key}` },
      });
      return done.body.data?.status === 'completed';
    });
    expect((await findPost(f.store, done.body.data.accepted[0].postId))!.teamId).toBe(sub);
    await f.idle(sub);
    expect(await f.credits(sub)).toEqual({ maps: 0, adhoc: 2, reserved: 0 });
    expect(await f.credits(parent)).toEqual({ maps: 0, adhoc: 10, reserved: 0 });
    const refused = await f.post('/content/posts/add', key, { links: [LINKS.x(3)], teamId: stranger });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('team_not_found');
    const subKey = (await f.key(sub)).key;
    expect((await f.post('/content/posts/add', subKey, { links: [LINKS.x(3)], teamId: parent })).status).toBe(
      404,
    );
    expect(await f.credits(stranger)).toEqual({ maps: 0, adhoc: 3, reserved: 0 });
  });
});

describe('duplicate delivery', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ duplicateDelivery: true })));
  afterAll(() => f.close());

  it('runs add -> complete -> settle with every bus message delivered twice, and the credits are exact', async () => {
    const teamId = await f.team('scale', { maps: 2, adhoc: 10 });
    const { key } = await f.key(teamId);
    const links = [
      LINKS.youtube('c1abcdefgh'),
      LINKS.tiktok(3),
      UNREACHABLE,
      EMPTY,
      LINKS.reddit('c6abcdefgh'),
    ];
    const res = await f.post('/content/posts/add', key, { links, capture: { commentLimit: 50 } });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    await f.idle(teamId);
    expect(done.body.data.status).toBe('partial');
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 5,
      settled: 3,
      refunded: 2,
    });
    // 3 consumed: MAPs first (2), then 1 Ad Hoc
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
    const first = await findPost(f.store, done.body.data.accepted[0].postId);
    expect(first!.totalComments).toBe(Math.min(50, simulatedCommentCount(links[0])!));
    const stream = await f.events.readStream(`post-${first!.id}`);
    expect(stream.map((e) => e.type)).toEqual([
      'PostCreated',
      'PostFetched',
      'CommentsFetched',
      'CommentsScored',
      'PostScored',
    ]);
    const statement = await f.t.admin('GET', `/admin/v1/teams/${teamId}/ledger?limit=1000`);
    const types = statement.body.data.map((l: any) => l.type);
    expect(types.filter((t: string) => t === 'CreditsReserved')).toHaveLength(5);
    expect(types.filter((t: string) => t === 'CreditsSettled')).toHaveLength(3);
    expect(types.filter((t: string) => t === 'CreditsRefunded')).toHaveLength(2);
  });
});

/** Hands out one post id twice, so the second CreatePost finds its stream taken: a creation failure. */
class CollidingIds extends SequentialIdGenerator {
  private lastPost: string | null = null;
  private posts = 0;
  override next(prefix = ''): string {
    if (prefix !== 'po_') return super.next(prefix);
    this.posts += 1;
    if (this.posts === 2 && this.lastPost) return this.lastPost;
    this.lastPost = super.next(prefix);
    return this.lastPost;
  }
}

describe('create_failed', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ ids: new CollidingIds() })));
  afterAll(() => f.close());

  it('rejects a post that cannot be created with create_failed and returns its reservation', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const links = [LINKS.x(2), LINKS.x(6), LINKS.x(4)];
    const res = await f.post('/content/posts/add', key, { links });
    expect(res.status).toBe(202);
    expect(res.body.data.accepted.map((a: any) => a.link)).toEqual([links[0], links[2]]);
    expect(res.body.data.rejected).toEqual([{ link: links[1], reason: 'create_failed' }]);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('partial');
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 8, reserved: 0 });
    const statement = await f.t.admin('GET', `/admin/v1/teams/${teamId}/ledger?limit=1000`);
    expect(
      statement.body.data.filter((l: any) => l.type === 'CreditsRefunded').map((l: any) => l.note),
    ).toEqual([expect.stringContaining('create_failed')]);
  });
});

/** A provider whose fetches wait until released, to observe posts in flight. */
class GatedProvider implements ContentProvider {
  private readonly sim = new SimulatedProvider();
  private release!: () => void;
  private gate = new Promise<void>((r) => (this.release = r));
  open(): void {
    this.release();
  }
  async fetchPost(link: string, options: FetchOptions): Promise<FetchResult> {
    await this.gate;
    return this.sim.fetchPost(link, options);
  }
  discoverAccount: ContentProvider['discoverAccount'] = (url, query) => this.sim.discoverAccount(url, query);
}

describe('posts in flight', () => {
  const provider = new GatedProvider();
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ ingest: { provider } })));
  afterAll(() => f.close());

  it('skips a link whose post is still processing as already_processing, uncharged', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const first = await f.post('/content/posts/add', key, { links: [LINKS.x(2)] });
    expect(first.body.data.accepted[0].postStatus).toBe('fetching');
    expect((await f.get(`/content/jobs/${first.body.data.id}`, key)).body.data.status).toBe('syncing');
    const second = await f.post('/content/posts/add', key, { links: [LINKS.x(2)], tags: ['later'] });
    expect(second.body.data.skipped).toEqual([{ link: LINKS.x(2), reason: 'already_processing' }]);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 1 });
    provider.open();
    await f.settle(first.body.data.id, key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
    expect((await findPost(f.store, first.body.data.accepted[0].postId))!.tags).toEqual(['later']);
  });
});
