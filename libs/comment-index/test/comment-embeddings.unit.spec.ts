import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryReadStore, ProjectionRuntime, SqliteEventStore } from '@analyst/platform';
import { ContentLogWriter, HashingEncoder, type PostVersionContent } from '@analyst/testing';
import {
  catalogPostsProjector,
  catalogTeamsProjector,
  COMMENT_EMBEDDINGS,
  commentChunksProjector,
  CommentEmbeddings,
  commentScoresProjector,
  embeddingDocId,
  EncoderSearchModel,
  IngestEmbedder,
  quantizeAll,
  ReadCache,
  searchMatchedRows,
  type CommentEmbeddingsDoc,
} from '../src';
import { comment, scoredContent } from './scored-content';

const BODIES = [
  'the battery drains so fast on this phone',
  'camera quality is amazing at night',
  'shipping took three weeks, never again',
  'battery life is terrible after the update',
  'love the colour of the case',
];

/** `count` comments cycling through BODIES; every seventh is hidden. */
function content(count: number): PostVersionContent {
  return scoredContent(
    Array.from({ length: count }, (_, i) => ({
      ...comment(i, `${BODIES[i % BODIES.length]} #${i}`, '2026-03-01T00:00:00Z'),
      hidden: i % 7 === 6,
    })),
  );
}

