import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemoryReadStore,
  ProjectionRuntime,
  SqliteEventStore,
  type Doc,
  type Filter,
  type ReadCollection,
  type ReadStore,
} from '@analyst/platform';
import { CONTENT_CHUNK_SIZE, ContentLogWriter, type PostVersionContent } from '@analyst/testing';
import {
  catalogPostsProjector,
  catalogTeamsProjector,
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  commentChunksProjector,
  commentScoresProjector,
  ReadCache,
} from '../src';
import { comment, scoredContent } from './scored-content';

/** `count` comments with distinct bodies, scored by the product's scorer. */
function content(count: number): PostVersionContent {
  const words = ['love', 'hate', 'great', 'boring', 'price', 'battery', 'camera', 'fine'];
  return scoredContent(
    Array.from({ length: count }, (_, i) =>
      comment(
        i,
        `${words[i % words.length]} the ${words[(i * 3) % words.length]} number ${i}`,
        new Date(Date.parse('2026-03-01T00:00:00Z') + i * 60_000).toISOString(),
        i % 5,
      ),
    ),
  );
}

/** A store that records the filters of the comment chunk reads. */
function recording(store: ReadStore, filters: Record<string, Filter[]>): ReadStore {
  return {
    listCollections: () => store.listCollections(),
    ping: () => store.ping(),
    close: () => store.close(),
    collection: <T extends Doc>(name: string): ReadCollection<T> => {
      const collection = store.collection<T>(name);
      if (name !== COMMENT_CHUNKS && name !== COMMENT_SCORES) return collection;
      return Object.assign(Object.create(collection) as ReadCollection<T>, {
        find: (...args: Parameters<ReadCollection<T>['find']>) => {
          (filters[name] ??= []).push(args[0]);
          return collection.find(...args);
        },
      });
    },
  };
}

describe('loadRows: comment chunks found by revision', () => {
  let dir: string;
  let events: SqliteEventStore;
  let store: MemoryReadStore;
  let counted: PostVersionContent;
  let uncounted: PostVersionContent;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-load-rows-'));
    events = new SqliteEventStore({ filename: join(dir, 'events.db') });
    store = new MemoryReadStore();
    const log = new ContentLogWriter(events);
    await log.teamCreated('t1');
    // p1 as ingest records it now: PostScored counts its score chunks.
    counted = content(600);
    await log.postCreated('t1', 'p1', 'https://www.youtube.com/watch?v=p1aaaaaaaaa', 'youtube');
    await log.fetched('t1', 'p1', 1, counted);
    await log.scored('t1', 'p1', 1, counted);
    // p2 as it was recorded before the count existed.
    uncounted = content(300);
    await log.postCreated('t1', 'p2', 'https://www.youtube.com/watch?v=p2aaaaaaaaa', 'youtube');
    await log.fetched('t1', 'p2', 1, uncounted);
    const scoreChunks = [
      uncounted.scored.slice(0, CONTENT_CHUNK_SIZE),
      uncounted.scored.slice(CONTENT_CHUNK_SIZE),
    ];
    await log.append('post-p2', 't1', [
      ...scoreChunks.map((comments, chunk) => ({
        type: 'CommentsScored',
        data: { postId: 'p2', dataVersion: 1, chunk, scorer: uncounted.scorer, comments },
      })),
      {
        type: 'PostScored',
        data: {
          postId: 'p2',
          dataVersion: 1,
          jobId: 'cj-p2',
          reservationId: null,
          scorer: uncounted.scorer,
          topics: [],
          messages: [],
          totalComments: 300,
          at: log.at(),
        },
      },
    ]);
    const runtime = new ProjectionRuntime(store, [
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

  it('reads chunks by _id where the catalog knows their revisions, by post and version where it does not', async () => {
    const filters: Record<string, Filter[]> = {};
    const cache = new ReadCache(recording(store, filters), 64 * 1024 * 1024, false);
    const team = await cache.team('t1');
    await cache.rows(team, team.posts);
    const p1 = team.postsById.get('p1')!;
    const p2 = team.postsById.get('p2')!;
    expect(p1.scored!.rows).toHaveLength(600);
    expect(p2.scored!.rows).toHaveLength(300);
    // Each row carries the scores of its own comment, from the chunk its revision names.
    const sentiments = (rows: Uint32Array) => [...rows].map((r) => team.columns.sentiment[r]);
    expect(sentiments(p1.scored!.rows)).toEqual(counted.scored.map((c) => c.scores.sentiment));
    expect(sentiments(p2.scored!.rows)).toEqual(uncounted.scored.map((c) => c.scores.sentiment));

    // Stream revisions: PostCreated 0; PostFetched 1 and its chunks 2-4; score chunks 5-7; PostScored 8.
    expect(p1.version!.source).toEqual({ fetch: 1, chunks: 3, scores: { first: 5, chunks: 3 } });
    expect(p2.version!.source).toEqual({ fetch: 1, chunks: 2 });
    expect(filters[COMMENT_CHUNKS]).toEqual([
      { teamId: 't1', _id: { $in: ['p1:2', 'p1:3', 'p1:4', 'p2:2', 'p2:3'] } },
    ]);
    expect(filters[COMMENT_SCORES]).toEqual([
      { teamId: 't1', $or: [{ _id: { $in: ['p1:5', 'p1:6', 'p1:7'] } }, { postId: 'p2', dataVersion: 1 }] },
    ]);
  });

  it('fails loudly when a counted score chunk is missing from the read model', async () => {
    await store.collection(COMMENT_SCORES).deleteMany({ _id: 'p1:6' });
    const cache = new ReadCache(store, 64 * 1024 * 1024, false);
    const team = await cache.team('t1');
    await expect(cache.rows(team, [team.postsById.get('p1')!])).rejects.toThrow(
      'the comment read model of post p1 version 1 holds 2 of its 3 score chunks',
    );
  });

  it('keeps a team from another team: ids of its posts under another team find nothing', async () => {
    const log = new ContentLogWriter(events);
    await log.teamCreated('t2');
    const runtime = new ProjectionRuntime(store, [catalogTeamsProjector, catalogPostsProjector]);
    for await (const page of events.readAll(-1)) await runtime.applyPage(page);
    const filters: Record<string, Filter[]> = {};
    const cache = new ReadCache(recording(store, filters), 64 * 1024 * 1024, false);
    const t1 = await cache.team('t1');
    const chunks = await store
      .collection(COMMENT_CHUNKS)
      .find({ teamId: 't2', _id: { $in: ['p1:2', 'p1:3', 'p1:4'] } });
    expect(chunks).toEqual([]);
    expect(t1.posts.map((p) => p.id)).toEqual(['p1', 'p2']);
    expect((await cache.team('t2')).posts).toEqual([]);
  });
});
