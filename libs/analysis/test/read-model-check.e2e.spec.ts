import { identityReadModels } from '@analyst/gateway';
import { COMMENT_SCORES } from '@analyst/comment-index';
import { analysisReadModels } from '../src/analysis-read-models';
import {
  checkReadModels,
  EVENT_STORE,
  READ_STORE,
  ReadStoreCheckpointStore,
  type EventStore,
  type ReadStore,
} from '@analyst/platform';
import { analysisTest } from './analysis-fixture';

const day = (d: number) => `2026-03-0${d}T10:00:00.000Z`;

/**
 * The read-model check over the product's own projectors and the post-analyses step, on a service
 * that projected real content events and served analyses: the live read models pass document by
 * document, and one changed byte of a packed column fails, named.
 */
describe('read-model check over the analysis service read models', () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;
  let live: ReadStore;
  let events: EventStore;
  const check = () =>
    checkReadModels({
      events,
      live,
      checkpoints: new ReadStoreCheckpointStore(live),
      sets: [identityReadModels, analysisReadModels],
      settleMs: 10,
      rounds: 1,
    });

  beforeAll(async () => {
    f = await analysisTest();
    const { teamId, key } = await f.team();
    await f.collection(teamId, 'col_camp', 'campaign');
    await f.posts(teamId, [
      {
        id: 'p1',
        postedAt: day(1),
        collectionIds: ['col_camp'],
        tags: ['launch'],
        comments: [
          { s: 9, body: 'love the battery 😍', likes: 10, author: 'ann' },
          { s: 2, body: 'battery died fast?', author: 'bob' },
          { s: 6, body: 'ok I guess', reply: true, author: 'cat' },
        ],
      },
      { id: 'p2', postedAt: day(2), comments: [{ s: 8, body: 'great camera', author: 'dan' }] },
      { id: 'p3', postedAt: day(3), unscored: true, comments: [{ s: 5 }] },
    ]);
    const other = await f.team();
    await f.posts(other.teamId, [{ id: 'q1', postedAt: day(1), comments: [{ s: 3, body: 'meh' }] }]);
    expect((await f.post('/analyses', key, { selection: { collectionId: 'col_camp' } })).status).toBe(201);
    live = f.t.app.get<ReadStore>(READ_STORE);
    events = f.t.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => f.close());

  it('finds every live document equal to the log, with the counts of each collection', async () => {
    const report = await check();
    expect(report.differences).toEqual([]);
    expect(report.lag).toEqual([]);
    expect(report.ok).toBe(true);
    const counts = Object.fromEntries(report.collections.map((c) => [c.collection, [c.expected, c.live]]));
    expect(counts).toEqual({
      identity_teams: [2, 2],
      identity_api_keys: [2, 2],
      analyses: [1, 1],
      saved_analyses: [0, 0],
      analysis_teams: [2, 2],
      analysis_posts: [4, 4],
      comment_chunks: [4, 4],
      comment_scores: [3, 3],
      post_analyses: [3, 3],
    });
  });

  it('fails when one byte of a stored score column differs, naming the document and its team', async () => {
    const scores = live.collection(COMMENT_SCORES);
    const [doc] = await scores.find({ postId: 'p1' });
    const bytes = Uint8Array.from(doc.scores as Uint8Array);
    bytes[0] ^= 1;
    await scores.updateOne({ _id: doc._id }, { $set: { scores: bytes } });
    const report = await check();
    expect(report.ok).toBe(false);
    expect(report.differences).toHaveLength(1);
    expect(report.differences[0]).toMatchObject({
      collection: COMMENT_SCORES,
      documentId: doc._id,
      teamId: doc.teamId,
      kind: 'differs',
    });
    expect(report.differences[0].message).toContain(
      'at the same events applied, scores.$binary is "AQAAAAAAIk',
    );
  });
});
