import { FixedClock } from '@analyst/platform';
import { findPost, readPostComments } from '@analyst/ingest';
import { normalizeLink } from '@analyst/links';
import { ingestTest, LINKS, START, type IngestTest } from './ingest-fixture';

const HOUR = 3_600_000;
/** The URL a refresh entry names a post by: the post's stored (normalized) link. */
const urlOf = (link: string): string => normalizeLink(link) ?? link;
const at = (hours: number) => new Date(new Date(START).getTime() + hours * HOUR).toISOString();

describe('POST /content/posts/refresh', () => {
  const clock = new FixedClock(START);
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ clock })));
  afterAll(() => f.close());
  beforeEach(() => clock.set(START));

  /** A team with one completed post per link, added at START. */
  async function withPosts(
    plan: string,
    links: string[],
    credits: { maps?: number; adhoc?: number } = { maps: 0, adhoc: 20 },
  ) {
    const teamId = await f.team(plan, credits);
    const { key } = await f.key(teamId);
    const added = await f.post('/content/posts/add', key, { links });
    await f.settle(added.body.data.id, key);
    await f.idle(teamId);
    return { teamId, key, postIds: added.body.data.accepted.map((a: any) => a.postId as string) };
  }

  it('skips a post refreshed less than 12 hours ago with min_interval and nextRefreshAt, uncharged', async () => {
    const { teamId, key, postIds } = await withPosts('enterprise', [LINKS.x(2)]);
    clock.set(at(11));
    const res = await f.post('/content/posts/refresh', key, { postIds });
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/analyst/v1/content/jobs/${res.body.data.id}`);
    // Answered syncing (spec: creation row); nothing was accepted, so the next read has it failed.
    expect(res.body.data).toMatchObject({
      kind: 'refresh',
      minRefreshIntervalHours: 12,
      accepted: [],
      status: 'syncing',
    });
    // Named by postId in the request, the entry still carries the post's URL as `link`.
    expect(res.body.data.skipped).toEqual([
      { link: urlOf(LINKS.x(2)), reason: 'min_interval', postId: postIds[0], nextRefreshAt: at(12) },
    ]);
    expect((await f.get(`/content/jobs/${res.body.data.id}`, key)).body.data).toMatchObject({
      status: 'failed',
      error: { code: 'nothing_added' },
    });
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 19, reserved: 0 });
  });

  it('refreshes free inside the included cadence (hourly on Enterprise): new data version, updatedAt moves, nothing charged', async () => {
    const link = LINKS.reddit('c3abcdefgh');
    const { teamId, key, postIds } = await withPosts('enterprise', [link]);
    clock.set(at(12));
    const res = await f.post('/content/posts/refresh', key, { links: [link], capture: { commentLimit: 20 } });
    expect(res.status).toBe(202);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.data.accepted).toEqual([
      {
        link,
        postId: postIds[0],
        postStatus: expect.stringMatching(/fetching|processing|complete/),
        creditSource: 'included',
        creditCost: 0,
        dataVersion: 2,
      },
    ]);
    expect(res.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 0,
      settled: 0,
      refunded: 0,
      included: 1,
    });
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('completed');
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 19, reserved: 0 });
    const post = await findPost(f.store, postIds[0]);
    expect(post).toMatchObject({
      dataVersion: 2,
      status: 'complete',
      lastRefreshedAt: at(12),
      updatedAt: at(12),
      totalComments: 20,
    });
    const comments = await readPostComments(f.store, f.events, teamId, postIds[0]);
    expect(comments!.dataVersion).toBe(2);
    expect(comments!.comments).toHaveLength(20);
    expect(comments!.comments.every((c) => c.dataVersion === 2 && c.scores !== null)).toBe(true);
  });

  it('charges 1 credit outside the cadence on a plan that may spend credits (Scale, daily), 5 with fullRead, free again after a day', async () => {
    const { teamId, key, postIds } = await withPosts('scale', [
      LINKS.youtube('c4abcdefgh'),
      LINKS.youtube('c5abcdefgh'),
    ]);
    clock.set(at(13));
    const paid = await f.post('/content/posts/refresh', key, { postIds: [postIds[0]] });
    expect(paid.body.data.accepted[0]).toMatchObject({
      creditSource: 'credit',
      creditCost: 1,
      dataVersion: 2,
    });
    const full = await f.post('/content/posts/refresh', key, {
      postIds: [postIds[1]],
      capture: { fullRead: true },
    });
    expect(full.body.data.accepted[0]).toMatchObject({
      creditSource: 'credit',
      creditCost: 5,
      dataVersion: 2,
    });
    expect(full.body.data.credits).toMatchObject({ perPost: 5, reserved: 5 });
    await f.settle(paid.body.data.id, key);
    await f.settle(full.body.data.id, key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20 - 2 - 1 - 5, reserved: 0 });
    clock.set(at(24));
    const again = await f.post('/content/posts/refresh', key, { postIds: [postIds[0]] });
    expect(again.body.data.skipped).toEqual([
      {
        link: urlOf(LINKS.youtube('c4abcdefgh')),
        reason: 'min_interval',
        postId: postIds[0],
        nextRefreshAt: at(25),
      },
    ]);
    clock.set(at(26));
    const free = await f.post('/content/posts/refresh', key, { postIds: [postIds[0]] });
    expect(free.body.data.accepted[0]).toMatchObject({
      creditSource: 'included',
      creditCost: 0,
      dataVersion: 3,
    });
  });

  it('answers cooldown on a plan that cannot spend credits on refresh (Growth, weekly), and is free after a week', async () => {
    const { teamId, key, postIds } = await withPosts('growth', [LINKS.tiktok(4)]);
    clock.set(at(13));
    const res = await f.post('/content/posts/refresh', key, { postIds });
    expect(res.body.data.skipped).toEqual([
      { link: urlOf(LINKS.tiktok(4)), reason: 'cooldown', postId: postIds[0] },
    ]);
    expect(res.body.data.status).toBe('syncing');
    expect((await f.get(`/content/jobs/${res.body.data.id}`, key)).body.data.status).toBe('failed');
    clock.set(at(7 * 24));
    const free = await f.post('/content/posts/refresh', key, { postIds });
    expect(free.body.data.accepted[0]).toMatchObject({ creditSource: 'included', creditCost: 0 });
    await f.settle(free.body.data.id, key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 19, reserved: 0 });
  });

  it('answers 402 with nothing created when no refresh can be funded, and rejects the unfunded ones next to free ones', async () => {
    const { teamId, key, postIds } = await withPosts('scale', [LINKS.facebook(2)], { maps: 0, adhoc: 1 });
    clock.set(at(13));
    const head = await f.events.headPosition();
    const res = await f.post('/content/posts/refresh', key, { postIds });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_credits');
    expect(await f.events.headPosition()).toBe(head);
    // a second post added at +13h: at +25h the first is free (a day since its creation), the second would cost 1
    const later = await f.post('/content/posts/add', key, {
      links: [LINKS.facebook(3)],
      credits: { source: 'auto' },
    });
    expect(later.status).toBe(402);
    await f.grant(teamId, 1);
    const added = await f.post('/content/posts/add', key, { links: [LINKS.facebook(3)] });
    await f.settle(added.body.data.id, key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    clock.set(at(26));
    const second = added.body.data.accepted[0].postId;
    const mixed = await f.post('/content/posts/refresh', key, { postIds: [postIds[0], second] });
    expect(mixed.status).toBe(202);
    expect(mixed.body.data.accepted).toEqual([
      expect.objectContaining({ postId: postIds[0], creditSource: 'included' }),
    ]);
    expect(mixed.body.data.rejected).toEqual([
      { link: urlOf(added.body.data.accepted[0].link), reason: 'insufficient_credits' },
    ]);
    expect((await f.settle(mixed.body.data.id, key)).body.data.status).toBe('partial');
  });

  it("rejects unknown ids as not_found, other teams' posts without revealing them, links not on the team as not_on_team, and skips unreachable posts", async () => {
    const unreachable = 'https://instagram.com/p/sim-unreachable-3';
    const mine = await withPosts('enterprise', [LINKS.threads('c2abcdefgh'), unreachable]);
    const theirs = await withPosts('enterprise', [LINKS.threads('c4abcdefgh')]);
    clock.set(at(13));
    const res = await f.post('/content/posts/refresh', mine.key, {
      postIds: ['po_unknown', theirs.postIds[0], mine.postIds[1]],
      links: [
        LINKS.threads('c4abcdefgh'),
        'https://example.com/x',
        LINKS.threads('c2abcdefgh'),
        LINKS.threads('c2abcdefgh'),
      ],
    });
    expect(res.status).toBe(202);
    expect(res.body.data.rejected).toEqual([
      { link: 'po_unknown', reason: 'not_found' },
      { link: theirs.postIds[0], reason: 'not_found' },
      { link: LINKS.threads('c4abcdefgh'), reason: 'not_on_team' },
      { link: 'https://example.com/x', reason: 'unsupported_platform' },
    ]);
    expect(res.body.data.skipped).toEqual([
      { link: urlOf(unreachable), reason: 'unreachable', postId: mine.postIds[1] },
      { link: LINKS.threads('c2abcdefgh'), reason: 'duplicate_in_batch', postId: mine.postIds[0] },
    ]);
    expect(res.body.data.accepted).toEqual([
      expect.objectContaining({ postId: mine.postIds[0], dataVersion: 2 }),
    ]);
    expect(res.body.data.counts).toMatchObject({ requested: 7, accepted: 1, skipped: 2, rejected: 4 });
  });

  it('never replays an identical refresh request, and refuses an empty one with 400', async () => {
    const { key, postIds } = await withPosts('enterprise', [LINKS.linkedin(3)]);
    clock.set(at(12));
    const first = await f.post('/content/posts/refresh', key, { postIds });
    const second = await f.post('/content/posts/refresh', key, { postIds });
    expect(second.status).toBe(202);
    expect(second.body.meta.replayed).toBe(false);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.skipped[0].reason).toMatch(/already_processing|min_interval/);
    expect((await f.post('/content/posts/refresh', key, {})).status).toBe(400);
    expect((await f.post('/content/posts/refresh', key, { postIds: 'po_1' })).status).toBe(400);
  });
});
