import {
  DuplicateKeyError,
  HealthRegistry,
  HttpMetrics,
  MongoReadStore,
  ProjectionRuntime,
  ProjectionService,
  ReadStoreCheckpointStore,
  SqliteEventStore,
  type AnalystConfig,
  type ConditionalWrites,
  type Doc,
  type ReadStore,
  type RecordedEvent,
} from '@analyst/platform';
import { eventually, unique } from '@analyst/testing';
import type { ProjectionConflict } from '../src/projection/unique-clash';
import {
  FlakyReadStore,
  LogBuilder,
  busyLog,
  postsProjector,
  snapshot,
  teamsProjector,
  type PostDoc,
  type TeamDoc,
} from './projection-fixtures';

const url = process.env.MONGO_URL;
const conditionalWrites = (process.env.MONGO_CONDITIONAL_WRITES as ConditionalWrites | undefined) ?? 'server';

/** `_version` counts writes, which two racing replicas may spend differently; the content must match. */
function withoutVersions(docs: Record<string, Doc[]>): Record<string, Doc[]> {
  return Object.fromEntries(
    Object.entries(docs).map(([k, list]) => [k, list.map(({ _version: _v, ...rest }) => rest as Doc)]),
  );
}

async function project(runtime: ProjectionRuntime, events: RecordedEvent[]): Promise<void> {
  for (const event of events) await runtime.apply(event);
}

