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
import { ContentLogWriter, type PostVersionContent } from '@analyst/testing';
import {
  CACHE_LIVE_SHARE,
  CATALOG_POSTS,
  catalogPostsProjector,
  catalogTeamsProjector,
  commentChunksProjector,
  commentScoresProjector,
  materializedOf,
  POST_ANALYSES,
  PostAnalysesStep,
  ReadCache,
  type PostAnalysisDoc,
} from '../src';
import { comment, scoredContent } from './scored-content';

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

describe('read cache: a team loading while the feed moves on', () => {
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
    const cache = new ReadCache(held.asStore(), 64 * 1024 * 1024, false);
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
    const probe = new ReadCache(store, 1024 * 1024 * 1024, false);
    await probe.team('a');
    const oneTeam = probe.stats().bytes;
    expect(oneTeam).toBeGreaterThan(0);

    // The cache fills CACHE_LIVE_SHARE of its memory budget: room for 2.5 teams of this size.
    const memoryBudget = Math.floor((oneTeam * 2.5) / CACHE_LIVE_SHARE);
    const cache = new ReadCache(store, memoryBudget, false);
    // The budget is reported as configured; the share it fills with teams beside it.
    expect(cache.stats()).toMatchObject({
      budgetBytes: memoryBudget,
      liveBudgetBytes: Math.floor(memoryBudget * CACHE_LIVE_SHARE),
    });
    await cache.team('a');
    await cache.team('b');
    await cache.team('a'); // a is now the most recently used
    await cache.team('c'); // over the budget: b goes
    expect(cache.stats()).toMatchObject({ teams: 2, loads: 3, evictions: 1 });
    await cache.team('a');
    expect(cache.stats().loads).toBe(3); // still cached
    await cache.team('b');
    expect(cache.stats().loads).toBe(4); // loaded again

    const tiny = new ReadCache(store, Math.floor(oneTeam / 2), false);
    const team = await tiny.team('a');
    expect(team.posts).toHaveLength(10); // served whole
    await new Promise((r) => setTimeout(r, 0));
    expect(tiny.stats().teams).toBe(0); // and dropped after
  });

  it('loads post analyses without their daily metrics, and reads those once when asked', async () => {
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(
      store,
      [catalogTeamsProjector, catalogPostsProjector, commentChunksProjector, commentScoresProjector],
      { steps: [new PostAnalysesStep(store, events)] },
    );
    const log = new ContentLogWriter(events);
    await log.teamCreated('t1');
    await log.postCreated('t1', 'p1', 'https://www.youtube.com/watch?v=p1aaaaaaaaa', 'youtube');
    await log.fetched('t1', 'p1', 1, threeDaysOfComments);
    await log.scored('t1', 'p1', 1, threeDaysOfComments);
    await project(runtime, -1);
    const stored = await store.collection<PostAnalysisDoc>(POST_ANALYSES).findOne({ _id: 'p1:1' });
    expect(stored!.materialized.metrics.daily.map((d) => [d.date, d.comments])).toEqual([
      ['2026-03-01', 2],
      ['2026-03-02', 1],
      ['2026-03-04', 1],
    ]);

    const analysisReads: unknown[] = [];
    const counting: ReadStore = {
      listCollections: () => store.listCollections(),
      ping: () => store.ping(),
      close: () => store.close(),
      collection: <T extends Doc>(name: string): ReadCollection<T> => {
        const collection = store.collection<T>(name);
        if (name !== POST_ANALYSES) return collection;
        return Object.assign(Object.create(collection) as ReadCollection<T>, {
          find: (...args: Parameters<ReadCollection<T>['find']>) => {
            analysisReads.push(args[1]?.projection);
            return collection.find(...args);
          },
          findOne: (...args: Parameters<ReadCollection<T>['findOne']>) => {
            analysisReads.push(args[1]?.projection);
            return collection.findOne(...args);
          },
        });
      },
    };
    const cache = new ReadCache(counting, 64 * 1024 * 1024, true);
    const team = await cache.team('t1');
    const post = team.postsById.get('p1')!;
    const held = materializedOf(post)!;
    expect(held.metrics.daily).toBeNull();
    expect(held.metrics.totals).toEqual(stored!.materialized.metrics.totals);
    expect(held.analysis).toEqual(stored!.materialized.analysis);
    const withoutDaily = cache.stats().bytes;

    expect(await cache.dailyMetrics(team, post)).toEqual(stored!.materialized.metrics.daily);
    expect(await cache.dailyMetrics(team, post)).toEqual(stored!.materialized.metrics.daily);
    // One read of the catalog's analyses without the days, one of the days alone; the second ask is held.
    expect(analysisReads).toEqual([{ 'materialized.metrics.daily': 0 }, { 'materialized.metrics.daily': 1 }]);
    expect(cache.stats().bytes).toBeGreaterThan(withoutDaily);

    // The comment rows it holds, once a request loads them: the four comments of p1's version.
    await cache.rows(team, [post]);
    expect(cache.stats().rows).toBe(4);
  });
});

/** Four comments over three days (none on the third), scored by the product's scorer. */
const threeDaysOfComments: PostVersionContent = scoredContent(
  ['2026-03-01T10:00:00Z', '2026-03-01T12:00:00Z', '2026-03-02T09:00:00Z', '2026-03-04T08:00:00Z'].map(
    (postedAt, i) =>
      comment(
        i,
        ['love this so much', 'great video, thanks', 'not for me, too long', 'ok I guess'][i],
        postedAt,
        i,
      ),
  ),
);
