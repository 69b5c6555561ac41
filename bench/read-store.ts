// Insert throughput and query latency of the in-memory read store and (with MONGO_URL) MongoDB/FerretDB.
// Run: npm run bench -- bench/read-store.ts [docs=10000]
import { randomBytes } from 'node:crypto';
import { MemoryReadStore, type ReadStore } from '@analyst/platform';
import { MongoReadStore } from '../libs/adapter-mongo/src/mongo-read-store';

const DOCS = Number(process.argv[2] ?? 10_000);
const QUERIES = 500;
const TEAMS = 20;
const PLATFORMS = ['tiktok', 'instagram', 'youtube', 'x'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function post(i: number) {
  return {
    _id: `post_${i}`,
    teamId: `team_${i % TEAMS}`,
    platform: PLATFORMS[i % PLATFORMS.length],
    status: i % 10 === 0 ? 'failed' : 'ready',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    commentCount: (i * 7919) % 5000,
    rollup: { positive: (i % 100) / 100, negative: ((i * 3) % 100) / 100 },
  };
}

async function timed(runs: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work(i);
    out.push(performance.now() - started);
  }
  return out.sort((a, b) => a - b);
}

const fmt = (sorted: number[]) =>
  `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;

async function run(name: string, store: ReadStore): Promise<void> {
  const posts = store.collection(`bench_posts_${randomBytes(4).toString('hex')}`);
  await posts.createIndex({ keys: { teamId: 1, createdAt: -1 } });
  const started = performance.now();
  for (let i = 0; i < DOCS; i++) await posts.insertOne(post(i));
  const seconds = (performance.now() - started) / 1000;
  const byId = await timed(QUERIES, (i) => posts.findOne({ _id: `post_${(i * 7919) % DOCS}` }));
  const page = await timed(QUERIES, (i) =>
    posts.find(
      { teamId: `team_${i % TEAMS}`, status: 'ready', commentCount: { $gte: 100 } },
      { sort: { createdAt: -1 }, limit: 50, skip: 50 },
    ),
  );
  await posts.drop();
  await store.close();
  console.log(
    `${name.padEnd(12)} insertOne x ${DOCS.toLocaleString('en-US')}: ${Math.round(DOCS / seconds).toLocaleString('en-US')} docs/s`,
  );
  console.log(`${''.padEnd(12)} find by _id: ${fmt(byId)}`);
  console.log(
    `${''.padEnd(12)} filtered page (team + status + count >= 100, sort createdAt desc, skip 50 limit 50): ${fmt(page)}`,
  );
}

async function main(): Promise<void> {
  await run('in-memory', new MemoryReadStore());
  const url = process.env.MONGO_URL;
  if (url) await run('mongodb', await MongoReadStore.connect(url, 'analyst_bench'));
  else console.log('mongodb      skipped (set MONGO_URL)');
}

void main();
