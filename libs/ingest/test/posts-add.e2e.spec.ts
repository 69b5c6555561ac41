import { simulatedCommentCount } from '@analyst/provider-sim';
import { SCORER_NAME, SCORER_VERSION } from '@analyst/scoring';
import { collectionDecider, collectionStream } from '@analyst/domain-content';
import { readActivity, readPostComments, findPost } from '@analyst/ingest';
import { CommandRunner, ProjectionService } from '@analyst/platform';
import { ingestTest, LINKS, START, type IngestTest } from './ingest-fixture';

describe('POST /content/posts/add', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('accepts posts as fetching, answers 202 with Location and Retry-After, then scores them to complete and settles the credits', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key, id: keyId, name } = await f.key(teamId);
    const links = [LINKS.youtube('c1abcdefgh'), LINKS.tiktok(1)];
    const res = await f.post('/content/posts/add', key, { links, tags: ['#Launch', 'launch', ' Q1 '] });
    expect(res.status).toBe(202);
    const job = res.body.data;
    expect(res.headers.location).toBe(`/analyst/v1/content/jobs/${job.id}`);
    expect(res.headers['retry-after']).toBe('5');
    expect(job).toMatchObject({
      kind: 'posts',
      status: 'syncing',
      tags: ['Launch', 'Q1'],
      credits: { source: 'auto', perPost: 1, reserved: 2 },
      counts: { requested: 2, accepted: 2, skipped: 0, rejected: 0 },
      skipped: [],
      rejected: [],
      pollAfterMs: 5000,
    });
    expect(job.id).toMatch(/^cj_/);
    expect(job.accepted.map((a: any) => a.link)).toEqual(links);
    expect(res.body.meta).toEqual({ status: 'syncing', pollAfterMs: 5000, replayed: false });
    const postId = job.accepted[0].postId as string;
    expect(postId).toMatch(/^po_/);

    const done = await f.settle(job.id, key);
    expect(done.body.data.status).toBe('completed');
    expect(done.headers['retry-after']).toBeUndefined();
    expect(done.body.data.counts).toEqual({
      requested: 2,
      accepted: 2,
      skipped: 0,
      rejected: 0,
      syncing: 0,
      complete: 2,
      failed: 0,
    });
    expect(done.body.data.accepted.map((a: any) => a.postStatus)).toEqual(['complete', 'complete']);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 8, reserved: 0 });
    expect(done.body.data.credits).toEqual({
      source: 'auto',
      perPost: 1,
      reserved: 2,
      settled: 2,
      refunded: 0,
    });

    const post = await findPost(f.store, postId);
    expect(post).toMatchObject({
      status: 'complete',
      addedVia: 'api',
      addedBy: { id: keyId, name },
      teamId,
      dataVersion: 1,
      platform: 'youtube',
      tags: ['Launch', 'Q1'],
      isDemo: false,
    });
    expect(post!.totalComments).toBe(simulatedCommentCount(links[0])!);
    const comments = await readPostComments(f.store, f.events, teamId, postId);
    expect(comments!.comments).toHaveLength(simulatedCommentCount(links[0])!);
    expect(comments!.comments[0]).toMatchObject({
      teamId,
      postId,
      dataVersion: 1,
      scorer: { name: SCORER_NAME, version: SCORER_VERSION },
    });
    for (const c of comments!.comments) {
      expect(c.scorer).toEqual({ name: SCORER_NAME, version: SCORER_VERSION });
      for (const v of Object.values(c.scores!)) if (v !== null) expect(v >= 1 && v <= 10).toBe(true);
    }
    expect(post!.scorer).toEqual({ name: SCORER_NAME, version: SCORER_VERSION });
    expect(post!.topics.length).toBeGreaterThan(0);
    const activity = await readActivity(f.store, teamId);
    expect(activity.map((a) => a.message)).toEqual([
      `post added by API key ${keyId} (${name})`,
      `post added by API key ${keyId} (${name})`,
    ]);
  });
});

