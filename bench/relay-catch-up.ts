// The relay's catch-up over a large log with the lease on (issue 38 item 4): a relay runner with the
// default lease timing (6 s TTL, renewed every 2 s; ANALYST_RELAY_LEASE_* override) starts on a
// log of comment chunks (250 comments an event, as ingest writes them, fetched and scored) and
// publishes all of it. Prints the catch-up time, the longest event-loop stall, the lease checks and
// the longest one, the generations and every relay warning, and checks that each event was
// published once, in log order.
//   in process (default): a SQLite log and an in-process bus that JSON-encodes each message, as the
//     Kafka producer does; the lease in an in-memory read store.
//     Run: npm run bench -- bench/relay-catch-up.ts [comments=1000000]
//   --stack: the real stack: a PostgreSQL log (a database of its own), Kafka (a namespace of its
//     own; its topics are left on the broker) and the lease in MongoDB (a database of its own); the
//     databases are dropped at the end.
//     Run: deploy/local/with-stack.sh npm run bench -- bench/relay-catch-up.ts [comments] --stack
//     (without the `--`, npm takes --stack and --store-writers for its own options and the bench
//     runs in process)
//   --store-writers=N (with --stack): N loops insert 50 KB documents into the lease's MongoDB
//     database while the relay catches up, standing in for analysis and sampling projecting the
//     same log into the same server (as they do when a relay catches up a whole installation).
// Figures (2026-11-29, this 2-core machine, default lease; "loaded" = --stack --store-writers=4
// beside tools/test-under-load.sh -n 8), before -> after KafkaBus's publish slots and the relay's
// sliced batches:
//   in process, 1M comments:          longest stall 888 -> 182 ms, 962 -> 2,128 events/s
//   stack, 1M comments, quiet:        longest stall 819 -> 38 ms (123 ms at load 9), 575 -> 912 events/s
//   stack, 1.1M comments, loaded:     longest stall 4,223 -> 186 and 283 ms (two runs), longest lease
//                                     check 1,786 -> 356-618 ms; before: generation 1 superseded, lease
//                                     lost, 9,800 publishes (1,000 again); after: generation 1 kept in
//                                     both, 8,800 once in order
// The stalls were kafkajs encoding hundreds of queued sends in one turn (JSON, RecordBatch,
// CRC32C): seen with --cpu-prof and the stall windows laid over the profile.
import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { MongoClient } from 'mongodb';
import { Client } from 'pg';
import { KafkaBus } from '@analyst/adapter-kafka';
import { MongoReadStore } from '@analyst/adapter-mongo';
import {
  InProcessBus,
  MemoryReadStore,
  ReadStoreCheckpointStore,
  RelayLease,
  SqliteEventStore,
  SystemClock,
  eventTopic,
  loadConfig,
  openEventStore,
  type EventMessage,
  type EventStore,
  type MessageBus,
  type NewEvent,
  type OutgoingMessage,
} from '@analyst/platform';
import { RelayRunner } from '../apps/relay/src/relay-runner';

const STACK = process.argv.includes('--stack');
const STORE_WRITERS = Number(
  /^--store-writers=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--store-writers=')) ?? '')?.[1] ?? 0,
);
const COMMENTS = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 1_000_000);
const CHUNK = 250;

function chunkEvent(type: 'CommentsFetched' | 'CommentsScored', post: number, chunk: number): NewEvent {
  const comments = Array.from({ length: CHUNK }, (_, i) => ({
    id: `c_${post}_${chunk}_${i}`,
    author: `user_${(post * 7 + i) % 5000}`,
    text: `comment ${i} on post ${post}: the sound cut out twice near the end, otherwise great`,
    likes: i % 40,
    publishedAt: '2026-11-01T12:00:00.000Z',
    ...(type === 'CommentsScored' ? { sentiment: 0.4, toxicity: 0.02, spam: false } : {}),
  }));
  return {
    id: randomUUID(),
    type,
    schemaVersion: 1,
    data: { postId: `post_${post}`, dataVersion: 1, chunk, comments },
    metadata: {
      correlationId: `corr_${post}`,
      causationId: null,
      teamId: `team_${post % 100}`,
      occurredAt: '2026-11-22T00:00:00.000Z',
    },
  };
}

