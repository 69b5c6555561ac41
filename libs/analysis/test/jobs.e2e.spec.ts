import Fastify from 'fastify';
import { CommentReadSide, EmbeddingsSearchModel } from '@analyst/comment-index';
import { postRefresh, postVersion } from '@analyst/testing';
import { analysisTest } from './analysis-fixture';
import { runJobRollingUp } from './run-job-rolling-up';

const at = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString();

describe('large selections run as jobs; truncation at 1,000', () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;
  let key: string;
  beforeAll(async () => {
    f = await analysisTest();
    const team = await f.team();
    key = team.key;
    await f.posts(
      team.teamId,
      Array.from({ length: 1001 }, (_, i) => ({
        id: `p${String(i).padStart(4, '0')}`,
        postedAt: at(i),
        comments: [{ s: i % 2 === 0 ? 9 : 2 }],
      })),
    );
  }, 120_000);
  afterAll(() => f.close());

  it('1,001 posts: 202, newest first, cut at 1,000 with selectionTruncated, then ready', async () => {
    const res = await f.post('/analyses', key, { selection: { posts: {} } });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'queued', postCount: 1000, selectionTruncated: true });
    expect(res.body.data.postIds[0]).toBe('p1000');
    expect(res.body.data.postIds).not.toContain('p0000');
    await f.jobs.drain();
    const done = (await f.get(`/analyses/${res.body.data.id}`, key)).body.data;
    expect(done.status).toBe('ready');
    // posts p0001..p1000: 500 even (9) and 500 odd (2)
    expect(done.scope).toEqual({
      postCount: 1000,
      totalComments: 1000,
      matchedComments: 1000,
      matchedPosts: 1000,
      shareOfComments: 1,
      shareOfContent: 1,
    });
    expect(done.commentAnalysis.mix.sentiment).toMatchObject({ positivePercent: 50, negativePercent: 50 });
    expect(done.content.posts).toHaveLength(100);
    expect(done.content.postsTruncated).toBe(true);
  });

  it('101 explicit ids run as a job; 100 stay inline', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${String(i).padStart(4, '0')}`);
    expect((await f.post('/analyses', key, { selection: { postIds: ids(101) } })).status).toBe(202);
    expect((await f.post('/analyses', key, { selection: { postIds: ids(100) } })).status).toBe(201);
    expect((await f.post('/analyses', key, { selection: { postIds: ids(1001) } })).status).toBe(400);
    await f.jobs.drain();
  });

  it('a stopped worker (as at shutdown) starts no job on its own; started again, it runs what was queued', async () => {
    const runJob = jest.spyOn(f.jobs, 'runJob');
    await f.jobs.stop();
    let id: string;
    try {
      const res = await f.post('/analyses', key, { selection: { posts: { max_score: 5 } } });
      expect(res.status).toBe(202);
      id = res.body.data.id;
      // A started worker begins a job it is handed before the request answers.
      expect(runJob).not.toHaveBeenCalled();
      expect((await f.get(`/analyses/${id}`, key)).body.data.status).toBe('queued');
    } finally {
      f.jobs.start();
    }
    await f.jobs.drain();
    expect(runJob).toHaveBeenCalledWith(id);
    runJob.mockRestore();
    expect((await f.get(`/analyses/${id}`, key)).body.data).toMatchObject({
      status: 'ready',
      postCount: 500,
    });
  });
});

describe('AI search through an embeddings endpoint (local stub server)', () => {
  const stub = Fastify();
  let fail = false;
  let url = '';
  beforeAll(async () => {
    // Two-dimensional "embeddings": texts mentioning battery point one way, the rest the other.
    stub.post('/embed', async (request, reply) => {
      if (fail) return reply.status(500).send({ error: 'down' });
      const { input } = request.body as { input: string[] };
      return {
        data: input.map((text, index) => ({ index, embedding: /battery/i.test(text) ? [1, 0] : [0, 1] })),
      };
    });
    url = `${await stub.listen({ host: '127.0.0.1', port: 0 })}/embed`;
  });
  afterAll(() => stub.close());

  it('ready with the matched comments, or failed with error.message when the endpoint fails', async () => {
    const f = await analysisTest({ searchModel: new EmbeddingsSearchModel(url) });
    try {
      const { teamId, key } = await f.team();
      await f.posts(teamId, [
        {
          id: 'e1',
          postedAt: at(1),
          comments: [
            { s: 9, body: 'battery lasts' },
            { s: 3, body: 'nice colour' },
            { s: 8, body: 'Battery!' },
          ],
        },
      ]);
      const ok = await f.post('/analyses', key, {
        selection: { postIds: ['e1'] },
        search: { query: 'battery', minRelevance: 0.5 },
      });
      expect(ok.status).toBe(202);
      await f.jobs.drain();
      const done = (await f.get(`/analyses/${ok.body.data.id}`, key)).body.data;
      expect(done.status).toBe('ready');
      expect(done.scope).toMatchObject({ totalComments: 3, matchedComments: 2, shareOfComments: 2 / 3 });
      fail = true;
      const bad = await f.post('/analyses', key, {
        selection: { postIds: ['e1'] },
        search: { query: 'battery' },
      });
      await f.jobs.drain();
      const failed = await f.get(`/analyses/${bad.body.data.id}`, key);
      expect(failed.body.data.status).toBe('failed');
      expect(failed.body.data.error.message).toBe('analysis failed: embeddings endpoint answered 500');
      expect(failed.body.meta).toEqual({ status: 'failed' });
    } finally {
      fail = false;
      await f.close();
    }
  });
});

describe('a compaction of the comment index while a search job holds row numbers', () => {
  it('waits for the job, so its matches still point at the right comments, then drops the dead rows', async () => {
    const f = await analysisTest({ env: { ANALYSIS_COMPACT_MIN_DEAD_ROWS: '2' } });
    try {
      const { teamId, key } = await f.team();
      // k2 first, so a compaction would move k1's rows (and any row numbers taken for them).
      await f.posts(teamId, [
        {
          id: 'k2',
          postedAt: at(1),
          comments: Array.from({ length: 8 }, (_, i) => ({ body: `other topic ${i}`, s: 5 })),
        },
        {
          id: 'k1',
          postedAt: at(2),
          comments: [
            { body: 'battery died', s: 2 },
            { body: 'nice colour', s: 8 },
            { body: 'battery lasts', s: 9 },
            { body: 'meh', s: 5 },
          ],
        },
      ]);
      const readSide = f.t.app.get(CommentReadSide);
      const team = await readSide.team(teamId);
      await readSide.rows(team, team.posts);
      await f.jobs.stop();
      const res = await f.post('/analyses', key, {
        selection: { postIds: ['k1'] },
        search: { query: 'battery' },
      });
      expect(res.status).toBe(202);
      let during: { compactions: number; dead: number } | null = null;
      await runJobRollingUp(f.t.app, res.body.data.id, async () => {
        // k2 refreshed to one comment: 8 dead rows of 13, a compaction is due while the job holds the team.
        const refreshed = [postRefresh('k2', 2), ...postVersion('k2', 2, 1)].map((e) => ({
          type: e.type,
          data: e.data,
        }));
        await f.append('post-k2', refreshed, teamId);
        // The cached team learns of k2's new version; its rows come in when a request needs them.
        await readSide.team(teamId);
        await readSide.rows(team, [team.postsById.get('k2')!]);
        during = { compactions: team.compactions, dead: team.deadRowCount };
      });
      expect(during).toEqual({ compactions: 0, dead: 8 });
      expect(team.compactions).toBe(1);
      expect(team.columns.length).toBe(5);
      const done = (await f.get(`/analyses/${res.body.data.id}`, key)).body.data;
      expect(done.status).toBe('ready');
      expect(done.scope).toMatchObject({ totalComments: 4, matchedComments: 2, matchedPosts: 1 });
      // A new snapshot reads the compacted columns: same comments, same tokens.
      const snapshot = await f.post('/analyses', key, {
        selection: { postIds: ['k1', 'k2'] },
        search: { mode: 'keyword', query: 'battery' },
      });
      expect(snapshot.status).toBe(201);
      // k2's one new comment is hidden (the helper hides each version's last comment).
      expect(snapshot.body.data.scope).toMatchObject({
        totalComments: 4,
        matchedComments: 2,
        matchedPosts: 1,
      });
    } finally {
      f.jobs.start();
      await f.close();
    }
  }, 60_000);
});
