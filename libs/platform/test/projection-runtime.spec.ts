import {
  type Doc,
  DuplicateKeyError,
  MemoryReadStore,
  ProjectionRuntime,
  ReadStoreCheckpointStore,
  type RecordedEvent,
} from '@analyst/platform';
import type { Projector } from '../src/projection/projector';
import type { ProjectionConflict } from '../src/projection/unique-clash';
import {
  LogBuilder,
  busyLog,
  postsProjector,
  snapshot,
  teamsProjector,
  type PostDoc,
  type TeamDoc,
} from './projection-fixtures';

async function project(runtime: ProjectionRuntime, events: RecordedEvent[]): Promise<void> {
  for (const event of events) await runtime.apply(event);
}

describe('MemoryReadStore unique indexes, as MongoDB', () => {
  it('raises DuplicateKeyError naming the index on insert, replace and update, and on _id', async () => {
    const posts = new MemoryReadStore().collection<PostDoc>('posts');
    await posts.createIndex({ keys: { team: 1, link: 1 }, unique: true, name: 'team_link' });
    await posts.insertOne({ _id: 'a', team: 't', link: 'x', title: '', comments: 0 });
    await posts.insertOne({ _id: 'b', team: 't', link: 'y', title: '', comments: 0 });
    const onInsert = await posts
      .insertOne({ _id: 'c', team: 't', link: 'x', title: '', comments: 0 })
      .catch((e) => e);
    const onReplace = await posts
      .replaceOne({ _id: 'b' }, { _id: 'b', team: 't', link: 'x', title: '', comments: 0 })
      .catch((e) => e);
    const onUpdate = await posts.updateOne({ _id: 'b' }, { $set: { link: 'x' } }).catch((e) => e);
    const onId = await posts
      .insertOne({ _id: 'a', team: 'u', link: 'z', title: '', comments: 0 })
      .catch((e) => e);
    for (const error of [onInsert, onReplace, onUpdate]) {
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(error).toMatchObject({ collection: 'posts', index: 'team_link' });
    }
    expect(onId).toMatchObject({ collection: 'posts', index: '_id' });
    expect(await posts.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', team: 't', link: 'x', title: '', comments: 0 },
      { _id: 'b', team: 't', link: 'y', title: '', comments: 0 },
    ]);
  });
});

describe('ProjectionRuntime with replicas and clashes (in memory)', () => {
  const collections = ['posts', 'teams'];

  it('two runtimes applying the same log at once produce exactly what one runtime produces', async () => {
    const events = busyLog(3, 8);
    const single = new MemoryReadStore();
    const alone = new ProjectionRuntime(single, [postsProjector, teamsProjector]);
    await alone.createIndexes();
    await project(alone, events);

    const shared = new MemoryReadStore();
    const a = new ProjectionRuntime(shared, [postsProjector, teamsProjector]);
    const b = new ProjectionRuntime(shared, [postsProjector, teamsProjector]);
    await a.createIndexes();
    await b.createIndexes();
    await Promise.all([project(a, events), project(b, events)]);

    const expected = await snapshot(single, collections);
    expect(await snapshot(shared, collections)).toEqual(expected);
    expect(expected.posts).toHaveLength(24);
    expect(expected.teams).toEqual([
      expect.objectContaining({ _id: 't0', posts: 8, comments: 16 }),
      expect.objectContaining({ _id: 't1', posts: 8, comments: 16 }),
      expect.objectContaining({ _id: 't2', posts: 8, comments: 16 }),
    ]);
    expect(a.position).toBe(events.length - 1);
    expect(b.position).toBe(events.length - 1);
  });

  it('a replica behind another re-applies nothing: every document is already at its revision', async () => {
    const events = busyLog(2, 4);
    const store = new MemoryReadStore();
    const ahead = new ProjectionRuntime(store, [postsProjector, teamsProjector]);
    await project(ahead, events);
    const before = await snapshot(store, collections);
    const behind = new ProjectionRuntime(store, [postsProjector, teamsProjector]);
    const outcomes = [];
    for (const event of events)
      outcomes.push(await behind.applyTo(postsProjector, (event.data as { postId: string }).postId, [event]));
    expect(new Set(outcomes)).toEqual(new Set(['already-applied']));
    expect(await snapshot(store, collections)).toEqual(before);
  });

  it('skips, logs and reports a genuine clash on a unique index, and projects the following events', async () => {
    const log = new LogBuilder()
      .add('Created', { postId: 'a', team: 't', link: 'https://x.test/1', title: 'A' })
      .add('Created', { postId: 'b', team: 't', link: 'https://x.test/1', title: 'B' }) // a second post claims the link
      .add('Commented', { postId: 'a', team: 't' })
      .add('Created', { postId: 'c', team: 't', link: 'https://x.test/2', title: 'C' });
    const store = new MemoryReadStore();
    const conflicts: ProjectionConflict[] = [];
    const runtime = new ProjectionRuntime(store, [postsProjector, teamsProjector], {
      onConflict: (c) => conflicts.push(c),
    });
    await runtime.createIndexes();
    await project(runtime, log.events);

    expect(conflicts).toEqual([
      {
        projector: 'test-posts',
        collection: 'posts',
        documentId: 'b',
        index: 'team_link',
        clashingId: 'a',
        event: { id: 'ev-1', type: 'Created', streamId: 'post-b', revision: 0, position: 1 },
      },
    ]);
    const posts = await store.collection<PostDoc>('posts').find({}, { sort: { _id: 1 } });
    expect(posts.map((p) => [p._id, p.title, p.comments])).toEqual([
      ['a', 'A', 1],
      ['c', 'C', 0],
    ]);
    // The other read model of the same event is not affected by the skip.
    expect(await store.collection<TeamDoc>('teams').findOne({ _id: 't' })).toMatchObject({
      posts: 3,
      comments: 1,
    });
    expect(runtime.position).toBe(3);
  });
});