describe('POST /content/posts/add: per-link reasons, collections, replay, funding', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('rejects invalid_url and unsupported_platform uncharged, and skips duplicate_in_batch after normalization', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const yt = LINKS.youtube('c4abcdefgh');
    const res = await f.post('/content/posts/add', key, {
      links: [
        'not a url',
        'https://example.com/some/post',
        yt,
        'https://youtu.be/c4abcdefghx?si=tracking',
        `${yt}&utm_source=newsletter`,
      ],
    });
    expect(res.status).toBe(202);
    const job = res.body.data;
    expect(job.rejected).toEqual([
      { link: 'not a url', reason: 'invalid_url' },
      { link: 'https://example.com/some/post', reason: 'unsupported_platform' },
    ]);
    expect(job.skipped).toEqual([
      { link: 'https://youtu.be/c4abcdefghx?si=tracking', reason: 'duplicate_in_batch' },
      { link: `${yt}&utm_source=newsletter`, reason: 'duplicate_in_batch' },
    ]);
    expect(job.accepted).toHaveLength(1);
    expect(job.counts).toMatchObject({ requested: 5, accepted: 1, skipped: 2, rejected: 2 });
    const done = await f.settle(job.id, key);
    expect(done.body.data.status).toBe('partial');
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
  });

  it('skips a post already on the team as already_complete, uncharged, and still applies collections and tags to it', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const link = LINKS.reddit('c1abcdefgh');
    const first = await f.post('/content/posts/add', key, { links: [link], tags: ['one'] });
    await f.settle(first.body.data.id, key);
    const postId = first.body.data.accepted[0].postId;
    const again = await f.post('/content/posts/add', key, {
      links: [link.replace('https://www.', 'https://old.')],
      tags: ['two', 'ONE'],
      collections: [{ name: 'Spring' }],
    });
    expect(again.status).toBe(202);
    expect(again.body.data.skipped).toEqual([
      { link: link.replace('https://www.', 'https://old.'), reason: 'already_complete' },
    ]);
    expect(again.body.data.accepted).toEqual([]);
    // The creating response is syncing (spec: Content job status); the next read has settled it failed.
    expect(again.body.data.status).toBe('syncing');
    const read = await f.get(`/content/jobs/${again.body.data.id}`, key);
    expect(read.body.data.status).toBe('failed');
    expect(read.body.data.error).toEqual({
      code: 'nothing_added',
      message: 'nothing was added: every link was skipped or rejected',
    });
    const spring = again.body.data.collections[0];
    expect(spring).toMatchObject({ name: 'Spring', type: 'campaign', created: true });
    const post = await findPost(f.store, postId);
    expect(post!.tags).toEqual(['one', 'two']);
    expect(post!.collectionIds).toEqual([spring.id]);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
  });

  it('resolves collections by id and by name (case-insensitive), creates campaigns and nested groups, and counts their posts', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const a = await f.post('/content/posts/add', key, {
      links: [LINKS.x(1)],
      collections: [{ name: 'Summer Launch' }],
    });
    const campaign = a.body.data.collections[0];
    expect(campaign).toEqual({
      id: expect.stringMatching(/^col_/),
      name: 'Summer Launch',
      type: 'campaign',
      created: true,
    });
    const b = await f.post('/content/posts/add', key, {
      links: [LINKS.x(2)],
      collections: [{ name: 'summer launch' }, { name: 'Creators', type: 'group', parentId: campaign.id }],
    });
    expect(b.status).toBe(202);
    expect(b.body.data.collections).toEqual([
      { id: campaign.id, name: 'Summer Launch', type: 'campaign', created: false },
      { id: expect.stringMatching(/^col_/), name: 'Creators', type: 'group', created: true },
    ]);
    const group = b.body.data.collections[1];
    const c = await f.post('/content/posts/add', key, {
      links: [LINKS.x(3)],
      collections: [{ id: group.id }],
    });
    expect(c.body.data.collections).toEqual([
      { id: group.id, name: 'Creators', type: 'group', created: false },
    ]);
    const { findTeamCollections } = await import('@analyst/ingest');
    const collections = await findTeamCollections(f.store, teamId);
    expect(
      collections.map((x) => ({ name: x.name, type: x.type, parentId: x.parentId, postCount: x.postCount })),
    ).toEqual([
      { name: 'Summer Launch', type: 'campaign', parentId: null, postCount: 2 },
      { name: 'Creators', type: 'group', parentId: campaign.id, postCount: 2 },
    ]);
  });

  /** A collection made outside this route (the app, or before names were matched on name alone). */
  async function collectionMadeElsewhere(
    teamId: string,
    name: string,
    type: 'campaign' | 'group',
    parent: string | null = null,
  ): Promise<string> {
    const collectionId = `col_elsewhere_${name.replace(/\W/g, '')}_${type}_${Math.random().toString(36).slice(2, 8)}`;
    const outcome = await f.t.app.get(CommandRunner).run(
      collectionStream(collectionId),
      collectionDecider,
      {
        type: 'CreateCollection',
        data: {
          collectionId,
          teamId,
          name,
          collectionType: type,
          parentId: parent,
          parent: parent ? { collectionId: parent, type: 'campaign' } : null,
          createdVia: 'api',
          at: START,
        },
      },
      { correlationId: 'test', teamId },
    );
    await f.t.app.get(ProjectionService).waitFor(outcome.position);
    return collectionId;
  }

  it('matches a collection name on the name alone: type does not narrow the match, so no second collection of that name is made', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const parent = (
      await f.post('/content/posts/add', key, { links: [LINKS.x(31)], collections: [{ name: 'Parent' }] })
    ).body.data.collections[0];
    const made = await f.post('/content/posts/add', key, {
      links: [LINKS.x(32)],
      collections: [{ name: 'Solo', type: 'group', parentId: parent.id }],
    });
    const solo = made.body.data.collections[0];
    expect(solo).toEqual({ id: expect.stringMatching(/^col_/), name: 'Solo', type: 'group', created: true });
    const plain = await f.post('/content/posts/add', key, {
      links: [LINKS.x(33)],
      collections: [{ name: 'solo' }],
    });
    expect(plain.status).toBe(202);
    expect(plain.body.data.collections).toEqual([
      { id: solo.id, name: 'Solo', type: 'group', created: false },
    ]);
    // the audit's case: type campaign used to miss the group and create a campaign "SOLO"
    const typed = await f.post('/content/posts/add', key, {
      links: [LINKS.x(34)],
      collections: [{ name: 'SOLO', type: 'campaign' }],
    });
    expect(typed.status).toBe(202);
    expect(typed.body.data.collections).toEqual([
      { id: solo.id, name: 'Solo', type: 'group', created: false },
    ]);
    // ... after which a bare name was 409 for good; now it still resolves to the one collection
    const after = await f.post('/content/posts/add', key, {
      links: [LINKS.x(35)],
      collections: [{ name: 'Solo' }],
    });
    expect(after.status).toBe(202);
    expect(after.body.data.collections).toEqual([
      { id: solo.id, name: 'Solo', type: 'group', created: false },
    ]);
    // a group named like an existing collection under another campaign is the existing collection too
    const other = (
      await f.post('/content/posts/add', key, { links: [LINKS.x(36)], collections: [{ name: 'Other' }] })
    ).body.data.collections[0];
    const grouped = await f.post('/content/posts/add', key, {
      links: [LINKS.x(37)],
      collections: [{ name: 'solo', type: 'group', parentId: other.id }],
    });
    expect(grouped.body.data.collections).toEqual([
      { id: solo.id, name: 'Solo', type: 'group', created: false },
    ]);
    const { findTeamCollections } = await import('@analyst/ingest');
    const collections = await findTeamCollections(f.store, teamId);
    expect(
      collections.map((x) => ({ name: x.name, type: x.type, parentId: x.parentId, postCount: x.postCount })),
    ).toEqual([
      { name: 'Parent', type: 'campaign', parentId: null, postCount: 1 },
      { name: 'Solo', type: 'group', parentId: parent.id, postCount: 5 },
      { name: 'Other', type: 'campaign', parentId: null, postCount: 1 },
    ]);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 3, reserved: 0 });
  });

  it('creates a name given twice in one request once, whatever the case or type', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const res = await f.post('/content/posts/add', key, {
      links: [LINKS.x(41)],
      collections: [{ name: 'Fresh' }, { name: 'FRESH', type: 'campaign' }, { name: ' fresh ' }],
    });
    expect(res.status).toBe(202);
    expect(res.body.data.collections).toEqual([
      { id: expect.stringMatching(/^col_/), name: 'Fresh', type: 'campaign', created: true },
    ]);
    const { findTeamCollections } = await import('@analyst/ingest');
    expect((await findTeamCollections(f.store, teamId)).map((c) => c.name)).toEqual(['Fresh']);
  });

  it('answers 409 collection_name_ambiguous with every same-named collection as candidates, whatever the type given, before touching any credit', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const campaign = await collectionMadeElsewhere(teamId, 'Launch', 'campaign');
    const otherId = await collectionMadeElsewhere(teamId, 'Other', 'campaign');
    const group = await collectionMadeElsewhere(teamId, 'launch', 'group', otherId);
    const before = { credits: await f.credits(teamId), head: await f.events.headPosition() };
    for (const ref of [
      { name: 'LAUNCH' },
      { name: 'launch', type: 'campaign' },
      { name: 'Launch', type: 'group', parentId: otherId },
    ]) {
      const res = await f.post('/content/posts/add', key, { links: [LINKS.x(14)], collections: [ref] });
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        message: `collection name "${ref.name}" matches 2 collections; pass one of their ids`,
        code: 'collection_name_ambiguous',
        candidates: [campaign, group],
      });
    }
    expect(await f.credits(teamId)).toEqual(before.credits);
    expect(await f.events.headPosition()).toBe(before.head);
    expect((await f.get('/content/jobs', key)).body.data).toEqual([]);
    // an id picks one of them
    const byId = await f.post('/content/posts/add', key, {
      links: [LINKS.x(14)],
      collections: [{ id: campaign }],
    });
    expect(byId.status).toBe(202);
    expect(byId.body.data.collections).toEqual([
      { id: campaign, name: 'Launch', type: 'campaign', created: false },
    ]);
  });

  it('replays an identical request with 200 and meta.replayed, running nothing again; a different request is a new job', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const body = {
      links: [LINKS.instagram('c1abcdefgh')],
      tags: ['a'],
      collections: [{ name: 'Replay' }],
      capture: { commentLimit: 10 },
    };
    const first = await f.post('/content/posts/add', key, body);
    expect(first.status).toBe(202);
    await f.idle(teamId);
    const head = await f.events.headPosition();
    const again = await f.post('/content/posts/add', key, {
      capture: { commentLimit: 10 },
      collections: [{ name: 'Replay' }],
      tags: ['a'],
      links: body.links,
    });
    expect(again.status).toBe(200);
    expect(again.body.meta.replayed).toBe(true);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.collections[0].created).toBe(true);
    expect(again.headers.location).toBe(`/analyst/v1/content/jobs/${first.body.data.id}`);
    expect(await f.events.headPosition()).toBe(head);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 9, reserved: 0 });
    const different = await f.post('/content/posts/add', key, { ...body, tags: ['b'] });
    expect(different.status).toBe(202);
    expect(different.body.meta.replayed).toBe(false);
    expect(different.body.data.id).not.toBe(first.body.data.id);
    expect(different.body.data.skipped).toEqual([
      { link: body.links[0], reason: expect.stringMatching(/^already_/) },
    ]);
  });

  it('does not replay after the 30-day retention, when the old job is gone', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const { key } = await f.key(teamId);
    const body = { links: [LINKS.threads('c4abcdefgh')] };
    const first = await f.post('/content/posts/add', key, body);
    await f.settle(first.body.data.id, key);
    f.clock.advance(30 * 86_400_000 + 1000);
    try {
      expect((await f.get(`/content/jobs/${first.body.data.id}`, key)).status).toBe(404);
      const again = await f.post('/content/posts/add', key, body);
      expect(again.status).toBe(202);
      expect(again.body.meta.replayed).toBe(false);
      expect(again.body.data.skipped).toEqual([{ link: body.links[0], reason: 'already_complete' }]);
    } finally {
      f.clock.set('2026-03-10T12:00:00.000Z');
    }
  });

  it('answers 402 and creates nothing when no post can be funded', async () => {
    const teamId = await f.team('scale', { maps: 0 });
    const { key } = await f.key(teamId);
    const head = await f.events.headPosition();
    const res = await f.post('/content/posts/add', key, {
      links: [LINKS.x(21), LINKS.x(22)],
      collections: [{ name: 'Never made' }],
    });
    expect(res.status).toBe(402);
    expect(res.body.error).toEqual({
      message: expect.stringContaining('insufficient credits'),
      code: 'insufficient_credits',
    });
    expect(await f.events.headPosition()).toBe(head);
    expect((await f.get('/content/jobs', key)).body.data).toEqual([]);
    const { findTeamCollections } = await import('@analyst/ingest');
    expect(await findTeamCollections(f.store, teamId)).toEqual([]);
    // Ad Hoc only: MAPs do not count
    const withMaps = await f.team('scale', { maps: 3 });
    const k2 = (await f.key(withMaps)).key;
    expect(
      (await f.post('/content/posts/add', k2, { links: [LINKS.x(23)], credits: { source: 'adhoc' } })).status,
    ).toBe(402);
    // full read needs 5 credits per post
    expect(
      (await f.post('/content/posts/add', k2, { links: [LINKS.x(23)], capture: { fullRead: true } })).status,
    ).toBe(402);
  });

  it('rejects the rest with insufficient_credits when credits run out partway, and the job succeeds for the funded posts', async () => {
    const teamId = await f.team('scale', { maps: 1, adhoc: 1 });
    const { key } = await f.key(teamId);
    const links = [LINKS.facebook(2), LINKS.facebook(3), LINKS.facebook(4), LINKS.facebook(5)];
    const res = await f.post('/content/posts/add', key, { links });
    expect(res.status).toBe(202);
    expect(res.body.data.accepted.map((a: any) => a.link)).toEqual(links.slice(0, 2));
    expect(res.body.data.rejected).toEqual([
      { link: links[2], reason: 'insufficient_credits' },
      { link: links[3], reason: 'insufficient_credits' },
    ]);
    const done = await f.settle(res.body.data.id, key);
    expect(done.body.data.status).toBe('partial');
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
  });

  it('charges 5 credits per post with capture.fullRead, and commentLimit caps the comments fetched', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const { key } = await f.key(teamId);
    const full = await f.post('/content/posts/add', key, {
      links: [LINKS.tiktok(5)],
      capture: { fullRead: true, commentLimit: 10 },
    });
    expect(full.body.data.credits).toMatchObject({ perPost: 5, reserved: 5 });
    const capped = await f.post('/content/posts/add', key, {
      links: [LINKS.tiktok(6)],
      capture: { commentLimit: 25 },
    });
    expect(capped.body.data.credits).toMatchObject({ perPost: 1, reserved: 1 });
    await f.settle(full.body.data.id, key);
    await f.settle(capped.body.data.id, key);
    await f.idle(teamId);
    expect((await findPost(f.store, full.body.data.accepted[0].postId))!.totalComments).toBe(
      simulatedCommentCount(LINKS.tiktok(5))!,
    );
    expect((await findPost(f.store, capped.body.data.accepted[0].postId))!.totalComments).toBe(25);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 14, reserved: 0 });
  });

  it.each([
    ['links missing', {}, 'links must be an array'],
    ['an empty links list', { links: [] }, 'links must contain at least one post URL (1 to 100 per call)'],
    [
      'an empty links list with collections and tags',
      { links: [], collections: [{ name: 'Never made' }], tags: ['x'] },
      'links must contain at least one post URL',
    ],
    ['links not strings', { links: [1] }, 'each value in links must be a string'],
    [
      'more than 100 links',
      { links: Array.from({ length: 101 }, (_, i) => LINKS.x(i)) },
      'at most 100 links',
    ],
    ['an unknown field', { links: [LINKS.x(1)], extra: true }, 'property extra should not exist'],
    [
      'tags null (absent is the empty list, null is not)',
      { links: [LINKS.x(1)], tags: null },
      'tags must be an array',
    ],
    [
      'a bad credit source',
      { links: [LINKS.x(1)], credits: { source: 'maps' } },
      'credits.source must be one of',
    ],
    [
      'a bad comment limit',
      { links: [LINKS.x(1)], capture: { commentLimit: 0 } },
      'capture.commentLimit must not be less than 1',
    ],
    [
      'a collection with both id and name',
      { links: [LINKS.x(1)], collections: [{ id: 'col_x', name: 'x' }] },
      'give either id or name',
    ],
    [
      'an unknown collection id',
      { links: [LINKS.x(1)], collections: [{ id: 'col_nope' }] },
      'collection col_nope not found',
    ],
    [
      'a group without parent',
      { links: [LINKS.x(1)], collections: [{ name: 'g', type: 'group' }] },
      'a group needs parentId',
    ],
    [
      'a group under an unknown parent',
      { links: [LINKS.x(1)], collections: [{ name: 'g', type: 'group', parentId: 'col_nope' }] },
      'collections[0]: parent collection col_nope not found',
    ],
  ])('refuses a malformed body (%s) with 400 and writes nothing', async (_name, body, message) => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
    const { key } = await f.key(teamId);
    const head = await f.events.headPosition();
    const res = await f.post('/content/posts/add', key, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await f.events.headPosition()).toBe(head);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 5, reserved: 0 });
    expect((await f.get('/content/jobs', key)).body.data).toEqual([]);
    const { findTeamCollections } = await import('@analyst/ingest');
    expect(await findTeamCollections(f.store, teamId)).toEqual([]);
  });

  it('takes exactly 1 to 100 links: 100 pass validation (here to the fund check), 101 and 0 do not', async () => {
    const teamId = await f.team('scale', { maps: 0 });
    const { key } = await f.key(teamId);
    const hundred = Array.from({ length: 100 }, (_, i) => LINKS.x(100 + i));
    const ok = await f.post('/content/posts/add', key, { links: hundred });
    expect(ok.status).toBe(402);
    expect(ok.body.error).toEqual({
      message: 'insufficient credits: 100 post(s) at 1 credit(s) each cannot be funded',
      code: 'insufficient_credits',
    });
    const over = await f.post('/content/posts/add', key, { links: [...hundred, LINKS.x(200)] });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe('links: at most 100 links per call');
    const none = await f.post('/content/posts/add', key, { links: [] });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('links must contain at least one post URL (1 to 100 per call)');
    const one = await f.post('/content/posts/add', key, { links: [LINKS.x(201)] });
    expect(one.status).toBe(402);
  });
});

describe('content routes: a body that is not valid JSON', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it.each(['/content/posts/add', '/content/posts/refresh', '/content/accounts/add'])(
    '%s: 400 in the error envelope, nothing written or reserved',
    async (url) => {
      const teamId = await f.team('scale', { maps: 0, adhoc: 5 });
      const { key } = await f.key(teamId);
      const head = await f.events.headPosition();
      const res = await f.t.app.inject({
        method: 'POST',
        url: `/analyst/v1${url}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: '{"links": [',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { message: expect.stringMatching(/^the body is not valid JSON: /), code: 'malformed_body' },
      });
      expect(res.body).not.toContain('    at ');
      expect(await f.events.headPosition()).toBe(head);
      expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 5, reserved: 0 });
      expect((await f.get('/content/jobs', key)).body.data).toEqual([]);
    },
  );
});
