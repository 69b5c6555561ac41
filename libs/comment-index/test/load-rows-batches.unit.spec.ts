import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchedComment } from '@analyst/contracts';
import {
  MemoryReadStore,
  ProjectionRuntime,
  SqliteEventStore,
  type Doc,
  type ReadCollection,
  type ReadStore,
} from '@analyst/platform';
import { ContentLogWriter } from '@analyst/testing';
import {
  catalogPostsProjector,
  catalogTeamsProjector,
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  commentChunksProjector,
  commentScoresProjector,
  POSTS_PER_READ,
  READS_IN_FLIGHT,
  ReadCache,
} from '../src';
import { scoredContent } from './scored-content';

/**
 * A load of more posts than READS_IN_FLIGHT reads of POSTS_PER_READ: the posts' rows come out in
 * the order asked, each with its own comments, while no more than READS_IN_FLIGHT reads of each
 * chunk collection wait on the store; a read that fails fails the load, and nothing is left
 * unhandled.
 */

const POSTS = POSTS_PER_READ * (READS_IN_FLIGHT + 1) + 3;
const postId = (p: number): string => `p${String(p).padStart(3, '0')}`;
const words = ['love', 'hate', 'great', 'boring', 'price', 'battery', 'camera', 'fine'];

function comments(p: number): FetchedComment[] {
  return Array.from({ length: 2 + (p % 3) }, (_, i) => ({
    id: `${postId(p)}-c${i}`,
    parentId: null,
    authorUsername: `user${(p + i) % 11}`,
    authorIsCreator: false,
    body: `${words[(p + i) % words.length]} post ${p} comment ${i}`,
    likes: p + i,
    postedAt: new Date(Date.parse('2026-03-01T00:00:00Z') + (p * 10 + i) * 60_000).toISOString(),
    hidden: false,
  }));
}

/** A store whose chunk reads wait until `release`d, counted while in flight; `fail` makes the nth read throw. */
class GatedStore implements ReadStore {
  inFlight = 0;
  mostInFlight = 0;
  reads = 0;
  fail: number | null = null;

  constructor(private readonly inner: ReadStore) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const collection = this.inner.collection<T>(name);
    if (name !== COMMENT_CHUNKS && name !== COMMENT_SCORES) return collection;
    return Object.assign(Object.create(collection) as ReadCollection<T>, {
      find: async (...args: Parameters<ReadCollection<T>['find']>) => {
        const read = ++this.reads;
        this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
        try {
          // Two turns of the event loop: every read the loader starts at once is in flight together.
          await new Promise((resolve) => setImmediate(resolve));
          await new Promise((resolve) => setImmediate(resolve));
          if (read === this.fail) throw new Error(`read ${read} failed`);
          return await collection.find(...args);
        } finally {
          this.inFlight--;
        }
      },
    });
  }

  listCollections(): Promise<string[]> {
    return this.inner.listCollections();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

describe('loadRows: batches read ahead', () => {
  let dir: string;
  let events: SqliteEventStore;
  let store: MemoryReadStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-load-rows-batches-'));
    events = new SqliteEventStore({ filename: join(dir, 'events.db') });
    store = new MemoryReadStore();
    const log = new ContentLogWriter(events);
    await log.teamCreated('t1');
    for (let p = 0; p < POSTS; p++) {
      const content = scoredContent(comments(p));
      await log.postCreated(
        't1',
        postId(p),
        `https://www.youtube.com/watch?v=${postId(p)}aaaaaaa`,
        'youtube',
      );
      await log.fetched('t1', postId(p), 1, content);
      await log.scored('t1', postId(p), 1, content);
    }
    const runtime = new ProjectionRuntime(store, [
      catalogTeamsProjector,
      catalogPostsProjector,
      commentChunksProjector,
      commentScoresProjector,
    ]);
    for await (const page of events.readAll(-1)) await runtime.applyPage(page);
  });
  afterAll(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends every post in the order asked, with its own comments, at most READS_IN_FLIGHT reads ahead', async () => {
    const gated = new GatedStore(store);
    const cache = new ReadCache(gated, 64 * 1024 * 1024, false);
    const team = await cache.team('t1');
    // Newest first, as an analysis asks for them.
    const asked = [...team.posts].reverse();
    await cache.rows(team, asked);
    const batches = Math.ceil(POSTS / POSTS_PER_READ);
    expect(gated.reads).toBe(2 * batches);
    expect(gated.mostInFlight).toBe(2 * READS_IN_FLIGHT);
    let next = 0;
    for (const post of asked) {
      const p = Number(post.id.slice(1));
      const rows = Array.from(post.scored!.rows);
      // Rows follow one another in the order the posts were asked.
      expect(rows).toEqual(rows.map((_, k) => next + k));
      next += rows.length;
      expect(rows.map((r) => team.commentIds[r])).toEqual(comments(p).map((c) => c.id));
      expect(rows.map((r) => team.details.body(r))).toEqual(comments(p).map((c) => c.body));
      expect(rows.map((r) => team.columns.likes[r])).toEqual(comments(p).map((c) => c.likes));
      expect(rows.map((r) => team.columns.postIndex[r])).toEqual(rows.map(() => post.index));
      expect(rows.every((r) => !Number.isNaN(team.columns.sentiment[r]))).toBe(true);
    }
    expect(team.columns.length).toBe(next);
  });

  it('fails the load with a read that fails after others were started, leaving none unhandled', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const gated = new GatedStore(store);
      // The second batch's chunk read: the first batch is appended by then, later ones in flight.
      gated.fail = 3;
      const cache = new ReadCache(gated, 64 * 1024 * 1024, false);
      const team = await cache.team('t1');
      await expect(cache.rows(team, team.posts)).rejects.toThrow('read 3 failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      // The first batch's posts kept their rows; the load of the rest can be asked again.
      expect(team.posts.slice(0, POSTS_PER_READ).every((p) => p.scored !== null)).toBe(true);
      expect(team.posts.slice(POSTS_PER_READ).every((p) => p.scored === null)).toBe(true);
      gated.fail = null;
      await cache.rows(team, team.posts);
      expect(team.posts.every((p) => p.scored!.rows.length === comments(0).length + (p.index % 3))).toBe(
        true,
      );
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
