import {
  checkReadModels,
  MemoryReadStore,
  ProjectionRuntime,
  projectionCheckpointName,
  ReadStoreCheckpointStore,
  SqliteEventStore,
  type Doc,
  type EventStore,
  type ProjectionStep,
  type ReadModelSet,
  type ReadStore,
  type StepDefinition,
} from '@analyst/platform';
import { postsProjector, teamsProjector, type PostDoc, type TeamDoc } from './projection-fixtures';

/**
 * A derived document per retitling: the post's title then. Like every step it depends only on the
 * log up to its event (a replica may run it later), so it folds the post's stream to there.
 */
const titlesStep: StepDefinition = {
  collection: 'titles',
  eventTypes: ['Titled'],
  create: (store: ReadStore, log: EventStore): ProjectionStep => ({
    name: 'titles',
    collection: 'titles',
    eventTypes: ['Titled'],
    async apply(event) {
      const { postId, team } = event.data as { postId: string; team: string };
      const titles = (await log.readStream(event.streamId))
        .filter((e) => e.revision <= event.revision && e.type !== 'Commented')
        .map((e) => (e.data as { title: string }).title);
      await store
        .collection('titles')
        .insertOne({ _id: `${postId}:${event.revision}`, teamId: team, title: titles[titles.length - 1] })
        .catch(() => undefined);
    },
  }),
};

const SETS: ReadModelSet[] = [
  { service: 'posts-service', projectors: [postsProjector, teamsProjector], steps: [titlesStep] },
];

/** A log, a live read store projected by the same code as a service, and its checkpoint. */
class Installation {
  readonly events = new SqliteEventStore({ filename: ':memory:' });
  readonly live = new MemoryReadStore();
  readonly checkpoints = new ReadStoreCheckpointStore(this.live);
  private readonly runtime = new ProjectionRuntime(this.live, [postsProjector, teamsProjector], {
    steps: [titlesStep.create(this.live, this.events)],
  });
  private projected = -1;
  private counter = 0;

  async append(
    type: string,
    postId: string,
    team: string,
    extra: Record<string, string> = {},
  ): Promise<void> {
    await this.events.append(
      `post-${postId}`,
      [
        {
          id: `e${this.counter++}`,
          type,
          schemaVersion: 1,
          data: { postId, team, ...extra },
          metadata: {
            correlationId: 'c',
            causationId: null,
            teamId: team,
            occurredAt: '2026-11-26T00:00:00.000Z',
          },
        },
      ],
      'any',
    );
  }

  async seed(teams = 2, posts = 3): Promise<void> {
    for (let p = 0; p < posts; p++)
      for (let t = 0; t < teams; t++) {
        const postId = `p${t}-${p}`;
        await this.append('Created', postId, `t${t}`, { link: `https://x.test/${p}`, title: 'first' });
        await this.append('Commented', postId, `t${t}`);
        await this.append('Titled', postId, `t${t}`, { title: 'second' });
      }
  }

  /** Projects what the log holds now; `checkpoint` saves the position as the service does. */
  async project(checkpoint = true): Promise<void> {
    for await (const page of this.events.readAll(this.projected))
      for (const event of page) {
        await this.runtime.apply(event);
        this.projected = event.position;
      }
    if (checkpoint) await this.checkpoints.save(projectionCheckpointName('posts-service'), this.projected);
  }

  check(extra: { settleMs?: number; rounds?: number } = {}) {
    return checkReadModels({
      events: this.events,
      live: this.live,
      checkpoints: this.checkpoints,
      sets: SETS,
      settleMs: 5,
      ...extra,
    });
  }
}