describe('ReadStoreCheckpointStore (in memory)', () => {
  it('saves concurrently without errors, ends at the highest position and never moves back', async () => {
    const store = new MemoryReadStore();
    const replicas = [new ReadStoreCheckpointStore(store), new ReadStoreCheckpointStore(store)];
    const positions = [17, 4, 230, 99, 230, 5, 180];
    await Promise.all(positions.map((p, i) => replicas[i % 2].save('projections:ingest', p)));
    expect(await replicas[0].load('projections:ingest')).toBe(230);
    await replicas[1].save('projections:ingest', 12);
    expect(await replicas[1].load('projections:ingest')).toBe(230);
    expect(await replicas[0].load('projections:other')).toBe(-1);
  });
});

describe('ProjectionRuntime.onApplied', () => {
  it('hears each projected event after its documents are written, including one a replica wrote first', async () => {
    const store = new MemoryReadStore();
    const replica = new ProjectionRuntime(store, [teamsProjector]);
    const runtime = new ProjectionRuntime(store, [teamsProjector]);
    const heard: { type: string; position: number; comments: number | undefined }[] = [];
    runtime.onApplied((event) => {
      // The memory store answers synchronously underneath: the document already holds the event.
      void store
        .collection<TeamDoc>('teams')
        .findOne({ _id: 't1' })
        .then((doc) => heard.push({ type: event.type, position: event.position, comments: doc?.comments }));
    });
    runtime.onApplied(() => {
      throw new Error('a failing listener must not stop the projection');
    });
    const log = new LogBuilder()
      .add('Created', { postId: 'p1', team: 't1', link: 'https://x.test/1', title: 'a' })
      .add('Titled', { postId: 'p1', team: 't1', title: 'b' }) // no projector here: not heard
      .add('Commented', { postId: 'p1', team: 't1' }).events;
    await replica.apply(log[0]); // the replica writes the first event's document first
    for (const event of log) {
      if (runtime.handles(event.type)) await runtime.apply(event);
      else runtime.markApplied(event.position);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((h) => [h.type, h.position, h.comments])).toEqual([
      ['Created', 0, 0],
      ['Commented', 2, 1],
    ]);
    expect(runtime.position).toBe(2);
    expect(await store.collection<TeamDoc>('teams').findOne({ _id: 't1' })).toMatchObject({
      posts: 1,
      comments: 1,
    });
  });
});

