/**
 * What a cached team costs a replica's memory, against what the cache's budget counts for it
 * (issue 27): teams of a few shapes are written as ingest writes them, projected into an in-memory
 * read store, then loaded one after another into a ReadCache with a budget that keeps them all;
 * after a full GC, the growth of the JS heap and of the memory outside it (array buffers) per team
 * is set beside the growth of `stats().bytes` (which already includes HELD_PER_COUNTED_BYTE).
 *
 *   npm run bench -- --expose-gc bench/read-side-team-bytes.ts [teamsPerShape] [shapes: 100x1000,...]
 *
 * A ratio above 1 means the budget undercounts that shape: a cache full of such teams holds more
 * than ANALYST_READ_CACHE_MB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  catalogPostsProjector,
  catalogTeamsProjector,
  commentChunksProjector,
  commentScoresProjector,
  PostAnalysesStep,
  ReadCache,
} from '@analyst/comment-index';
import { MemoryReadStore, ProjectionRuntime, SqliteEventStore } from '@analyst/platform';
import { commentsFromPool, ContentLogWriter, SeededRandom } from '@analyst/testing';
import { scoredCommentPool } from './scored-comment-pool';

const TEAMS_PER_SHAPE = Number(process.argv[2] ?? 12);
/**
 * Posts × comments per post of each team shape: by default the read-side scale bench's small and
 * middle teams, and one between; a second argument names others (`100x1000,2x1000`).
 */
const SHAPES: [number, number][] = process.argv[3]
  ? process.argv[3].split(',').map((shape) => {
      const [posts, perPost] = shape.split('x').map(Number);
      if (!(posts > 0 && perPost > 0)) throw new Error(`a shape is postsxcomments, not ${shape}`);
      return [posts, perPost];
    })
  : [
      [2, 1000],
      [10, 1000],
      [50, 1000],
    ];
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const teamId = (shape: number, i: number): string => `tm_${shape}_${pad(i, 3)}`;

async function writeLog(file: string): Promise<void> {
  const { pool, base, scorer } = scoredCommentPool('M');
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const log = new ContentLogWriter(events);
  const random = new SeededRandom(31);
  for (const [shape, [posts, perPost]] of SHAPES.entries()) {
    for (let t = 0; t < TEAMS_PER_SHAPE; t++) {
      const team = teamId(shape, t);
      await log.teamCreated(team);
      for (let p = 0; p < posts; p++) {
        const postId = `po_${team.slice(3)}_${pad(p, 3)}`;
        const link = `https://www.youtube.com/watch?v=${postId}`;
        const comments = commentsFromPool(pool, postId, perPost, random, { topics: 2, messages: 1 });
        const content = {
          post: { ...base, link },
          ...comments,
          topics: [{ title: 'Battery life', description: null }],
          messages: [{ topic: 'Battery', stance: 'lasts all day' }],
          scorer,
        };
        await log.postCreated(team, postId, link, 'youtube');
        await log.fetched(team, postId, 1, content);
        await log.scored(team, postId, 1, content);
      }
    }
  }
  await events.close();
}

function held(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-team-bytes-'));
  try {
    const file = join(dir, 'events.db');
    await writeLog(file);
    const events = new SqliteEventStore({ filename: file });
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(
      store,
      [catalogTeamsProjector, catalogPostsProjector, commentChunksProjector, commentScoresProjector],
      { steps: [new PostAnalysesStep(store, events)] },
    );
    for await (const page of events.readAll(-1)) await runtime.applyPage(page);
    await events.close();
    console.log(
      `read-side team bytes: ${TEAMS_PER_SHAPE} teams of each shape; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const [shape, [posts, perPost]] of SHAPES.entries()) {
      const cache = new ReadCache(store, 64 * 1024 * 1024 * 1024);
      const before = held();
      for (let t = 0; t < TEAMS_PER_SHAPE; t++) {
        const team = await cache.team(teamId(shape, t));
        await cache.rows(team, team.posts);
      }
      const measured = (held() - before) / TEAMS_PER_SHAPE;
      const stats = cache.stats();
      const counted = stats.bytes / TEAMS_PER_SHAPE;
      console.log(
        `teams of ${posts} posts × ${perPost} comments: held ${(measured / 1048576).toFixed(2)} MiB a team, ` +
          `counted ${(counted / 1048576).toFixed(2)} MiB (held ÷ counted ${(measured / counted).toFixed(2)}); ` +
          `${(measured / (posts * perPost)).toFixed(0)} B a comment held, ` +
          // What the replica reports as analyst_read_cache_bytes_per_comment for a cache of these teams.
          `${(stats.bytes / stats.rows).toFixed(0)} B a comment counted over ${stats.rows} rows`,
      );
      // Kept alive until measured: the cache is dropped with this scope.
      if (cache.stats().teams !== TEAMS_PER_SHAPE) throw new Error('the cache dropped a team');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
