/**
 * Read side at scale (issue 20): a log of millions of comments across hundreds of teams, projected
 * into the read store by the analysis and sampling services themselves, then fresh replicas of both
 * measured side by side against an empty log: start-up, resident memory with a 256 MiB cache after
 * requests that touch every team, snapshot and sample latency cold and cached, a 1,000-post job
 * cold, and the bytes per comment in the store and in the cache.
 *
 * Needs the local stack and a build:
 *   npm run build && deploy/local/with-stack.sh npm run bench -- bench/read-side-scale.ts [comments]
 * `comments` (default 3,000,000) sets the log: one team of 1,000 posts × 1,000 comments, 20 teams of
 * 100 posts × 1,000, and teams of 2 posts × 1,000 up to the total (at least 300 teams in all). The
 * log and the projected database are kept in READ_SIDE_BENCH_DIR (default /tmp/analyst-read-side-bench)
 * and reused by the next run with the same size (generating and projecting take minutes).
 *
 * Comments are real simulated comment sections scored by the product's scorer (a pool of about
 * 20,000), written under new ids as ingest writes them (ContentLogWriter): fetched chunks with their
 * PostFetched in one append, score chunks with PostScored in another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { calculateObjectSize } from 'bson';
import {
  CATALOG_POSTS,
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  fetchedChunkIds,
  POST_ANALYSIS_WITHOUT_DAYS,
  scoreChunkIds,
  POST_ANALYSES,
  postAnalysisId,
  type CatalogVersion,
} from '@analyst/comment-index';
import { SCOPES } from '@analyst/contracts';
import { signInternalAuth } from '@analyst/gateway';
import { SqliteEventStore, type Principal } from '@analyst/platform';
import { commentsFromPool, ContentLogWriter, SeededRandom } from '@analyst/testing';
import { scoredCommentPool } from './scored-comment-pool';

const ROOT = join(__dirname, '..');
const TOTAL = Number(process.argv[2] ?? 3_000_000);
const DIR = process.env.READ_SIDE_BENCH_DIR ?? '/tmp/analyst-read-side-bench';
const SECRET = 'bench-internal-secret-0123456789abcdefghij';
const CACHE_MB = 256;
const PER_POST = 1000;
/** Teams whose first snapshot is timed cold, and teams touched for the memory figure (env). */
const COLD_TEAMS = Number(process.env.READ_SIDE_COLD_TEAMS ?? 20);
const TOUCH_TEAMS = Number(process.env.READ_SIDE_TOUCH_TEAMS ?? 10_000);

interface Layout {
  total: number;
  teams: { id: string; posts: number }[];
}

