import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemoryReadStore,
  ProjectionRuntime,
  SqliteEventStore,
  type Doc,
  type ReadCollection,
  type ReadStore,
} from '@analyst/platform';
import { ContentLogWriter } from '@analyst/testing';
import { CATALOG_POSTS, catalogPostsProjector, catalogTeamsProjector, ReadSideCache } from '../src';

/**
 * A read store whose catalog query answers with the documents as they were when it was asked, but
 * only once the test lets it go: the live feed moves on in between, as it does on a busy replica.
 */
class HeldCatalogStore {
  release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  constructor(private readonly inner: MemoryReadStore) {}

  asStore(): ReadStore {
    return {
      collection: <T extends Doc>(name: string): ReadCollection<T> => {
        const collection = this.inner.collection<T>(name);
        if (name !== CATALOG_POSTS) return collection;
        return Object.assign(Object.create(collection) as ReadCollection<T>, {
          find: async (...args: Parameters<ReadCollection<T>['find']>) => {
            const snapshot = await collection.find(...args);
            await this.gate;
            return snapshot;
          },
        });
      },
      listCollections: () => this.inner.listCollections(),
      ping: () => this.inner.ping(),
      close: () => this.inner.close(),
    };
  }
}

describe('read-side cache: a team loading while the feed moves on', () => {
  let dir: string;
  let events: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-cache-'));
    events = new SqliteEventStore({ filename: join(dir, 'events.db') });
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function project(runtime: ProjectionRuntime, after: number): Promise<number> {
    let last = after;
    for await (const page of events.readAll(after)) {
      await runtime.applyPage(page);
      last = page[page.length - 1].position;
    }
    return last;
  }

  it('folds the events applied during the load into the catalog, once, and later ones as they come', async () => {
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(store, [catalogTeamsProjector, catalogPostsProjector]);
    const held = new HeldCatalogStore(store);
    const cache = new ReadSideCache(held.asStore(), 64 * 1024 * 1024, false);
    runtime.onApplied((e) => cache.apply(e));
    const log = new ContentLogWriter(events);
    await log.teamCreated('t1');
    await log.postCreated('t1', 'p1', 'https://www.youtube.com/watch?v=p1aaaaaaaaa', 'youtube');
    let at = await project(runtime, -1);

    const loading = cache.team('t1'); // its catalog query sees p1 only, and waits
    await new Promise((r) => setTimeout(r, 10));
    await log.postCreated('t1', 'p2', 'https://www.youtube.com/watch?v=p2aaaaaaaaa', 'youtube');
    await log.tagged('t1', 'p1', [], ['late']);
    await log.settingsChanged('t1', 3, 0.5);
    at = await project(runtime, at);
    held.release();
    const team = await loading;

    expect(team.posts.map((p) => p.id)).toEqual(['p1', 'p2']);
    expect(team.postsById.get('p1')!.tags).toEqual(['late']);
    expect(team.settings).toEqual({ scoreVersion: 3, engagementWeight: 0.5 });

    // Later events reach the cached team through the feed, and a redelivery changes nothing.
    await log.tagged('t1', 'p2', [], ['after']);
    const before = at;
    at = await project(runtime, at);
    for await (const page of events.readAll(before)) for (const e of page) cache.apply(e);
    const same = await cache.team('t1');
    expect(same).toBe(team);
    expect(team.postsById.get('p2')!.tags).toEqual(['after']);
    expect(team.postsById.get('p1')!.tags).toEqual(['late']);
    expect(cache.stats()).toMatchObject({ teams: 1, loads: 1, evictions: 0 });
  });

  it('drops the least recently used team beyond the budget, and a team larger than it after use', async () => {
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(store, [catalogTeamsProjector, catalogPostsProjector]);
    const log = new ContentLogWriter(events);
    for (const teamId of ['a', 'b', 'c']) {
      await log.teamCreated(teamId);
      for (let p = 0; p < 10; p++)
        await log.postCreated(
          teamId,
          `${teamId}${p}`,
          `https://www.youtube.com/watch?v=${teamId}${p}aaaaaaaaa`.slice(0, 43),
          'youtube',
        );
    }
    await project(runtime, -1);
    const probe = new ReadSideCache(store, 1024 * 1024 * 1024, false);
    await probe.team('a');
    const oneTeam = probe.stats().bytes;
    expect(oneTeam).toBeGreaterThan(0);

    const cache = new ReadSideCache(store, Math.floor(oneTeam * 2.5), false);
    await cache.team('a');
    await cache.team('b');
    await cache.team('a'); // a is now the most recently used
    await cache.team('c'); // over the budget: b goes
    expect(cache.stats()).toMatchObject({ teams: 2, loads: 3, evictions: 1 });
    await cache.team('a');
    expect(cache.stats().loads).toBe(3); // still cached
    await cache.team('b');
    expect(cache.stats().loads).toBe(4); // loaded again

    const tiny = new ReadSideCache(store, Math.floor(oneTeam / 2), false);
    const team = await tiny.team('a');
    expect(team.posts).toHaveLength(10); // served whole
    await new Promise((r) => setTimeout(r, 0));
    expect(tiny.stats().teams).toBe(0); // and dropped after
  });
});
