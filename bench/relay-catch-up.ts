// The relay's catch-up over a large log with the lease on (issue 38 item 4): a relay runner with the
// default lease timing (6 s TTL, renewed every 2 s; ANALYST_RELAY_LEASE_* override) starts on a
// SQLite log of comment chunks (250 comments an event, as ingest writes them, fetched and scored)
// and publishes it to an in-process bus that JSON-encodes each message, as the Kafka producer does.
// Prints the catch-up time, the longest event-loop stall, the lease checks, the generations and
// every relay warning, and checks that each event was published once, in log order.
// Run: npm run bench bench/relay-catch-up.ts [comments=1000000]
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import {
  InProcessBus,
  MemoryReadStore,
  ReadStoreCheckpointStore,
  RelayLease,
  SqliteEventStore,
  SystemClock,
  eventTopic,
  loadConfig,
  type EventMessage,
  type NewEvent,
  type OutgoingMessage,
} from '@analyst/platform';
import { RelayRunner } from '../apps/relay/src/relay-runner';

const COMMENTS = Number(process.argv[2] ?? 1_000_000);
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

async function fillLog(events: SqliteEventStore): Promise<number[]> {
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-relay-bench-'));
  const file = join(dir, 'events.db');
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const filledAt = Date.now();
  const positions = await fillLog(events);
  console.log(
    `log: ${positions.length} events (${COMMENTS} comments fetched and scored), ` +
      `${(statSync(file).size / 2 ** 20).toFixed(0)} MiB, written in ${((Date.now() - filledAt) / 1000).toFixed(1)} s`,
  );

  const inner = new InProcessBus({ awaitHandled: true });
  await inner.subscribe('bench', [eventTopic('post')], async () => undefined);
  const published: number[] = [];
  let encodedBytes = 0;
  const bus = Object.assign(Object.create(inner) as InProcessBus, {
    publish: async (topic: string, messages: OutgoingMessage[]) => {
      for (const m of messages) {
        published.push((m.payload as EventMessage).position);
        encodedBytes += JSON.stringify(m.payload).length; // the producer's encoding, on this thread
      }
      await inner.publish(topic, messages);
    },
  });

  const warnings: string[] = [];
  Logger.overrideLogger(false);
  const warn = Logger.prototype.warn;
  Logger.prototype.warn = function (message: unknown) {
    warnings.push(String(message));
  };
  let checks = 0;
  const tryAcquire = RelayLease.prototype.tryAcquire;
  RelayLease.prototype.tryAcquire = function () {
    checks += 1;
    return tryAcquire.call(this);
  };

  const config = loadConfig();
  const store = new MemoryReadStore();
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
  const started = Date.now();
  runner.onApplicationBootstrap();
  while (published.length < positions.length && Date.now() - started < 30 * 60_000)
    await new Promise((r) => setTimeout(r, 50));
  const seconds = (Date.now() - started) / 1000;
  clearInterval(stallTimer);
  await new Promise((r) => setTimeout(r, config.ANALYST_RELAY_LEASE_RENEW_MS)); // one more check
  const generation = (await runner.lease.current())?.generation ?? null;
  await runner.onApplicationShutdown();
  Logger.prototype.warn = warn;

  const inOrderOnce = published.length === positions.length && published.every((p, i) => p === positions[i]);
  console.log(
    `catch-up: ${published.length} publishes in ${seconds.toFixed(1)} s ` +
      `(${Math.round(positions.length / seconds)} events/s, ${Math.round(COMMENTS / seconds)} comments/s, ` +
      `${(encodedBytes / 2 ** 20).toFixed(0)} MiB encoded)`,
  );
  console.log(
    `event loop: longest stall ${longestStallMs} ms ` +
      `(lease TTL ${config.ANALYST_RELAY_LEASE_TTL_MS} ms, renewed every ${config.ANALYST_RELAY_LEASE_RENEW_MS} ms)`,
  );
  console.log(
    `lease: ${checks} checks, newest generation ${generation}; warnings: ${warnings.length ? warnings.join(' | ') : 'none'}`,
  );
  console.log(`every event published once, in log order: ${inOrderOnce ? 'yes' : 'no'}`);
  await events.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