async function fillLog(events: EventStore): Promise<number[]> {
  const chunksPerPost = 4; // 1,000 comments a post
  const posts = Math.ceil(COMMENTS / (CHUNK * chunksPerPost));
  for (let post = 0; post < posts; post++) {
    const chunks = Array.from({ length: chunksPerPost }, (_, c) => c);
    await events.append(
      `post-${post}`,
      [
        ...chunks.map((c) => chunkEvent('CommentsFetched', post, c)),
        ...chunks.map((c) => chunkEvent('CommentsScored', post, c)),
      ],
      'no_stream',
    );
  }
  const positions: number[] = [];
  for await (const page of events.readAll()) positions.push(...page.map((e) => e.position));
  return positions;
}

/** CREATE and DROP DATABASE run on a connection of their own, outside a transaction. */
async function postgresAdmin(statement: string): Promise<void> {
  const client = new Client({ connectionString: process.env.POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Setup {
  events: EventStore;
  /** The bus the relay publishes to, before the bench's recording wrapper. */
  bus: MessageBus;
  leaseStore: MongoReadStore | MemoryReadStore;
  /** The MongoDB database of the lease (stack only), where --store-writers write. */
  database: string | null;
  describe: () => Promise<string>;
  dispose: () => Promise<void>;
}

async function inProcess(): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-relay-bench-'));
  const file = join(dir, 'events.db');
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const bus = new InProcessBus({ awaitHandled: true });
  await bus.subscribe('bench', [eventTopic('post')], async () => undefined);
  return {
    events,
    bus,
    leaseStore: new MemoryReadStore(),
    database: null,
    describe: async () => `SQLite ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`,
    dispose: async () => {
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function onStack(): Promise<Setup> {
  const { POSTGRES_URL, KAFKA_BROKERS, MONGO_URL } = process.env;
  if (!POSTGRES_URL || !KAFKA_BROKERS || !MONGO_URL)
    throw new Error(
      '--stack runs through deploy/local/with-stack.sh (needs POSTGRES_URL, KAFKA_BROKERS, MONGO_URL)',
    );
  const name = `analyst_relay_bench_${randomBytes(4).toString('hex')}`;
  await postgresAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const events = openEventStore({ kind: 'postgres', connectionString: url.toString() });
  const bus = new KafkaBus({ brokers: KAFKA_BROKERS.split(','), namespace: `${name}.` });
  const leaseStore = await MongoReadStore.connect(MONGO_URL, name, 'server');
  return {
    events,
    bus,
    leaseStore,
    database: name,
    describe: async () => {
      const client = new Client({ connectionString: url.toString() });
      await client.connect();
      const size = await client.query<{ bytes: string }>(`SELECT pg_database_size('${name}') AS bytes`);
      await client.end();
      return `PostgreSQL ${(Number(size.rows[0].bytes) / 2 ** 20).toFixed(0)} MiB, Kafka namespace ${name}., lease in MongoDB ${name}`;
    },
    dispose: async () => {
      await bus.close();
      await events.close();
      await leaseStore.close();
      const mongo = await new MongoClient(MONGO_URL).connect();
      await mongo.db(name).dropDatabase();
      await mongo.close();
      await postgresAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function main(): Promise<void> {
  const setup = STACK ? await onStack() : await inProcess();
  const { events } = setup;
  const filledAt = Date.now();
  const positions = await fillLog(events);
  console.log(
    `log: ${positions.length} events (${COMMENTS} comments fetched and scored), ` +
      `${await setup.describe()}, written in ${((Date.now() - filledAt) / 1000).toFixed(1)} s`,
  );

  const published: number[] = [];
  let encodedBytes = 0;
  const bus = setup.bus;
  const publish = bus.publish.bind(bus);
  bus.publish = async (topic: string, messages: OutgoingMessage[]) => {
    for (const m of messages) {
      published.push((m.payload as EventMessage).position);
      // In process, the producer's encoding on this thread; KafkaBus encodes for itself.
      if (!STACK) encodedBytes += JSON.stringify(m.payload).length;
    }
    return publish(topic, messages);
  };

  const warnings: string[] = [];
  Logger.overrideLogger(false);
  const warn = Logger.prototype.warn;
  Logger.prototype.warn = function (message: unknown) {
    warnings.push(String(message));
  };
  let checks = 0;
  let longestCheckMs = 0;
  const tryAcquire = RelayLease.prototype.tryAcquire;
  RelayLease.prototype.tryAcquire = async function () {
    checks += 1;
    const started = Date.now();
    try {
      return await tryAcquire.call(this);
    } finally {
      longestCheckMs = Math.max(longestCheckMs, Date.now() - started);
    }
  };

  const config = loadConfig();
  const store = setup.leaseStore;
  const runner = new RelayRunner(
    events,
    bus,
    store,
    new ReadStoreCheckpointStore(store),
    new SystemClock(),
    config,
  );
  // Longest gap between two runs of a 10 ms timer: how long a lease renewal could have waited.
  let lastTick = Date.now();
  let longestStallMs = 0;
  const stallTimer = setInterval(() => {
    const now = Date.now();
    longestStallMs = Math.max(longestStallMs, now - lastTick - 10);
    lastTick = now;
  }, 10);
  if (STORE_WRITERS > 0 && !setup.database) throw new Error('--store-writers needs --stack');
  let writing = STORE_WRITERS > 0;
  let documentsWritten = 0;
  const writers = writing
    ? (async () => {
        const mongo = await new MongoClient(process.env.MONGO_URL!).connect();
        const load = mongo.db(setup.database!).collection('store_load');
        const blob = 'x'.repeat(50_000);
        await Promise.all(
          Array.from({ length: STORE_WRITERS }, async () => {
            while (writing) {
              await load.insertOne({ _id: randomUUID() as never, blob });
              documentsWritten += 1;
            }
          }),
        );
        await mongo.close();
      })()
    : Promise.resolve();
  const started = Date.now();
  runner.onApplicationBootstrap();
  while (published.length < positions.length && Date.now() - started < 30 * 60_000)
    await new Promise((r) => setTimeout(r, 50));
  const seconds = (Date.now() - started) / 1000;
  clearInterval(stallTimer);
  writing = false;
  await writers;
  if (STORE_WRITERS > 0)
    console.log(
      `read store load: ${STORE_WRITERS} writers inserted ${documentsWritten} documents of 50 KB meanwhile`,
    );
  await new Promise((r) => setTimeout(r, config.ANALYST_RELAY_LEASE_RENEW_MS)); // one more check
  const generation = (await runner.lease.current())?.generation ?? null;
  await runner.onApplicationShutdown();
  Logger.prototype.warn = warn;

  const inOrderOnce = published.length === positions.length && published.every((p, i) => p === positions[i]);
  console.log(
    `catch-up: ${published.length} publishes in ${seconds.toFixed(1)} s ` +
      `(${Math.round(positions.length / seconds)} events/s, ${Math.round(COMMENTS / seconds)} comments/s, ` +
      `${STACK ? 'to Kafka' : `${(encodedBytes / 2 ** 20).toFixed(0)} MiB encoded`})`,
  );
  console.log(
    `event loop: longest stall ${longestStallMs} ms ` +
      `(lease TTL ${config.ANALYST_RELAY_LEASE_TTL_MS} ms, renewed every ${config.ANALYST_RELAY_LEASE_RENEW_MS} ms)`,
  );
  console.log(
    `lease: ${checks} checks (longest ${longestCheckMs} ms), newest generation ${generation}; warnings: ${warnings.length ? warnings.join(' | ') : 'none'}`,
  );
  console.log(`every event published once, in log order: ${inOrderOnce ? 'yes' : 'no'}`);
  await setup.dispose();
}

void main();
