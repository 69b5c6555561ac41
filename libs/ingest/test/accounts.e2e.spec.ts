import type { AccountQuery, DiscoveredPost } from '@analyst/contracts';
import { FixedClock } from '@analyst/platform';
import { DEFAULT_REFERENCE_DATE, SimulatedProvider, simulatedCommentCount } from '@analyst/provider-sim';
import { findPost } from '@analyst/ingest';
import { ingestTest, type IngestTest } from './ingest-fixture';

const ACCOUNT = 'https://www.tiktok.com/@fitjoe';
const sim = new SimulatedProvider();
/**
 * `until` defaults to the time the request is accepted, so the clock starts where the simulated
 * provider's accounts end (their posts span the 90 days before its reference date).
 */
const NOW = new Date(DEFAULT_REFERENCE_DATE).toISOString();

describe('POST /content/accounts/add', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ clock: new FixedClock(NOW) })));
  afterAll(() => f.close());
  afterEach(() => f.clock.set(NOW));

  it('answers 202 discovering, then adds the discovered posts (newest first, cut to limit) and goes syncing -> completed, charging only posts with comments', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key, id: keyId } = await f.key(teamId);
    const res = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      filters: { limit: 5 },
      tags: ['fit'],
      collections: [{ name: 'Joe' }],
    });
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/analyst/v1/content/jobs/${res.body.data.id}`);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.data).toMatchObject({
      kind: 'account',
      status: 'discovering',
      account: { url: 'https://tiktok.com/@fitjoe', platform: 'tiktok' },
      dryRun: false,
      filters: {
        since: null,
        until: NOW,
        limit: 5,
        keywords: null,
        minViews: null,
        minLikes: null,
        postType: null,
      },
      collections: [{ name: 'Joe', type: 'campaign', created: true }],
      tags: ['fit'],
    });
    expect(res.body.meta).toEqual({ status: 'discovering', pollAfterMs: 5000, replayed: false });
    const expected = (await sim.discoverAccount(ACCOUNT, { limit: 5 })).map((p) => p.link);
    const syncing = await f.settle(res.body.data.id, key, (b) => b.data.status !== 'discovering');
    expect(['syncing', 'completed', 'partial']).toContain(syncing.body.data.status);
    const done = await f.settle(res.body.data.id, key);
    const withComments = expected.filter((l) => simulatedCommentCount(l)! > 0).length;
    expect(done.body.data.accepted.map((a: any) => a.link)).toEqual(expected);
    expect(done.body.data.counts).toMatchObject({ requested: 5, discovered: 5, accepted: 5, complete: 5 });
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 5,
      settled: withComments,
      refunded: 5 - withComments,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20 - withComments, reserved: 0 });
    const post = await findPost(f.store, done.body.data.accepted[0].postId);
    expect(post).toMatchObject({
      addedVia: 'api',
      addedBy: { id: keyId },
      tags: ['fit'],
      collectionIds: [res.body.data.collections[0].id],
    });
  });

  it('completes a dry run with discovered[] and credits.estimated, adding and charging nothing', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key } = await f.key(teamId);
    const head = await f.events.headPosition();
    const res = await f.post('/content/accounts/add', key, {
      account: { url: 'https://x.com/evnews' },
      dryRun: true,
      capture: { fullRead: true },
      filters: {
        keywords: { term: 'open world', match: 'includes' },
        postType: 'image',
        minViews: 1000,
        since: '2026-06-01',
        limit: 10,
      },
      collections: [{ name: 'Not created by a dry run' }],
    });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    const job = done.body.data;
    expect(job.status).toBe('completed');
    expect(job.filters).toEqual({
      since: '2026-06-01T00:00:00.000Z',
      until: NOW,
      limit: 10,
      keywords: { term: 'open world', match: 'includes' },
      minViews: 1000,
      minLikes: null,
      postType: 'image',
    });
    expect(job.discovered.length).toBeGreaterThan(0);
    expect(job.discovered.length).toBeLessThanOrEqual(10);
    for (const d of job.discovered) {
      expect(d).toEqual({
        link: expect.any(String),
        postedAt: expect.any(String),
        postType: 'image',
        engagement: { views: expect.any(Number), likes: expect.any(Number) },
      });
      expect(d.engagement.views).toBeGreaterThanOrEqual(1000);
      expect(d.postedAt >= '2026-06-01').toBe(true);
    }
    expect(job.credits).toEqual({
      source: 'auto',
      perPost: 5,
      reserved: 0,
      settled: 0,
      refunded: 0,
      estimated: 5 * job.discovered.length,
    });
    expect(job.counts).toMatchObject({ discovered: job.discovered.length, accepted: 0 });
    expect(job.accepted).toEqual([]);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20, reserved: 0 });
    const written = (await f.events.readStream(`contentjob-${job.id}`)).map((e) => e.type);
    expect(written).toEqual(['ContentJobOpened', 'AccountDiscovered', 'JobSettled']);
    // Plus the request's claim (its replay check across replicas); no post, collection or credit event.
    const all: string[] = [];
    for await (const page of f.events.readAll(head)) all.push(...page.map((e) => e.type));
    expect(all.sort()).toEqual([
      'AccountDiscovered',
      'ContentJobOpened',
      'ContentRequestClaimed',
      'JobSettled',
    ]);
  });

  it('compares a caption keyword in NFC: a decomposed "vídeo" is echoed (and matched) precomposed', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const nfc = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      dryRun: true,
      filters: { keywords: 'vi\u0301deo' },
    });
    expect(nfc.status).toBe(202);
    expect(nfc.body.data.filters.keywords).toEqual({ term: 'v\u00eddeo', match: 'includes' });
  });

  it('completes an account with no match with counts.discovered 0 and no charge', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/accounts/add', key, {
      account: { url: 'https://youtube.com/@sim-no-match' },
    });
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data).toMatchObject({ status: 'completed', counts: { discovered: 0, accepted: 0 } });
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20, reserved: 0 });
  });

  it('fails after 3 provider retries with error set and no charge', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/accounts/add', key, {
      account: { url: 'https://facebook.com/sim-provider-down' },
    });
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('failed');
    expect(done.body.data.error).toEqual({
      code: 'provider_unavailable',
      message: expect.stringContaining('after 3 retries'),
    });
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20, reserved: 0 });
  });

  it('fails with error.code insufficient_credits when the batch cannot be funded at all', async () => {
    const teamId = await f.team('scale', { maps: 0 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      filters: { limit: 3 },
    });
    expect(res.status).toBe(202);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_credits' },
      counts: { discovered: 3, accepted: 0 },
    });
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
  });

  it('reserves only for posts not already on the team, and replays an identical request', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key } = await f.key(teamId);
    const first = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      filters: { limit: 2 },
    });
    await f.settle(first.body.data.id, key);
    const replay = await f.post('/content/accounts/add', key, {
      account: { url: 'https://tiktok.com/@FitJoe' },
      filters: { limit: 2 },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.meta.replayed).toBe(true);
    expect(replay.body.data.id).toBe(first.body.data.id);
    // content_add_accounts allows 2 calls a minute per key
    const second = (await f.key(teamId)).key;
    const wider = await f.post('/content/accounts/add', second, {
      account: { url: ACCOUNT },
      filters: { limit: 3, keywords: 'a' },
    });
    expect(wider.status).toBe(202);
    const done = await f.settle(wider.body.data.id, key);
    const again = done.body.data;
    expect(again.skipped.every((s: any) => s.reason === 'already_complete')).toBe(true);
    expect(again.credits.reserved).toBe(again.accepted.length);
    await f.idle(teamId);
  });

  it.each([
    [{ account: { url: 'https://www.reddit.com/user/someone' } }, 'is not a supported account'],
    [{ account: { url: 'nope' } }, 'is not a valid URL'],
    [{}, 'account'],
    [{ account: { url: ACCOUNT }, filters: { limit: 101 } }, 'filters.limit must not be greater than 100'],
    [{ account: { url: ACCOUNT }, filters: { since: 'yesterday' } }, 'filters.since must be an ISO 8601'],
    [
      { account: { url: ACCOUNT }, filters: { since: '2026-02-30' } },
      'filters.since must be an ISO 8601 date or date-time that exists in the calendar, got "2026-02-30"',
    ],
    [
      { account: { url: ACCOUNT }, filters: { since: '2025-02-29' } },
      'filters.since must be an ISO 8601 date or date-time that exists in the calendar, got "2025-02-29"',
    ],
    [
      { account: { url: ACCOUNT }, filters: { until: '2026-04-31' } },
      'filters.until must be an ISO 8601 date or date-time that exists in the calendar, got "2026-04-31"',
    ],
    [
      { account: { url: ACCOUNT }, filters: { until: '2026-13-01' } },
      'filters.until must be an ISO 8601 date or date-time that exists in the calendar, got "2026-13-01"',
    ],
    [
      { account: { url: ACCOUNT }, filters: { until: '2026-09-30T24:00:00Z' } },
      'filters.until must be an ISO 8601 date or date-time that exists in the calendar, got "2026-09-30T24:00:00Z"',
    ],
    [
      { account: { url: ACCOUNT }, filters: { since: '2026-03-05', until: '2026-03-01' } },
      'filters.since must not be after filters.until',
    ],
    [
      { account: { url: ACCOUNT }, filters: { since: '2026-11-02' } },
      `filters.since must not be after filters.until, which defaults to now (${NOW})`,
    ],
    [
      { account: { url: ACCOUNT }, filters: { keywords: { term: 'x', match: 'fuzzy' } } },
      'filters.keywords.match must be one of',
    ],
    [
      { account: { url: ACCOUNT }, filters: { keywords: 3 } },
      'filters.keywords must be a string or { term, match }',
    ],
    [
      { account: { url: ACCOUNT }, filters: { keywords: 'k'.repeat(101) } },
      'filters.keywords terms are at most 100 characters, got 101',
    ],
    [
      {
        account: { url: ACCOUNT },
        filters: { keywords: { term: 'k'.repeat(1_000_000), match: 'excludes' } },
      },
      'filters.keywords terms are at most 100 characters',
    ],
    [{ account: { url: ACCOUNT }, filters: { postType: 'podcast' } }, 'filters.postType must be one of'],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const head = await f.events.headPosition();
    const res = await f.post('/content/accounts/add', key, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await f.events.headPosition()).toBe(head);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 5, reserved: 0 });
    expect((await f.get('/content/jobs', key)).body.data).toEqual([]);
  });

  it('reads a bare since as the start of its UTC day and a bare until as its last millisecond, takes real leap days and zone offsets, and discovers only inside that window', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const bare = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      dryRun: true,
      filters: { since: '2024-02-29', until: '2026-10-15', limit: 100 },
    });
    expect(bare.status).toBe(202);
    expect(bare.body.data.filters).toMatchObject({
      since: '2024-02-29T00:00:00.000Z',
      until: '2026-10-15T23:59:59.999Z',
    });
    const done = await f.settle(bare.body.data.id, key);
    expect(done.body.data.filters).toEqual(bare.body.data.filters);
    const expected = await sim.discoverAccount(ACCOUNT, {
      since: '2024-02-29T00:00:00.000Z',
      until: '2026-10-15T23:59:59.999Z',
      limit: 100,
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(done.body.data.discovered.map((d: any) => d.link)).toEqual(expected.map((p) => p.link));
    for (const d of done.body.data.discovered) expect(d.postedAt <= '2026-10-15T23:59:59.999Z').toBe(true);
    const zoned = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      dryRun: true,
      filters: { since: '2026-10-01T00:30:00+02:00', until: '2026-10-15T10:00:00-0130' },
    });
    expect(zoned.status).toBe(202);
    expect(zoned.body.data.filters).toMatchObject({
      since: '2026-09-30T22:30:00.000Z',
      until: '2026-10-15T11:30:00.000Z',
    });
    await f.settle(zoned.body.data.id, key);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 5, reserved: 0 });
  });

  it('echoes the until it applied (the acceptance time) when none is given, and a later replay answers with that same echo', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key } = await f.key(teamId);
    f.clock.set('2026-10-20T08:15:00.000Z');
    const body = { account: { url: ACCOUNT }, dryRun: true, filters: { since: '2026-10-01', limit: 50 } };
    const first = await f.post('/content/accounts/add', key, body);
    expect(first.status).toBe(202);
    expect(first.body.data.filters).toEqual({
      since: '2026-10-01T00:00:00.000Z',
      until: '2026-10-20T08:15:00.000Z',
      limit: 50,
      keywords: null,
      minViews: null,
      minLikes: null,
      postType: null,
    });
    expect(first.body.data.createdAt).toBe('2026-10-20T08:15:00.000Z');
    const done = await f.settle(first.body.data.id, key);
    expect(done.body.data.filters).toEqual(first.body.data.filters);
    // discovery used that bound: nothing posted after the acceptance time, though the account has later posts
    const expected = await sim.discoverAccount(ACCOUNT, {
      since: '2026-10-01T00:00:00.000Z',
      until: '2026-10-20T08:15:00.000Z',
      limit: 50,
    });
    expect(done.body.data.discovered.map((d: any) => d.link)).toEqual(expected.map((p) => p.link));
    const later = await sim.discoverAccount(ACCOUNT, { since: '2026-10-20T08:15:00.001Z', limit: 50 });
    expect(later.length).toBeGreaterThan(0);

    f.clock.advance(6 * 3_600_000);
    const second = (await f.key(teamId)).key; // content_add_accounts allows 2 calls a minute per key
    const head = await f.events.headPosition();
    const replay = await f.post('/content/accounts/add', second, body);
    expect(replay.status).toBe(200);
    expect(replay.body.meta.replayed).toBe(true);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.body.data.filters).toEqual(first.body.data.filters);
    expect(await f.events.headPosition()).toBe(head);
    // naming the same until explicitly is a different request: a new job, echoing that until
    const explicit = await f.post('/content/accounts/add', second, {
      ...body,
      filters: { ...body.filters, until: '2026-10-20T08:15:00.000Z' },
    });
    expect(explicit.status).toBe(202);
    expect(explicit.body.meta.replayed).toBe(false);
    expect(explicit.body.data.filters.until).toBe('2026-10-20T08:15:00.000Z');
    await f.settle(explicit.body.data.id, key);
  });

  it('needs accounts:write', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId, ['posts:write', 'posts:read']);
    expect((await f.post('/content/accounts/add', key, { account: { url: ACCOUNT } })).status).toBe(403);
  });
});

describe('POST /content/accounts/add: the discovery bound', () => {
  /** Fails the first discovery and moves the clock an hour on, so the retry would see a later "now". */
  class FlakyProvider extends SimulatedProvider {
    readonly queries: AccountQuery[] = [];
    constructor(private readonly clock: FixedClock) {
      super();
    }
    override async discoverAccount(url: string, query: AccountQuery): Promise<DiscoveredPost[]> {
      this.queries.push(query);
      if (this.queries.length === 1) {
        this.clock.advance(3_600_000);
        throw new Error('simulated: flaky once');
      }
      return super.discoverAccount(url, query);
    }
  }
  const clock = new FixedClock('2026-10-20T08:15:00.000Z');
  const provider = new FlakyProvider(clock);
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ clock, ingest: { provider } })));
  afterAll(() => f.close());

  it('asks the provider for the until the job echoes on every attempt, not the worker clock at the retry', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/accounts/add', key, {
      account: { url: ACCOUNT },
      dryRun: true,
      filters: { limit: 30 },
    });
    expect(res.status).toBe(202);
    expect(res.body.data.filters.until).toBe('2026-10-20T08:15:00.000Z');
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(provider.queries).toEqual([
      { until: '2026-10-20T08:15:00.000Z', limit: 30 },
      { until: '2026-10-20T08:15:00.000Z', limit: 30 },
    ]);
    expect(clock.now().toISOString()).toBe('2026-10-20T09:15:00.000Z');
    expect(done.body.data.filters.until).toBe('2026-10-20T08:15:00.000Z');
    for (const d of done.body.data.discovered) expect(d.postedAt <= '2026-10-20T08:15:00.000Z').toBe(true);
  });
});
