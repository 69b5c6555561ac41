import {
  AddPostsHandler,
  POSTS,
  findTeamCollections,
  readActivity,
  seedDemoContent,
  type PostDoc,
} from '@analyst/ingest';
import { eventually } from '@analyst/testing';
import { ingestTest, type IngestTest } from './ingest-fixture';

describe('demo content', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('adds 60 demo posts across the eight platforms, in two campaigns with nested groups, through the add path', async () => {
    const teamId = await f.team('enterprise', { maps: 0, adhoc: 1000 });
    const key = await f.key(teamId, undefined, 'Demo key');
    const result = await seedDemoContent(f.t.app, teamId, { id: key.id, name: key.name });
    expect(result.posts).toBe(60);
    expect(result.jobs.every((j) => j.rejected.length === 0 && j.skipped.length === 0)).toBe(true);
    await eventually(
      async () =>
        (await f.store.collection<PostDoc>(POSTS).count({ teamId, status: 'complete' })) +
          (await f.store
            .collection<PostDoc>(POSTS)
            .count({ teamId, status: { $in: ['failed', 'unreachable'] } })) ===
        60,
      20_000,
    );
    const posts = await f.store.collection<PostDoc>(POSTS).find({ teamId });
    expect(new Set(posts.map((p) => p.platform)).size).toBe(8);
    expect(posts.every((p) => p.isDemo && p.addedVia === 'api' && p.addedBy.id === key.id)).toBe(true);
    const collections = await findTeamCollections(f.store, teamId);
    expect(collections.filter((c) => c.type === 'campaign').map((c) => c.name)).toEqual([
      'Spring Launch',
      'Community Pulse',
    ]);
    const groups = collections.filter((c) => c.type === 'group');
    expect(groups.map((g) => [g.name, g.parentId])).toEqual([
      ['Creator Partnerships', result.campaigns[0]],
      ['Launch Reactions', result.campaigns[0]],
      ['Forum Threads', result.campaigns[1]],
      ['Short Video', result.campaigns[1]],
    ]);
    expect(collections.reduce((n, c) => n + c.postCount, 0)).toBe(60);
    expect((await readActivity(f.store, teamId, 100)).length).toBe(60);
    await f.idle(teamId);
    const charged = posts.filter((p) => p.status === 'complete' && p.totalComments > 0).length;
    expect(charged).toBeGreaterThan(40);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 1000 - charged, reserved: 0 });
    expect(f.t.app.get(AddPostsHandler)).toBeInstanceOf(AddPostsHandler);
  }, 120_000); // 60 posts fetched and scored: many seconds on a loaded 2-core machine
});