/** Records each lookup and write a runtime makes (`collection.method`), passing every call through. */
function recordingWrites(inner: MemoryReadStore, writes: string[]): MemoryReadStore {
  return Object.assign(Object.create(inner) as MemoryReadStore, {
    collection: (name: string) => {
      const collection = inner.collection(name);
      return new Proxy(collection, {
        get: (target, key) => {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== 'function') return value;
          const call = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
          if (!['findOne', 'insertOne', 'replaceOne', 'updateOne'].includes(String(key))) return call;
          return async (...args: unknown[]) => {
            writes.push(`${name}.${String(key)}`); // a failed insert counts as a call too
            return call(...args);
          };
        },
      });
    },
  });
}

describe('ProjectionRuntime.applyPage', () => {
  // Created and Commented write the post and its team; Titled writes only the post; Noted has no projector.
  const log = new LogBuilder()
    .add('Created', { postId: 'p1', team: 't1', link: 'https://x.test/1', title: 'a' })
    .add('Commented', { postId: 'p1', team: 't1' })
    .add('Commented', { postId: 'p1', team: 't1' })
    .add('Titled', { postId: 'p1', team: 't1', title: 'b' })
    .add('Noted', { postId: 'p1', team: 't1' })
    .add('Created', { postId: 'p2', team: 't1', link: 'https://x.test/2', title: 'c' })
    .add('Commented', { postId: 'p1', team: 't1' }).events;

  it('writes a run of events on the same documents once, and ends where applying them one by one ends', async () => {
    const sequential = new MemoryReadStore();
    await project(new ProjectionRuntime(sequential, [postsProjector, teamsProjector]), log);

    const writes: string[] = [];
    const paged = new MemoryReadStore();
    const runtime = new ProjectionRuntime(recordingWrites(paged, writes), [postsProjector, teamsProjector]);
    await runtime.applyPage(log);

    // The same documents; only `_version`, which counts writes, is lower.
    const withoutVersion = async (store: MemoryReadStore) =>
      Object.values(await snapshot(store, ['posts', 'teams'])).map((docs) =>
        docs.map(({ _version, ...doc }: Doc & { _version?: number }) => doc),
      );
    expect(await withoutVersion(paged)).toEqual(await withoutVersion(sequential));
    expect(await paged.collection<TeamDoc>('teams').findOne({ _id: 't1' })).toMatchObject({
      posts: 2,
      comments: 3,
    });
    // A new document is one insert and no read (Created + 2× Commented on p1/t1 fold into it); a run
    // on an existing document is one read and one replace; a run that opens a stream on an existing
    // document (p2's Created on team t1) tries the insert first.
    expect(writes).toEqual([
      'posts.insertOne',
      'teams.insertOne',
      'posts.findOne',
      'posts.replaceOne',
      'posts.insertOne',
      'teams.insertOne',
      'teams.findOne',
      'teams.replaceOne',
      'posts.findOne',
      'posts.replaceOne',
      'teams.findOne',
      'teams.replaceOne',
    ]);
    expect(runtime.position).toBe(6);
  });

  it('applies a page again without writing, and resumes a page a replica half applied', async () => {
    const writes: string[] = [];
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(recordingWrites(store, writes), [postsProjector, teamsProjector]);
    await new ProjectionRuntime(store, [postsProjector, teamsProjector]).applyPage(log.slice(0, 2));
    await runtime.applyPage(log);
    const first = [...writes];
    const before = await snapshot(store, ['posts', 'teams']);
    await runtime.applyPage(log);
    const replay = writes.slice(first.length);
    expect(replay.filter((call) => call.endsWith('replaceOne'))).toEqual([]); // insert attempts fail, nothing is replaced
    expect(await snapshot(store, ['posts', 'teams'])).toEqual(before);
    // The replica wrote Created + one Commented; this runtime folds only the second Commented into them.
    expect(first.slice(0, 6)).toEqual([
      'posts.insertOne',
      'posts.findOne',
      'posts.replaceOne',
      'teams.insertOne',
      'teams.findOne',
      'teams.replaceOne',
    ]);
    expect(await store.collection<PostDoc>('posts').findOne({ _id: 'p1' })).toMatchObject({
      comments: 3,
      title: 'b',
    });
    expect(await store.collection<TeamDoc>('teams').findOne({ _id: 't1' })).toMatchObject({
      posts: 2,
      comments: 3,
    });
  });
});