if (!url) {
  describe('projection replicas on MongoDB', () => {
    it.skip('skipped: no MONGO_URL (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
} else {
  describe(`projection replicas on MongoDB protocol at ${url} (conditional writes: ${conditionalWrites})`, () => {
    const opened: ReadStore[] = [];
    const connect = async (database: string) => {
      const store = await MongoReadStore.connect(url, database, conditionalWrites);
      opened.push(store);
      return store;
    };
    afterAll(async () => {
      for (const store of opened)
        await (store as MongoReadStore).database.dropDatabase().catch(() => undefined);
      await Promise.all(opened.map((s) => s.close()));
    });

    it('names the index of a duplicate key, on _id and on a unique index, although FerretDB does not', async () => {
      const posts = (await connect(unique('analyst_proj_dup_'))).collection<PostDoc>('posts');
      await posts.createIndex({ keys: { team: 1, link: 1 }, unique: true, name: 'team_link' });
      await posts.insertOne({ _id: 'a', team: 't', link: 'x', title: '', comments: 0 });
      await posts.insertOne({ _id: 'b', team: 't', link: 'y', title: '', comments: 0 });
      const onId = await posts
        .insertOne({ _id: 'a', team: 't', link: 'z', title: '', comments: 0 })
        .catch((e) => e);
      const onInsert = await posts
        .insertOne({ _id: 'c', team: 't', link: 'x', title: '', comments: 0 })
        .catch((e) => e);
      const onReplace = await posts
        .replaceOne({ _id: 'b' }, { _id: 'b', team: 't', link: 'x', title: '', comments: 0 })
        .catch((e) => e);
      const onUpsert = await posts
        .updateOne({ _id: 'a' }, { $set: { title: 'q' } }, { upsert: true })
        .catch((e) => e);
      expect(onId).toBeInstanceOf(DuplicateKeyError);
      expect([onId.index, onInsert.index, onReplace.index]).toEqual(['_id', 'team_link', 'team_link']);
      expect(onUpsert).toEqual({ matched: 1, modified: 1, upsertedId: null }); // the document exists: an update, no clash
    });

    it('replaces a declared index whose spec changed (unique to plain), so it stops refusing writes', async () => {
      const posts = (await connect(unique('analyst_proj_idx_'))).collection<PostDoc>('posts');
      await posts.createIndex({ keys: { team: 1, link: 1 }, unique: true, name: 'team_link' });
      await posts.insertOne({ _id: 'a', team: 't', link: 'x', title: '', comments: 0 });
      await posts.createIndex({ keys: { team: 1, link: 1 }, name: 'team_link' });
      await posts.insertOne({ _id: 'b', team: 't', link: 'x', title: '', comments: 0 });
      expect(await posts.count({ team: 't', link: 'x' })).toBe(2);
    });

    it('two runtimes (replicas) applying the same log at once into one database produce exactly what one runtime produces', async () => {
      const events = busyLog(3, 4);
      const single = await connect(unique('analyst_proj_one_'));
      const alone = new ProjectionRuntime(single, [postsProjector, teamsProjector]);
      await alone.createIndexes();
      await project(alone, events);

      const database = unique('analyst_proj_two_');
      const [storeA, storeB] = [
        new FlakyReadStore(await connect(database)),
        new FlakyReadStore(await connect(database)),
      ];
      const a = new ProjectionRuntime(storeA, [postsProjector, teamsProjector]);
      const b = new ProjectionRuntime(storeB, [postsProjector, teamsProjector]);
      await Promise.all([a.createIndexes(), b.createIndexes()]);
      await Promise.all([project(a, events), project(b, events)]);

      // Printed, not asserted: how often the replicas met each other depends on timing.
      console.log(`replica races: ${JSON.stringify([...storeA.errors, ...storeB.errors])}`);
      const expected = withoutVersions(await snapshot(single, ['posts', 'teams']));
      expect(withoutVersions(await snapshot(storeA, ['posts', 'teams']))).toEqual(expected);
      expect(expected.posts).toHaveLength(12);
      expect(expected.teams.map((t) => [t._id, t.posts, t.comments])).toEqual([
        ['t0', 4, 8],
        ['t1', 4, 8],
        ['t2', 4, 8],
      ]);
    }, 60_000);

    it('skips and counts a planted genuine clash on a unique index, and the following events still project', async () => {
      const log = new LogBuilder()
        .add('Created', { postId: 'a', team: 't', link: 'https://x.test/1', title: 'A' })
        .add('Created', { postId: 'b', team: 't', link: 'https://x.test/1', title: 'B' })
        .add('Commented', { postId: 'a', team: 't' })
        .add('Created', { postId: 'c', team: 't', link: 'https://x.test/2', title: 'C' });
      const store = await connect(unique('analyst_proj_clash_'));
      const conflicts: ProjectionConflict[] = [];
      const runtime = new ProjectionRuntime(store, [postsProjector, teamsProjector], {
        onConflict: (c) => conflicts.push(c),
      });
      await runtime.createIndexes();
      await project(runtime, log.events);
      expect(conflicts.map((c) => [c.documentId, c.index, c.clashingId, c.event.position])).toEqual([
        ['b', 'team_link', 'a', 1],
      ]);
      const posts = await store.collection<PostDoc>('posts').find({}, { sort: { _id: 1 } });
      expect(posts.map((p) => [p._id, p.title, p.comments])).toEqual([
        ['a', 'A', 1],
        ['c', 'C', 0],
      ]);
      expect(await store.collection<TeamDoc>('teams').findOne({ _id: 't' })).toMatchObject({
        posts: 3,
        comments: 1,
      });
      expect(runtime.position).toBe(3);
    });

    it('two checkpoint stores saving one name concurrently never throw and end at the maximum', async () => {
      const database = unique('analyst_proj_cp_');
      const replicas = [
        new ReadStoreCheckpointStore(await connect(database)),
        new ReadStoreCheckpointStore(await connect(database)),
      ];
      for (let round = 0; round < 10; round++) {
        const name = `projections:ingest-${round}`;
        const positions = [40, 7, 350, 120, 349, 2, 300, 351].map((p) => p + round);
        await Promise.all(positions.map((p, i) => replicas[i % 2].save(name, p)));
        expect(await replicas[round % 2].load(name)).toBe(351 + round);
        await replicas[1].save(name, 10);
        expect(await replicas[0].load(name)).toBe(351 + round);
      }
    }, 30_000);

    it('a failing read store makes readiness false with a detail, and recovery makes it true again', async () => {
      const events = new SqliteEventStore({ filename: ':memory:' });
      const store = new FlakyReadStore(await connect(unique('analyst_proj_health_')));
      const health = new HealthRegistry();
      const projections = new ProjectionService(
        events,
        store,
        'resume',
        new ReadStoreCheckpointStore(store),
        { ANALYST_SERVICE: 'ingest' } as AnalystConfig,
        health,
        new HttpMetrics('ingest'),
        { backoff: { initialMs: 20, maxMs: 100 }, headPollMs: 50 },
      );
      projections.register(postsProjector);
      projections.register(teamsProjector);
      try {
        await events.append(
          'post-a',
          [
            {
              id: 'e1',
              type: 'Created',
              schemaVersion: 1,
              data: { postId: 'a', team: 't', link: 'x' },
              metadata: {
                correlationId: 'c',
                causationId: null,
                teamId: 't',
                occurredAt: new Date().toISOString(),
              },
            },
          ],
          'no_stream',
        );
        await projections.start();
        expect(health.notReady()).toEqual([]);
        store.failing = true;
        const { position } = await events.append(
          'post-b',
          [
            {
              id: 'e2',
              type: 'Created',
              schemaVersion: 1,
              data: { postId: 'b', team: 't', link: 'y' },
              metadata: {
                correlationId: 'c',
                causationId: null,
                teamId: 't',
                occurredAt: new Date().toISOString(),
              },
            },
          ],
          'no_stream',
        );
        await eventually(() => health.notReady().length === 1, 5_000);
        expect(health.notReady()[0]).toMatchObject({
          name: 'projection:ingest',
          ready: false,
          live: true,
          detail: expect.stringMatching(/^failing for \d+ s, retrying .*ECONNREFUSED/),
        });
        store.failing = false;
        await projections.waitFor(position, 10_000);
        await eventually(() => health.notReady().length === 0, 5_000);
        expect(await store.collection<TeamDoc>('teams').findOne({ _id: 't' })).toMatchObject({ posts: 2 });
      } finally {
        store.failing = false;
        await projections.stop();
        await events.close();
      }
      expect(await new ReadStoreCheckpointStore(store).load('projections:ingest')).toBeGreaterThanOrEqual(2);
    }, 30_000);
  });
}
