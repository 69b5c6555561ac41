import { simulatedCommentCount } from '@analyst/provider-sim';
import { readActivity, readPostComments, findPost } from '@analyst/ingest';
import { ingestTest, LINKS, type IngestTest } from './ingest-fixture';

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
    expect(done.body.data.counts).toEqual({ requested: 2, accepted: 2, skipped: 0, rejected: 0, syncing: 0, complete: 2, failed: 0 });
    expect(done.body.data.accepted.map((a: any) => a.postStatus)).toEqual(['complete', 'complete']);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 8, reserved: 0 });
    expect(done.body.data.credits).toEqual({ source: 'auto', perPost: 1, reserved: 2, settled: 2, refunded: 0 });

    const post = await findPost(f.store, postId);
    expect(post).toMatchObject({ status: 'complete', addedVia: 'api', addedBy: { id: keyId, name }, teamId, dataVersion: 1, platform: 'youtube', tags: ['Launch', 'Q1'], isDemo: false });
    expect(post!.totalComments).toBe(simulatedCommentCount(links[0]));
    const comments = await readPostComments(f.store, teamId, postId);
    expect(comments!.comments).toHaveLength(simulatedCommentCount(links[0]));
    expect(comments!.comments[0]).toMatchObject({ teamId, postId, dataVersion: 1, scorer: { name: 'flat-test-scorer', version: '0.0.1' }, scores: { sentiment: 6 } });
    const activity = await readActivity(f.store, teamId);
    expect(activity.map((a) => a.message)).toEqual([`post added by API key ${keyId} (${name})`, `post added by API key ${keyId} (${name})`]);
  });
});
