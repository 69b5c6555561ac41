import { COMMENT_EMBEDDINGS, type CommentEmbeddingsDoc } from '@analyst/comment-index';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { analysisTest } from './analysis-fixture';

/**
 * Embedding at ingest, switched on (jest switches it off for every other suite): the analysis
 * service embeds each projected chunk with the real encoder, keeps its vectors in
 * comment_embeddings, reports it on /metrics, and an AI search then reads them.
 */
describe('comments embedded as they are projected (ANALYST_EMBED_AT_INGEST=on)', () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;
  let teamId: string;
  let key: string;
  const previous = process.env.ANALYST_EMBED_AT_INGEST;

  beforeAll(async () => {
    process.env.ANALYST_EMBED_AT_INGEST = 'on';
    f = await analysisTest();
    ({ teamId, key } = await f.team());
    await f.posts(teamId, [
      {
        id: 'e1',
        postedAt: '2026-03-01T00:00:00Z',
        comments: [
          { s: 3, body: 'costs an arm and a leg' },
          { s: 8, body: 'the camera is gorgeous at night' },
          { s: 5, body: 'hidden spam', hidden: true },
        ],
      },
    ]);
  }, 60_000);
  afterAll(async () => {
    await f.close();
    if (previous === undefined) delete process.env.ANALYST_EMBED_AT_INGEST;
    else process.env.ANALYST_EMBED_AT_INGEST = previous;
  });

  it('stores the visible comments vectors, counts the chunk on /metrics, and a search reads them', async () => {
    const store = f.t.app.get<ReadStore>(READ_STORE);
    const embeddings = store.collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS);
    let ready: CommentEmbeddingsDoc[] = [];
    for (let i = 0; i < 200 && ready.length === 0; i++) {
      ready = (await embeddings.find({ teamId })).filter((d) => d.state === 'ready');
      if (ready.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready.map((d) => [d.postId, d.model, d.dims, d.count])).toEqual([
      ['e1', 'all-minilm-l6-v2-q', 384, 2],
    ]);

    const metrics = await f.t.request('GET', '/metrics');
    expect(metrics.raw).toMatch(/analyst_ingest_embedding_chunks_total\{[^}]*outcome="embedded"[^}]*\} 1\b/);
    expect(metrics.raw).toMatch(/analyst_ingest_embedding_queue_comments\{[^}]*\} 0\b/);

    const created = await f.post('/analyses', key, {
      selection: { postIds: ['e1'] },
      search: { query: 'too expensive' },
    });
    expect(created.status).toBe(202);
    await f.jobs.drain();
    const done = (await f.get(`/analyses/${created.body.data.id}`, key)).body.data;
    expect(done.status).toBe('ready');
    // The paraphrase of the price, by meaning; the camera comment is not about it.
    expect(done.scope).toMatchObject({ totalComments: 2, matchedComments: 1 });
    // Read, not embedded again: still the one document, written at ingest.
    expect((await embeddings.find({ teamId })).map((d) => d.at)).toEqual(ready.map((d) => d.at));
  }, 60_000);
});
