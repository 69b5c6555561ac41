/**
 * What a team's read waits for while a neighbour's writes are being projected (issue 38 item 1):
 * the analysis service's comment read side (CommentReadSide on a SQLite log and an in-memory read
 * store, posts materialized as analysis does) reading the log through its own handle, polled every
 * 25 ms as the distributed topology's `sqlite:` store is, while ingest's writes come through a second
 * handle on the same file (another process's appends cannot wake the reader). A log of
 * `backgroundTeams` small teams and team A (10 posts) is projected and A is warm in the cache; then,
 * round after round, neighbour B appends a burst of `burstPosts` posts of `commentsPerPost` comments as
 * ingest writes them (PostCreated, PostFetched + comment chunks, score chunks + PostScored), and right
 * after its last append A's team is read, alternately:
 *   before: wait for the whole log's head (the old CommentReadSide.team: current(), then the cache)
 *   after:  wait for A's own head (CommentReadSide.team: teamHeadPosition(A))
 * then the projection is let catch up before the next round. Also timed: headPosition() and
 * teamHeadPosition() themselves on the final log (the team index's two lookups).
 *
 *   npm run bench -- bench/team-read-wait.ts [rounds=10] [burstPosts=40] [commentsPerPost=1000] [backgroundTeams=100]
 *   TRW_STORE=postgres deploy/local/with-stack.sh npm run bench -- bench/team-read-wait.ts ...
 * (PostgreSQL: both handles are clients of POSTGRES_URL, in a schema of the bench's own, dropped at
 * the end; the reader is woken by LISTEN/NOTIFY, as a service is.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { PostgresEventStore } from '@analyst/adapter-postgres';
import { CommentReadSide } from '@analyst/comment-index';
import {
  HealthRegistry,
  MemoryReadStore,
  ProjectionService,
  ReadStoreCheckpointStore,
  SqliteEventStore,
  type AnalystConfig,
  type EventStore,
} from '@analyst/platform';
import { commentsFromPool, ContentLogWriter, SeededRandom } from '@analyst/testing';
import { scoredCommentPool } from './scored-comment-pool';

const ROUNDS = Number(process.argv[2] ?? 10);
const BURST_POSTS = Number(process.argv[3] ?? 40);
const COMMENTS_PER_POST = Number(process.argv[4] ?? 1000);
const BACKGROUND_TEAMS = Number(process.argv[5] ?? 100);
const TEAM_A = 'tm_reader';
const TEAM_B = 'tm_neighbour';

const { pool, base, scorer } = scoredCommentPool('W');
const random = new SeededRandom(38);
let postSeq = 0;

async function addPost(log: ContentLogWriter, teamId: string, comments: number): Promise<void> {
  const postId = `po_${String(postSeq++).padStart(7, '0')}`;
  const link = `https://www.youtube.com/watch?v=${postId}`;
  const content = {
    post: { ...base, link },
    ...commentsFromPool(pool, postId, comments, random, { topics: 2, messages: 1 }),
    topics: [{ title: 'Battery life', description: null }],
    messages: [{ topic: 'Battery', stance: 'lasts all day' }],
    scorer,
  };
  await log.postCreated(teamId, postId, link, 'youtube');
  await log.fetched(teamId, postId, 1, content);
  await log.scored(teamId, postId, 1, content);
}

const ms = (start: number): number => performance.now() - start;
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const fmt = (v: number): string => v.toFixed(2).padStart(8);

/** The reader's and ingest's handles on one log, and how to remove it. */
async function openLog(): Promise<{
  name: string;
  events: EventStore;
  ingest: EventStore;
  drop: () => Promise<void>;
}> {
  if (process.env.TRW_STORE === 'postgres') {
    const base = process.env.POSTGRES_URL;
    if (!base) throw new Error('TRW_STORE=postgres needs POSTGRES_URL (deploy/local/with-stack.sh)');
    const schema = `team_read_wait_${Date.now()}`;
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return {
      name: 'PostgreSQL',
      events: new PostgresEventStore({ connectionString: url }),
      ingest: new PostgresEventStore({ connectionString: url }),
      drop: async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'analyst-team-read-wait-'));
  const filename = join(dir, 'events.db');
  return {
    name: 'SQLite',
    events: new SqliteEventStore({ filename, synchronous: 'NORMAL', pollIntervalMs: 25 }),
    ingest: new SqliteEventStore({ filename, synchronous: 'NORMAL' }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function main(): Promise<void> {
  const { name, events, ingest, drop } = await openLog();
  const store = new MemoryReadStore();
  const projections = new ProjectionService(
    events,
    store,
    'rebuild',
    new ReadStoreCheckpointStore(store),
    { ANALYST_SERVICE: 'analysis' } as AnalystConfig,
    new HealthRegistry(),
  );
  const readSide = new CommentReadSide(projections, store, events, { cacheMb: 512, materializePosts: true });
  const log = new ContentLogWriter(ingest);
  try {
    const built = performance.now();
    for (let t = 0; t < BACKGROUND_TEAMS; t++) {
      const team = `tm_bg_${String(t).padStart(3, '0')}`;
      await log.teamCreated(team);
      for (let p = 0; p < 2; p++) await addPost(log, team, 100);
    }
    for (const team of [TEAM_A, TEAM_B]) await log.teamCreated(team);
    for (let p = 0; p < 10; p++) await addPost(log, TEAM_A, 100);
    await projections.start();
    const warm = await readSide.team(TEAM_A);
    console.log(
      `team-read-wait on ${name}: ${ROUNDS} rounds, neighbour bursts of ${BURST_POSTS} posts × ${COMMENTS_PER_POST} comments; ` +
        `log of ${BACKGROUND_TEAMS} background teams, reader ${warm.posts.length} posts; ` +
        `built and projected in ${(ms(built) / 1000).toFixed(1)} s; load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );

    const times: Record<'before' | 'after', number[]> = { before: [], after: [] };
    const pending: Record<'before' | 'after', number[]> = { before: [], after: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated, so the machine's load and the log's growth fall on both alike.
      const order: ('before' | 'after')[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const mode of order) {
        const burstStart = await events.headPosition();
        for (let p = 0; p < BURST_POSTS; p++) await addPost(log, TEAM_B, COMMENTS_PER_POST);
        const head = await events.headPosition();
        const start = performance.now();
        if (mode === 'before') {
          await readSide.current(120_000);
          await readSide.cache.team(TEAM_A);
        } else {
          await readSide.team(TEAM_A);
        }
        times[mode].push(ms(start));
        pending[mode].push(head - burstStart);
        await readSide.current(120_000); // the burst projected before the next round
      }
    }

    console.log("\nteam A read right after neighbour B's burst (ms):");
    console.log('  wait for         p50       p95       max      mean   burst events');
    for (const mode of ['before', 'after'] as const) {
      const t = times[mode];
      const label = mode === 'before' ? 'whole log  ' : "A's head   ";
      const mean = t.reduce((a, b) => a + b, 0) / t.length;
      const burst = pending[mode].reduce((a, b) => a + b, 0) / pending[mode].length;
      console.log(
        `  ${label}${fmt(quantile(t, 0.5))}  ${fmt(quantile(t, 0.95))}  ${fmt(Math.max(...t))}  ${fmt(mean)}   ${burst.toFixed(0)}`,
      );
    }
    console.log(
      `  p50 ratio before/after: ${(quantile(times.before, 0.5) / quantile(times.after, 0.5)).toFixed(1)}×`,
    );

    const head = await events.headPosition();
    const calls = 2000;
    const lookups: [string, () => Promise<number>][] = [
      ['headPosition()', () => events.headPosition()],
      [`teamHeadPosition(${TEAM_A})`, () => events.teamHeadPosition(TEAM_A)],
      [`teamHeadPosition(${TEAM_B})`, () => events.teamHeadPosition(TEAM_B)],
    ];
    console.log(`\nlog positions: head ${head}; per call over ${calls} calls (µs), alternated twice:`);
    for (let pass = 0; pass < 2; pass++)
      for (const [name, lookup] of lookups) {
        const start = performance.now();
        let value = 0;
        for (let i = 0; i < calls; i++) value = await lookup();
        console.log(
          `  ${name.padEnd(34)} ${((ms(start) * 1000) / calls).toFixed(1).padStart(7)}  -> ${value}`,
        );
      }
  } finally {
    await projections.stop();
    await ingest.close();
    await events.close();
    await drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