describe('read-model check: every shared read model against the log', () => {
  it('passes a read store projected from the log, counting every collection and step', async () => {
    const site = new Installation();
    await site.seed();
    await site.project();
    const report = await site.check();
    expect(report.ok).toBe(true);
    expect(report.differences).toEqual([]);
    expect(report.lag).toEqual([]);
    expect(report.head).toBe(18); // SQLite's positions start at 1
    expect(report.collections).toEqual([
      {
        collection: 'posts',
        services: ['posts-service'],
        expected: 6,
        live: 6,
        checkpoint: 18,
        lagging: 0,
        differing: 0,
      },
      {
        collection: 'teams',
        services: ['posts-service'],
        expected: 2,
        live: 2,
        checkpoint: 18,
        lagging: 0,
        differing: 0,
      },
      {
        collection: 'titles',
        services: ['posts-service'],
        expected: 6,
        live: 6,
        checkpoint: 18,
        lagging: 0,
        differing: 0,
      },
    ]);
  });

  it('reports events not yet projected as lag with its size, not as a difference', async () => {
    const site = new Installation();
    await site.seed();
    await site.project();
    await site.append('Commented', 'p0-0', 't0');
    await site.append('Commented', 'p0-0', 't0');
    await site.append('Created', 'p9-9', 't1', { link: 'https://x.test/new', title: 'late' });
    const report = await site.check({ rounds: 1 });
    expect(report.ok).toBe(true);
    const lag = report.lag.map((l) => [
      l.collection,
      l.documentId,
      l.state,
      l.events,
      l.firstPending?.position,
    ]);
    expect(lag.sort()).toEqual(
      [
        ['posts', 'p0-0', 'behind', 2, 19],
        ['posts', 'p9-9', 'behind', 1, 21],
        ['teams', 't0', 'behind', 2, 19],
        ['teams', 't1', 'behind', 1, 21],
      ].sort(),
    );
  });

  it('passes when the service writes between the replay and the reading of its documents (they are read again further on)', async () => {
    const site = new Installation();
    await site.seed(3, 4);
    await site.project();
    let writes = 0;
    // The check replays the log first, then reads each collection: write and project just before that read.
    const live: ReadStore = {
      collection: <T extends Doc>(name: string) => {
        const inner = site.live.collection<T>(name);
        return Object.assign(Object.create(inner) as typeof inner, {
          find: async (...args: Parameters<typeof inner.find>) => {
            if (writes < 6) {
              for (const postId of ['p0-0', 'p1-1', 'p2-2']) {
                await site.append('Commented', postId, `t${postId[1]}`);
                await site.append('Titled', postId, `t${postId[1]}`, { title: `again ${writes}` });
                writes += 2;
              }
              await site.project();
            }
            return inner.find(...args);
          },
        });
      },
      listCollections: () => site.live.listCollections(),
      ping: () => site.live.ping(),
      close: () => site.live.close(),
    };
    const report = await checkReadModels({ ...baseOf(site), live });
    expect(writes).toBe(6);
    expect(report.differences).toEqual([]);
    expect(report.lag).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.head).toBe(36 + 6);
    expect(report.collections.find((c) => c.collection === 'titles')).toMatchObject({
      expected: 15,
      live: 15,
    });
  });

  it('fails a planted difference, naming the collection, document, team and field', async () => {
    const site = new Installation();
    await site.seed();
    await site.project();
    await site.live.collection<TeamDoc>('teams').updateOne({ _id: 't1' }, { $inc: { comments: 1 } });
    const report = await site.check();
    expect(report.ok).toBe(false);
    expect(report.differences).toEqual([
      {
        collection: 'teams',
        documentId: 't1',
        teamId: null,
        kind: 'differs',
        message: 'teams/t1: at the same events applied, comments is 4 where the log gives 3',
        events: [],
      },
    ]);
  });

  it('fails a document that missed an event its service checkpointed past (lost, not late), naming the event', async () => {
    const site = new Installation();
    await site.seed();
    await site.project();
    // Put p1-2 back to before its retitling, as a lost write would leave it.
    const posts = site.live.collection<PostDoc & { _streams: Record<string, number> }>('posts');
    await posts.updateOne({ _id: 'p1-2' }, { $set: { title: 'first', '_streams.post-p1-2': 1 } });
    const report = await site.check({ rounds: 1 });
    expect(report.ok).toBe(false);
    expect(report.differences).toHaveLength(1);
    const [skipped] = report.differences;
    expect(skipped).toMatchObject({ collection: 'posts', documentId: 'p1-2', kind: 'skipped' });
    expect(skipped.events).toEqual([
      { streamId: 'post-p1-2', revision: 2, position: 18, type: 'Titled', id: 'e17' },
    ]);
    expect(skipped.message).toContain('checkpoint of posts-service (position 18)');
  });

  it('fails documents the log does not make, and a missing derived document past the checkpoint', async () => {
    const site = new Installation();
    await site.seed();
    await site.project();
    await site.live
      .collection('posts')
      .insertOne({ _id: 'ghost', team: 't0', link: 'x', title: '', comments: 0 } as Doc);
    await site.live.collection('titles').deleteMany({ _id: 'p0-1:2' });
    const report = await site.check({ rounds: 1 });
    expect(report.ok).toBe(false);
    const kinds = report.differences.map((d) => [d.collection, d.documentId, d.kind]).sort();
    expect(kinds).toEqual([
      ['posts', 'ghost', 'unexpected'],
      ['titles', 'p0-1:2', 'skipped'],
    ]);
  });

  it('checks only the named collections, and refuses a name no service projects', async () => {
    const site = new Installation();
    await site.seed();
    await site.project();
    await site.live.collection<TeamDoc>('teams').updateOne({ _id: 't1' }, { $inc: { comments: 1 } });
    const posts = await checkReadModels({ ...baseOf(site), collections: ['posts'] });
    expect(posts.ok).toBe(true);
    expect(posts.collections.map((c) => c.collection)).toEqual(['posts']);
    await expect(checkReadModels({ ...baseOf(site), collections: ['nope'] })).rejects.toThrow(
      'no shared read model is called nope',
    );
  });
});

function baseOf(site: Installation) {
  return { events: site.events, live: site.live, checkpoints: site.checkpoints, sets: SETS, settleMs: 5 };
}