describe('ProjectionRuntime: a stream that opens on an existing document', () => {
  interface ClubDoc extends Doc {
    members: string[];
  }
  // A member's stream starts with Joined, which needs its club to exist: evolve says so by throwing.
  const clubs: Projector<ClubDoc> = {
    name: 'test-clubs',
    collection: 'clubs',
    eventTypes: ['Opened', 'Joined'],
    documentIds: (event) => [(event.data as { club: string }).club],
    evolve(doc, event, id) {
      if (event.type === 'Opened') return { _id: id, members: [] };
      if (!doc) throw new Error(`${id} joined before it was opened`);
      return { ...doc, members: [...doc.members, (event.data as { member: string }).member] };
    },
  };
  const event = (type: string, streamId: string, data: object, position: number): RecordedEvent => ({
    id: `ev-${position}`,
    type,
    schemaVersion: 1,
    data,
    metadata: { correlationId: 'c', causationId: null, teamId: null, occurredAt: '2026-11-25T00:00:00.000Z' },
    streamId,
    revision: 0,
    position,
  });

  it('is written through the read path when folding from nothing throws', async () => {
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(store, [clubs]);
    await runtime.applyPage([
      event('Opened', 'club-c1', { club: 'c1' }, 0),
      event('Joined', 'member-m1', { club: 'c1', member: 'm1' }, 1),
      event('Joined', 'member-m2', { club: 'c1', member: 'm2' }, 2),
    ]);
    expect(await store.collection<ClubDoc>('clubs').findOne({ _id: 'c1' })).toMatchObject({
      members: ['m1', 'm2'],
    });
    expect(runtime.position).toBe(2);
  });
});

describe('ProjectionRuntime: a write put back by a late replica (non-atomic conditional writes)', () => {
  interface TallyDoc extends Doc {
    total: number;
    seen: number[];
  }
  const tally = (contiguousStreams: boolean): Projector<TallyDoc> => ({
    name: 'test-tally',
    collection: 'tallies',
    eventTypes: ['Added'],
    contiguousStreams,
    documentIds: () => ['t1'],
    evolve: (doc, event, id) => {
      const n = (event.data as { n: number }).n;
      return { _id: id, total: (doc?.total ?? 0) + n, seen: [...(doc?.seen ?? []), n] };
    },
  });
  const log: RecordedEvent[] = [1, 2, 3, 4, 5].map((n, revision) => ({
    id: `ev-${revision}`,
    type: 'Added',
    schemaVersion: 1,
    data: { n },
    metadata: { correlationId: 'c', causationId: null, teamId: null, occurredAt: '2026-11-25T00:00:00.000Z' },
    streamId: 'tally-t1',
    revision,
    position: revision,
  }));
  const reads: number[] = [];
  const readStream = async (_streamId: string, from = 0) => {
    reads.push(from);
    return log.filter((e) => e.revision >= from);
  };

  /** Applies revisions 0–3, then puts back the state after revision 1, as a replica's late write would. */
  async function putBack(
    contiguous: boolean,
  ): Promise<{ store: MemoryReadStore; runtime: ProjectionRuntime }> {
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(store, [tally(contiguous)], { log: { readStream } });
    await runtime.applyPage(log.slice(0, 2));
    const stale = await store.collection<TallyDoc>('tallies').findOne({ _id: 't1' });
    await runtime.applyPage(log.slice(2, 4));
    await store.collection<TallyDoc>('tallies').replaceOne({ _id: 't1' }, stale!);
    return { store, runtime };
  }

  it('folds the events the document lost from the log before the next one', async () => {
    reads.length = 0;
    const { store, runtime } = await putBack(true);
    expect(reads).toEqual([]); // no gap while the writes held
    await runtime.applyPage([log[4]]);
    expect(await store.collection<TallyDoc>('tallies').findOne({ _id: 't1' })).toMatchObject({
      total: 15,
      seen: [1, 2, 3, 4, 5],
      _streams: { 'tally-t1': 4 },
    });
    expect(reads).toEqual([2]);
  });

  it('without contiguousStreams the gap is taken as events of other documents (nothing read back)', async () => {
    reads.length = 0;
    const { store, runtime } = await putBack(false);
    await runtime.applyPage([log[4]]);
    expect(await store.collection<TallyDoc>('tallies').findOne({ _id: 't1' })).toMatchObject({
      total: 8,
      seen: [1, 2, 5],
    });
    expect(reads).toEqual([]);
  });
});
