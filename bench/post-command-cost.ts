/**
 * What a post command costs on a big post (issue 41, item 1): the state folded from the whole
 * `post-<id>` stream, as every post command did before, against PostCommands' SkippingStateSource,
 * which reads the stream without its comment chunks (POST_PAYLOAD_EVENT_TYPES).
 *
 *   npm run bench -- bench/post-command-cost.ts [comments=50000] [rounds=20]
 *   deploy/local/with-stack.sh npm run bench -- bench/post-command-cost.ts   (adds PostgreSQL)
 *
 * The post: created, fetched and scored, then refreshed twice, each version fetched and scored with
 * `comments` comments (@analyst/testing's `commentsOfVersion`, about 240 bytes of JSON a fetched
 * comment and 290 a scored one), written as ingest writes them (`ContentLogWriter`: 250 comments a
 * chunk, so 200 CommentsFetched and 200 CommentsScored a version at 50,000). Written to the SQLite
 * log in a file, to SQLite in memory, and to PostgreSQL when POSTGRES_URL is set (a new post id each
 * run, beside whatever the database holds).
 *
 * For each store, the same command (TagPost with a new tag, so each appends one PostTagged) runs
 * `rounds` times each way, the two ways alternating round by round, then `state()` (the load alone,
 * as the pipeline and the refresh handlers read a post) as often. Printed per way:
 * - events and bytes read by one command: the events the store returned and the sum of their data's
 *   JSON length (counted in one extra command, outside the timed rounds);
 * - p50 / p95 in ms of the timed rounds: the command (load, decide, append) and the load alone;
 * - the ratio whole / skipping of each.
 *
 * Figures (2026-11-29, this 2-core machine shared with other sessions, load 3.4-3.8; 50,000 comments,
 * 20 rounds): the stream is 1,209 events and 68.7 MB of data. Whole fold: 1,209 events and 68.7 MB
 * read a command; command p50/p95 566/1,420 ms on the SQLite file, 481/730 in memory, 538/704 on
 * PostgreSQL. Skipping chunks: 10 events, 3 KB; 1.25/9.7 ms, 0.91/1.2, 2.8/44. Ratios at p50: events
 * ×121, bytes ×20,718, command ×454 / ×530 / ×191, load alone ×578 / ×502 / ×257.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '@analyst/adapter-postgres';
import type { PostEvent } from '@analyst/contracts';
import { postDecider, postStream, type PostCommand, type PostState } from '@analyst/domain-content';
import {
  CommandHandler,
  CommandRunner,
  FixedClock,
  SequentialIdGenerator,
  SqliteEventStore,
  type EventStore,
  type RecordedEvent,
} from '@analyst/platform';
import { commentsOfVersion, ContentLogWriter, type PostVersionContent } from '@analyst/testing';
import { PostCommands } from '../libs/ingest/src/commands/post-commands';

const COMMENTS = Number(process.argv[2] ?? 50_000);
const ROUNDS = Number(process.argv[3] ?? 20);
const VERSIONS = 3;
const TEAM = 'tm_post_cost';
const AT = '2026-11-29T12:00:00.000Z';

type PostHandler = CommandHandler<string, PostCommand, PostEvent, PostState>;

interface Reads {
  events: number;
  bytes: number;
}

/** The store, with what its stream reads returned counted while `counting` is on. */
function counting(store: EventStore): { store: EventStore; reads: Reads; on: (yes: boolean) => void } {
  const reads: Reads = { events: 0, bytes: 0 };
  let on = false;
  const count = (events: readonly RecordedEvent[]) => {
    if (!on) return;
    reads.events += events.length;
    for (const e of events) reads.bytes += JSON.stringify(e.data).length;
  };
  const wrapped = Object.assign(Object.create(store) as EventStore, {
    readStream: async (streamId: string, fromRevision?: number) => {
      const events = await store.readStream(streamId, fromRevision);
      count(events);
      return events;
    },
    readStreamExcept: async (streamId: string, skipTypes: readonly string[], fromRevision?: number) => {
      const read = await store.readStreamExcept(streamId, skipTypes, fromRevision);
      count(read.events);
      return read;
    },
  });
  return { store: wrapped, reads, on: (yes) => (on = yes) };
}