describe('CommentEmbeddings: sentence vectors kept per comment chunk', () => {
  let dir: string;
  let events: SqliteEventStore;
  let store: MemoryReadStore;
  let runtime: ProjectionRuntime;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-embeddings-'));
    events = new SqliteEventStore({ filename: join(dir, 'events.db') });
    store = new MemoryReadStore();
    const log = new ContentLogWriter(events);
    await log.teamCreated('t1');
    await log.postCreated('t1', 'p1', 'https://www.youtube.com/watch?v=p1aaaaaaaaa', 'youtube');
    const p1 = content(600);
    await log.fetched('t1', 'p1', 1, p1);
    await log.scored('t1', 'p1', 1, p1);
    runtime = new ProjectionRuntime(store, [
      catalogTeamsProjector,
      catalogPostsProjector,
      commentChunksProjector,
      commentScoresProjector,
    ]);
    for await (const page of events.readAll(-1)) await runtime.applyPage(page);
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function loadedTeam() {
    const cache = new ReadCache(store, 64 * 1024 * 1024, false);
    const team = await cache.team('t1');
    await cache.rows(team, team.posts);
    return team;
  }

  it('embeds the visible comments a search needs once, stores them, and reads them back the next time', async () => {
    const encoder = new HashingEncoder();
    const embeddings = new CommentEmbeddings(store, async () => encoder);
    const team = await loadedTeam();
    const p1 = team.postsById.get('p1')!;
    const versions = [{ postId: 'p1', fetch: p1.scored!.source!.fetch, chunks: p1.scored!.source!.chunks }];
    const progress: [number, number][] = [];
    const first = await embeddings.vectorsFor('t1', versions, (done, toEmbed) =>
      progress.push([done, toEmbed]),
    );
    // 600 comments, every seventh hidden: 515 visible, embedded once each.
    expect(encoder.embeddedTexts).toBe(515);
    expect(progress[0]).toEqual([0, 515]);
    expect(progress[progress.length - 1]).toEqual([515, 515]);
    const docs = await store.collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS).find({ teamId: 't1' });
    expect(docs.map((d) => [d._id, d.state, d.count]).sort()).toEqual([
      ['p1:2@hashing-16', 'ready', 215],
      ['p1:3@hashing-16', 'ready', 214],
      ['p1:4@hashing-16', 'ready', 86],
    ]);
    expect(first!.vector('p1', 'c6')).toBeNull(); // hidden
    const expected = quantizeAll(await new HashingEncoder().embed([`${BODIES[0]} #0`]), 16);
    expect(Array.from(first!.vector('p1', 'c0')!)).toEqual(Array.from(expected));

    const second = await embeddings.vectorsFor('t1', versions);
    expect(encoder.embeddedTexts).toBe(515); // nothing computed again
    expect(Array.from(second!.vector('p1', 'c599')!)).toEqual(Array.from(first!.vector('p1', 'c599')!));
  });

  it('claims a chunk at ingest once across replicas; a claim nobody finished is computed by the search', async () => {
    const encoder = new HashingEncoder();
    const a = new CommentEmbeddings(store, async () => encoder);
    const b = new CommentEmbeddings(store, async () => encoder);
    const comments = [
      { id: 'x1', body: 'hard to put together' },
      { id: 'x2', body: 'the screws were missing' },
    ];
    expect(await a.embedAtIngest('t1', 'p9', 2, comments)).toBe(true);
    expect(await b.embedAtIngest('t1', 'p9', 2, comments)).toBe(false);
    expect(encoder.embeddedTexts).toBe(2);
    const stored = await store
      .collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS)
      .findOne({ _id: embeddingDocId('p9:2', 'hashing-16') });
    expect([stored!.state, stored!.count, stored!.teamId]).toEqual(['ready', 2, 't1']);

    // A replica that claimed p1's first chunk and died: the search embeds it and marks it ready.
    await store.collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS).insertOne({
      _id: embeddingDocId('p1:2', 'hashing-16'),
      teamId: 't1',
      postId: 'p1',
      model: 'hashing-16',
      dims: 16,
      state: 'claimed',
      at: '2026-03-01T00:00:00Z',
      count: 0,
    });
    const found = await a.vectorsFor('t1', [{ postId: 'p1', fetch: 1, chunks: 1 }]);
    expect(found!.vector('p1', 'c0')).not.toBeNull();
    const after = await store
      .collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS)
      .findOne({ _id: embeddingDocId('p1:2', 'hashing-16') });
    expect([after!.state, after!.count]).toEqual(['ready', 215]);
  });

  it('embeds chunks as they are projected, and a search then computes nothing', async () => {
    const encoder = new HashingEncoder();
    const embeddings = new CommentEmbeddings(store, async () => encoder);
    const embedder = new IngestEmbedder(embeddings, (e) => {
      throw e;
    });
    let queuedAtMost = 0;
    for await (const page of events.readAll(-1))
      for (const event of page) {
        embedder.apply(event);
        queuedAtMost = Math.max(queuedAtMost, embedder.queuedComments);
      }
    // The first chunk is taken at once; the other two (214 + 86 visible comments) wait behind it.
    expect(queuedAtMost).toBe(300);
    await embedder.idle();
    expect(embedder.queuedComments).toBe(0);
    expect(embedder.counts).toEqual({ embedded: 3, skipped: 0, deferred: 0, queued: 0 });
    expect(encoder.embeddedTexts).toBe(515);

    const team = await loadedTeam();
    const model = new EncoderSearchModel(async () => encoder);
    const withStored = await searchMatchedRows(
      model,
      team,
      team.posts,
      { query: 'battery drains', mode: 'ai', minRelevance: 0 },
      { embeddings },
    );
    expect(encoder.embeddedTexts).toBe(516); // the query alone
    const computed = await searchMatchedRows(model, team, team.posts, {
      query: 'battery drains',
      mode: 'ai',
      minRelevance: 0,
    });
    // Stored vectors and vectors computed in the search give the very same matches.
    expect([...withStored].sort()).toEqual([...computed].sort());
    expect(withStored.size).toBeGreaterThan(0);
  });

  it('leaves a burst beyond its queue to the search, counted as deferred', async () => {
    const encoder = new HashingEncoder();
    const outcomes: string[] = [];
    const embedder = new IngestEmbedder(
      new CommentEmbeddings(store, async () => encoder),
      () => undefined,
      200,
      (outcome) => outcomes.push(outcome),
    );
    for await (const page of events.readAll(-1)) for (const event of page) embedder.apply(event);
    await embedder.idle();
    // What the metrics read: the two chunks too large for the queue deferred, the third embedded.
    expect(outcomes).toEqual(['deferred', 'deferred', 'embedded']);
    expect(embedder.queuedComments).toBe(0);
    // Chunks of 215, 214 and 86 visible comments: only the last fits a queue of 200.
    expect(embedder.counts).toEqual({ embedded: 1, skipped: 0, deferred: 2, queued: 0 });
    expect(encoder.embeddedTexts).toBe(86);
  });

  it('has no vectors to give when the process has no encoder', async () => {
    const embeddings = new CommentEmbeddings(store, async () => null);
    expect(await embeddings.vectorsFor('t1', [{ postId: 'p1', fetch: 1, chunks: 3 }])).toBeNull();
    expect(await embeddings.embedAtIngest('t1', 'p1', 2, [{ id: 'a', body: 'b' }])).toBe(false);
  });
});