function layoutFor(total: number): Layout {
  const teams = [{ id: 'tm_big', posts: 1000 }];
  for (let i = 0; i < 20; i++) teams.push({ id: `tm_mid_${String(i).padStart(2, '0')}`, posts: 100 });
  let comments = teams.reduce((n, t) => n + t.posts * PER_POST, 0);
  for (let i = 0; comments < total || teams.length < 300; i++) {
    teams.push({ id: `tm_small_${String(i).padStart(4, '0')}`, posts: 2 });
    comments += 2 * PER_POST;
  }
  return { total: comments, teams };
}

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Writes the log: every team's posts, fetched and scored, as ingest writes them. */
async function generate(file: string, layout: Layout): Promise<void> {
  const started = Date.now();
  const { pool, base, scorer } = scoredCommentPool('B');
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const log = new ContentLogWriter(events);
  const random = new SeededRandom(7);
  let written = 0;
  for (const team of layout.teams) {
    await log.teamCreated(team.id);
    for (let p = 0; p < team.posts; p++) {
      const postId = `po_${team.id.slice(3)}_${String(p).padStart(4, '0')}`;
      const link = `https://www.youtube.com/watch?v=${postId}`;
      const comments = commentsFromPool(pool, postId, PER_POST, random, { topics: 2, messages: 1 });
      const content = {
        post: { ...base, link },
        ...comments,
        topics: [
          { title: 'Battery life', description: null },
          { title: 'Price', description: null },
        ],
        messages: [{ topic: 'Battery', stance: 'lasts all day' }],
        scorer,
      };
      await log.postCreated(team.id, postId, link, 'youtube');
      await log.fetched(team.id, postId, 1, content);
      await log.scored(team.id, postId, 1, content);
      written += PER_POST;
    }
    if (team.id === 'tm_big' || written % 500_000 < 2_000)
      console.log(
        `  log: ${written.toLocaleString()} comments written (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  await events.close();
  console.log(
    `log generated: ${written.toLocaleString()} comments, ${layout.teams.length} teams in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

interface Replica {
  name: string;
  port: number;
  child: ChildProcess;
  readyMs: number;
  /** Resident memory (VmRSS) when /readyz first answered 200, and its peak (VmHWM) until then. */
  rssAtReady: number;
  peakAtReady: number;
}

let nextPort = 27_600 + Math.floor(Math.random() * 200) * 4;

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Starts a built app (dist/) and waits until its /readyz answers 200. */
async function startReplica(
  app: 'analysis' | 'sampling',
  env: { eventsFile: string; database: string; dataDir: string },
  timeoutMs = 3_600_000,
): Promise<Replica> {
  const port = nextPort++;
  mkdirSync(env.dataDir, { recursive: true });
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, `dist/apps/${app}/src/main.js`)], {
    cwd: ROOT,
    env: {
      ...process.env,
      ANALYST_MODE: 'distributed',
      ANALYST_SERVICE: app,
      ANALYST_DATA_DIR: env.dataDir,
      ANALYST_EVENTSTORE: `sqlite:${env.eventsFile}`,
      MONGO_DB: env.database,
      MONGO_CONDITIONAL_WRITES: process.env.MONGO_CONDITIONAL_WRITES ?? 'server',
      KAFKA_NAMESPACE: `${env.database}.`,
      ANALYST_INTERNAL_SECRET: SECRET,
      ANALYST_ADMIN_TOKEN: 'bench-admin-token-0123456789',
      ANALYST_READ_CACHE_MB: String(CACHE_MB),
      // As the image runs every service (Dockerfile): malloc returns the memory of big blocks.
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '65536',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${app} not ready in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyMs = Date.now() - started;
  const { rss, hwm } = memory(child.pid!);
  return { name: app, port, child, readyMs, rssAtReady: rss, peakAtReady: hwm };
}

/** The replica's JS heap in use and its memory outside the heap, from its own /metrics. */
async function heapOf(replica: Replica): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${replica.port}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return `heap used ${mb(value('nodejs_heap_size_used_bytes'))} of ${mb(value('nodejs_heap_size_total_bytes'))}, external ${mb(value('nodejs_external_memory_bytes'))}`;
}

async function stop(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null) return;
  const exited = new Promise((r) => replica.child.once('exit', r));
  replica.child.kill('SIGTERM');
  await exited;
}

function headersFor(teamId: string): Record<string, string> {
  const principal: Principal = {
    keyId: 'key_bench',
    keyName: 'bench',
    scopes: [...SCOPES],
    teamId,
    plan: 'enterprise',
    targetTeamId: teamId,
    targetPlan: 'enterprise',
  };
  return {
    'content-type': 'application/json',
    'x-analyst-internal-auth': signInternalAuth(SECRET, principal, `bench-${Date.now()}`, Date.now()),
  };
}

async function call(replica: Replica, teamId: string, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${replica.port}/analyst/v1${path}`, {
    method,
    headers: headersFor(teamId),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status >= 300)
    throw new Error(`${method} ${path} for ${teamId}: ${response.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as any };
}

const postIds = (teamId: string, count: number): string[] =>
  Array.from({ length: count }, (_, p) => `po_${teamId.slice(3)}_${String(p).padStart(4, '0')}`);

async function snapshot(replica: Replica, teamId: string, posts: number, include: string[] = ['wordCloud']) {
  return call(replica, teamId, 'POST', '/analyses', {
    selection: { postIds: postIds(teamId, posts) },
    include,
  });
}

/**
 * The store's own part of a cold load: the reads a replica makes for a team (its
 * catalog, team document, post analyses without their days, and every chunk and score chunk by
 * `_id`), made straight with the driver, decoded and dropped. What is left of the cold snapshot
 * is the replica's.
 */
async function storeReadsOfTeam(database: string, teamId: string): Promise<number> {
  const client = await new MongoClient(process.env.MONGO_URL!).connect();
  try {
    const db = client.db(database);
    const started = performance.now();
    const posts = await db
      .collection<{ _id: string; version: CatalogVersion | null }>(CATALOG_POSTS)
      .find({ teamId }, { sort: { seq: 1 } })
      .toArray();
    await db.collection<{ _id: string }>('analysis_teams').findOne({ _id: teamId });
    const scored = posts.filter((p) => p.version);
    await db
      .collection<{ _id: string }>(POST_ANALYSES)
      .find(
        { teamId, _id: { $in: scored.map((p) => postAnalysisId(p._id, p.version!.dataVersion)) } },
        { projection: POST_ANALYSIS_WITHOUT_DAYS },
      )
      .toArray();
    // As the loader names them (the bench's log records every score chunk count).
    const chunkIds = scored.flatMap((p) => fetchedChunkIds(p._id, p.version!.fetch!, p.version!.chunks));
    const scoreIds = scored.flatMap((p) => scoreChunkIds(p._id, p.version!.scores!));
    for (let from = 0; from < chunkIds.length; from += 400) {
      await Promise.all([
        db
          .collection<{ _id: string }>(COMMENT_CHUNKS)
          .find({ teamId, _id: { $in: chunkIds.slice(from, from + 400) } })
          .toArray(),
        db
          .collection<{ _id: string }>(COMMENT_SCORES)
          .find({ teamId, _id: { $in: scoreIds.slice(from, from + 400) } })
          .toArray(),
      ]);
    }
    return performance.now() - started;
  } finally {
    await client.close();
  }
}

/** Bytes per comment in the read store: the comment collections' documents, measured on a sample. */
async function storeBytesPerComment(
  database: string,
): Promise<{ chunks: number; scores: number; catalog: number }> {
  const client = await new MongoClient(process.env.MONGO_URL!).connect();
  try {
    const db = client.db(database);
    const sampleOf = async (name: string) => {
      const docs = await db.collection(name).find({ teamId: 'tm_mid_00' }).limit(200).toArray();
      const bytes = docs.reduce((n, d) => n + calculateObjectSize(d), 0);
      return { docs: docs.length, bytes };
    };
    const chunks = await sampleOf('comment_chunks');
    const scores = await sampleOf('comment_scores');
    const posts = await sampleOf('analysis_posts');
    const analyses = await sampleOf('post_analyses');
    // tm_mid_00: 100 posts of 1,000 comments in 4 chunks each.
    const perChunk = (s: { docs: number; bytes: number }) => s.bytes / Math.max(1, s.docs) / 250;
    return {
      chunks: perChunk(chunks),
      scores: perChunk(scores),
      catalog:
        (posts.bytes / Math.max(1, posts.docs) + analyses.bytes / Math.max(1, analyses.docs)) / PER_POST,
    };
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  if (!process.env.MONGO_URL || !process.env.KAFKA_BROKERS)
    throw new Error('run through deploy/local/with-stack.sh (needs MONGO_URL and KAFKA_BROKERS)');
  if (!existsSync(join(ROOT, 'dist/apps/analysis/src/main.js'))) throw new Error('run npm run build first');
  const layout = layoutFor(TOTAL);
  mkdirSync(DIR, { recursive: true });
  const marker = join(DIR, 'layout.json');
  const eventsFile = join(DIR, 'events.db');
  const database = `read_side_bench_${layout.total}`;
  const emptyFile = join(DIR, 'empty.db');
  const known = existsSync(marker)
    ? (JSON.parse(readFileSync(marker, 'utf8')) as { total: number; projected?: boolean })
    : null;
  console.log(
    `read-side scale bench: ${layout.total.toLocaleString()} comments, ${layout.teams.length} teams; cache ${CACHE_MB} MiB; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (known?.total !== layout.total) {
    rmSync(eventsFile, { force: true });
    rmSync(`${eventsFile}-wal`, { force: true });
    rmSync(`${eventsFile}-shm`, { force: true });
    const client = await new MongoClient(process.env.MONGO_URL).connect();
    await client.db(database).dropDatabase();
    await client.close();
    await generate(eventsFile, layout);
    writeFileSync(marker, JSON.stringify({ total: layout.total }));
  }
  if (!JSON.parse(readFileSync(marker, 'utf8')).projected) {
    // Project it: an analysis and a sampling replica fold the log into the read store once, from
    // position 0, and save their checkpoints; replicas started later resume from there.
    const started = Date.now();
    const dirs = { eventsFile, database, dataDir: join(DIR, 'data-projection') };
    const [a, s] = await Promise.all([startReplica('analysis', dirs), startReplica('sampling', dirs)]);
    console.log(
      `projected by the services: analysis ready after ${(a.readyMs / 1000).toFixed(0)} s, sampling after ${(s.readyMs / 1000).toFixed(0)} s (${((Date.now() - started) / 1000).toFixed(0)} s wall)`,
    );
    await Promise.all([stop(a), stop(s)]);
    writeFileSync(marker, JSON.stringify({ total: layout.total, projected: true }));
  }
  if (!existsSync(emptyFile)) {
    const empty = new SqliteEventStore({ filename: emptyFile });
    await empty.close();
  }

  // Start-up and memory at ready, empty log then full log, side by side, twice.
  const startups: Record<string, number[]> = {};
  const rss: Record<string, number[]> = {};
  const peaks: Record<string, number[]> = {};
  const note = (key: string, r: Replica) => {
    (startups[key] ??= []).push(r.readyMs);
    (rss[key] ??= []).push(r.rssAtReady);
    (peaks[key] ??= []).push(r.peakAtReady);
  };
  for (let round = 0; round < 2; round++) {
    for (const which of ['empty', 'full'] as const) {
      const env =
        which === 'empty'
          ? {
              eventsFile: emptyFile,
              database: `read_side_bench_empty_${Date.now()}`,
              dataDir: join(DIR, `data-empty-${round}`),
            }
          : { eventsFile, database, dataDir: join(DIR, `data-full-${round}`) };
      for (const app of ['analysis', 'sampling'] as const) {
        const r = await startReplica(app, env, 120_000);
        note(`${app} ${which}`, r);
        await stop(r);
      }
    }
  }
  for (const app of ['analysis', 'sampling']) {
    const e = startups[`${app} empty`];
    const f = startups[`${app} full`];
    console.log(
      `start-up ${app}: empty log ${e.join(' / ')} ms, ${layout.total.toLocaleString()} comments ${f.join(' / ')} ms (×${(Math.max(...f) / Math.min(...e)).toFixed(2)} worst to best); ` +
        `RSS at ready ${rss[`${app} empty`].map(mb).join(' / ')} vs ${rss[`${app} full`].map(mb).join(' / ')}; peak ${peaks[`${app} full`].map(mb).join(' / ')} (target ≤ 15 s and ≤ 1.5× empty)`,
    );
  }

  // Latency and memory on fresh replicas of the full log.
  const env = { eventsFile, database, dataDir: join(DIR, 'data-measure') };
  const analysis = await startReplica('analysis', env, 120_000);
  const sampling = await startReplica('sampling', env, 120_000);
  try {
    const mids = layout.teams.filter((t) => t.posts === 100).map((t) => t.id);
    const cold: number[] = [];
    for (const teamId of mids.slice(0, COLD_TEAMS)) {
      cold.push((await snapshot(analysis, teamId, 100)).ms);
      console.log(`  cold snapshot of ${teamId}: ${cold[cold.length - 1].toFixed(0)} ms`);
    }
    const cached: number[] = [];
    for (let i = 0; i < 60; i++) {
      const { ms } = await snapshot(analysis, mids[i % 3], 100);
      if (i >= 6) cached.push(ms);
    }
    const storeOnly: number[] = [];
    for (const teamId of mids.slice(0, 5)) storeOnly.push(await storeReadsOfTeam(database, teamId));
    console.log(
      `  the store's own part of a cold 100-post team (its reads made straight with the driver, 5 teams): p50 ${pct(storeOnly, 50).toFixed(0)} ms (${storeOnly.map((ms) => ms.toFixed(0)).join(' / ')})`,
    );
    console.log(
      `snapshot 100 posts × 1,000 comments: cold (first touch of ${cold.length} teams) p50 ${pct(cold, 50).toFixed(0)} ms, p95 ${pct(cold, 95).toFixed(0)} ms (target ≤ 500); ` +
        `cached p50 ${pct(cached, 50).toFixed(1)} ms, p95 ${pct(cached, 95).toFixed(1)} ms (target ≤ 50)`,
    );

    // Samples of 100 rows of a cached analysis.
    const sample = await snapshot(analysis, mids[0], 100);
    const analysisId = sample.body.data.id as string;
    const samples: number[] = [];
    for (let i = 0; i < 60; i++) {
      const { ms } = await call(sampling, mids[0], 'GET', `/analyses/${analysisId}/comments?limit=100`);
      if (i >= 6) samples.push(ms);
    }
    console.log(
      `sample of 100 rows: cached p50 ${pct(samples, 50).toFixed(1)} ms, p95 ${pct(samples, 95).toFixed(1)} ms (target ≤ 100)`,
    );

    // Teams touched (all by default): a snapshot of up to 100 posts on analysis, a post sample on
    // sampling. The 100-post teams first: a few of them already overflow the cache.
    const touchStarted = Date.now();
    const touched = [...layout.teams]
      .sort((a, b) => b.posts - a.posts)
      .filter((t) => t.posts <= 100)
      .slice(0, TOUCH_TEAMS);
    for (const team of touched) {
      await snapshot(analysis, team.id, Math.min(team.posts, 100), []);
      await call(sampling, team.id, 'GET', `/posts/${postIds(team.id, 1)[0]}/analysis/comments?limit=20`);
    }
    const analysisRss = memory(analysis.child.pid!);
    const samplingRss = memory(sampling.child.pid!);
    const emptyA = Math.max(...rss['analysis empty']);
    const emptyS = Math.max(...rss['sampling empty']);
    console.log(
      `after touching ${touched.length} of ${layout.teams.length} teams (${((Date.now() - touchStarted) / 1000).toFixed(0)} s): analysis RSS ${mb(analysisRss.rss)} (empty-log ${mb(emptyA)} + ${CACHE_MB} MiB = ${mb(emptyA + CACHE_MB * 1048576)}; peak ${mb(analysisRss.hwm)}), ` +
        `sampling RSS ${mb(samplingRss.rss)} (bound ${mb(emptyS + CACHE_MB * 1048576)}; peak ${mb(samplingRss.hwm)})`,
    );
    console.log(`  analysis: ${await heapOf(analysis)}; sampling: ${await heapOf(sampling)}`);
  } finally {
    await Promise.all([stop(analysis), stop(sampling)]);
  }

  // The 1,000-post job, cold: a fresh analysis replica, all of tm_big.
  const fresh = await startReplica(
    'analysis',
    { eventsFile, database, dataDir: join(DIR, 'data-job') },
    120_000,
  );
  try {
    const started = performance.now();
    const created = await snapshot(fresh, 'tm_big', 1000);
    const id = created.body.data.id as string;
    let status = created.body.data.status as string;
    while (status === 'queued' || status === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call(fresh, 'tm_big', 'GET', `/analyses/${id}`)).body.data.status;
    }
    const jobMs = performance.now() - started;
    const rssAfter = memory(fresh.child.pid!);
    console.log(
      `job 1,000 posts × 1,000 comments, cold: ${status} in ${(jobMs / 1000).toFixed(2)} s (target ≤ 5 s); RSS after ${mb(rssAfter.rss)}, peak ${mb(rssAfter.hwm)}`,
    );
  } finally {
    await stop(fresh);
  }
  const bigStore = [await storeReadsOfTeam(database, 'tm_big'), await storeReadsOfTeam(database, 'tm_big')];
  console.log(
    `  the store's own part of the cold 1,000-post job (its reads made straight with the driver, twice): ${bigStore.map((ms) => (ms / 1000).toFixed(2)).join(' / ')} s`,
  );

  const perComment = await storeBytesPerComment(database);
  const store = perComment.chunks + perComment.scores + perComment.catalog;
  console.log(
    `read store per comment: ${perComment.chunks.toFixed(0)} B fetched chunk + ${perComment.scores.toFixed(0)} B scores + ${perComment.catalog.toFixed(1)} B catalog = ${store.toFixed(0)} B ` +
      `(BSON, before the storage engine's compression): ${((store * 1e9) / 1e12).toFixed(2)} TB per billion comments`,
  );
  console.log(
    `load at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