async function writePost(store: EventStore, postId: string): Promise<void> {
  const log = new ContentLogWriter(store);
  const link = `https://www.youtube.com/watch?v=${postId}`;
  await log.postCreated(TEAM, postId, link, 'youtube');
  for (let version = 1; version <= VERSIONS; version++) {
    if (version > 1) await log.refreshRequested(TEAM, postId, version);
    const content: PostVersionContent = {
      post: {
        link,
        platform: 'youtube',
        creator: { username: 'creator', name: 'The Creator' },
        title: 'A launch video with a long comment section',
        caption: 'launch',
        description: null,
        engagement: { views: 2_000_000, likes: 90_000, comments: COMMENTS, shares: 1_000 },
        postedAt: AT,
        postType: 'video',
        thumbnail: null,
      },
      ...commentsOfVersion(postId, version, COMMENTS),
      topics: [],
      messages: [],
      scorer: { name: 'test', version: '1' },
    };
    await log.fetched(TEAM, postId, version, content);
    await log.scored(TEAM, postId, version, content);
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Way {
  name: string;
  posts: PostHandler;
  reads: Reads;
  command: number[];
  load: number[];
}

async function measure(label: string, store: EventStore): Promise<void> {
  const postId = `po_cost_${randomUUID().slice(0, 8)}`;
  let started = performance.now();
  await writePost(store, postId);
  const stream = await store.readStream(postStream(postId));
  const streamBytes = stream.reduce((n, e) => n + JSON.stringify(e.data).length, 0);
  console.log(
    `\n${label}: post of ${VERSIONS} versions × ${COMMENTS.toLocaleString()} comments, ${stream.length} events, ` +
      `${(streamBytes / 1e6).toFixed(1)} MB of data, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const counted = counting(store);
  const runner = new CommandRunner(counted.store, new FixedClock(AT), new SequentialIdGenerator());
  const ways: Way[] = [
    {
      name: 'whole fold',
      posts: new CommandHandler(runner, { decider: postDecider, streamOf: postStream }),
      reads: { events: 0, bytes: 0 },
      command: [],
      load: [],
    },
    {
      name: 'skipping chunks',
      posts: new PostCommands(runner, counted.store),
      reads: { events: 0, bytes: 0 },
      command: [],
      load: [],
    },
  ];
  let tag = 0;
  const tagPost = (way: Way) =>
    way.posts.handle(
      postId,
      { type: 'TagPost', data: { collectionIds: [], tags: [`round-${tag++}`], at: AT } },
      { correlationId: 'bench', teamId: TEAM },
    );

  for (const way of ways) {
    counted.reads.events = 0;
    counted.reads.bytes = 0;
    counted.on(true);
    const outcome = await tagPost(way);
    counted.on(false);
    if (outcome.events.length !== 1)
      throw new Error(`${way.name}: TagPost appended ${outcome.events.length} events`);
    way.reads = { ...counted.reads };
  }
  const [whole, skipping] = await Promise.all(ways.map((way) => way.posts.state(postId)));
  if (JSON.stringify(whole) !== JSON.stringify(skipping))
    throw new Error('the two ways load different states');

  started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
      const t0 = performance.now();
      await tagPost(way);
      way.command.push(performance.now() - t0);
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
      const t0 = performance.now();
      await way.posts.state(postId);
      way.load.push(performance.now() - t0);
    }
  }
  const ms = (v: number) => v.toFixed(v < 10 ? 2 : 0);
  for (const way of ways) {
    console.log(
      `  ${way.name.padEnd(16)} ${String(way.reads.events).padStart(5)} events ${(way.reads.bytes / 1e6).toFixed(3).padStart(8)} MB read` +
        `  command p50 ${ms(percentile(way.command, 50))} p95 ${ms(percentile(way.command, 95))} ms` +
        `  load p50 ${ms(percentile(way.load, 50))} p95 ${ms(percentile(way.load, 95))} ms`,
    );
  }
  const ratio = (a: number, b: number) => `×${(a / b).toFixed(a / b < 10 ? 1 : 0)}`;
  console.log(
    `  whole / skipping: events ${ratio(ways[0].reads.events, ways[1].reads.events)}, bytes ${ratio(ways[0].reads.bytes, ways[1].reads.bytes)}, ` +
      `command p50 ${ratio(percentile(ways[0].command, 50), percentile(ways[1].command, 50))}, ` +
      `load p50 ${ratio(percentile(ways[0].load, 50), percentile(ways[1].load, 50))} ` +
      `(${ROUNDS} rounds a way, ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${loadavg()[0].toFixed(1)})`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'post-command-cost-'));
  const file = new SqliteEventStore({ filename: join(dir, 'events.db') });
  try {
    await measure('SQLite (file)', file);
  } finally {
    await file.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const memory = new SqliteEventStore({ filename: ':memory:' });
  try {
    await measure('SQLite (in memory)', memory);
  } finally {
    await memory.close();
  }
  const url = process.env.POSTGRES_URL;
  if (!url) {
    console.log('\nPostgreSQL: skipped (POSTGRES_URL not set)');
    return;
  }
  const postgres = new PostgresEventStore({ connectionString: url });
  try {
    await measure('PostgreSQL', postgres);
  } finally {
    await postgres.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
