/**
 * Where a cold team's time goes (issue 38 item 6): one team of 100 posts × 1,000 comments, written as
 * ingest writes it and projected by the real projectors (and the post-analyses step), then a cold
 * 100-post snapshot (a fresh analysis cache: catalog, post analyses, rows, computeAnalysis with the
 * word cloud) and a cold 100-row sample of the same posts (a fresh sampling cache: catalog, rows,
 * drawSample and the 100 rows' views), each split into its parts: the store's reads (the time any
 * read of the store was in flight), the replica's decoding and row building (rows less the store's
 * reads), and the rollup or the draw.
 *
 * Stores, side by side: the in-memory store (its reads are a match and copy in this process, so the
 * rest is the replica's own work) and, with MONGO_URL (deploy/local/with-stack.sh), the local stack's
 * MongoDB stand-in (mongo-java-server) over the driver. The stand-in finds documents by `_id` through
 * its index (IdLookupH2Collection) but has no secondary indexes: the catalog's `{teamId}` read scans
 * the collection. That part is measured directly against the driver: the same catalog documents read
 * by `{teamId}` and by `_id` (an indexed lookup on every store), and the post analyses and chunk
 * documents read with the driver's raw answer (server and transfer) against the decoded one (the
 * driver's BSON decoding). The replica's CPU time of each request is printed beside its wall time:
 * on a loaded machine the wall time follows the load (on the in-memory store, the CPU time includes
 * the store's match and copy).
 *
 *   npm run bench -- bench/read-side-cold-parts.ts [rounds]
 *   deploy/local/with-stack.sh npm run bench -- bench/read-side-cold-parts.ts [rounds]
 *   READ_SIDE_COLD_BEFORE=<checkout> ... : before/after in one run: the same bench, copied into another
 *   checkout (a git worktree of the commit before, with node_modules linked), runs in child processes
 *   alternated with this checkout's (before, after, before, after), and the medians are set side by
 *   side with their ratios.
 *
 * The log is kept in READ_SIDE_COLD_DIR (default /tmp/analyst-read-side-cold) and reused.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import {
  CATALOG_POSTS,
  CATALOG_TEAMS,
  catalogPostsProjector,
  catalogTeamsProjector,
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  commentChunksProjector,
  commentScoresProjector,
  compileFilters,
  computeAnalysis,
  fetchedChunkIds,
  POST_ANALYSES,
  POST_ANALYSIS_WITHOUT_DAYS,
  PostAnalysesStep,
  postAnalysisId,
  ReadCache,
  scoreChunkIds,
  type PostEntry,
} from '@analyst/comment-index';
import {
  MemoryReadStore,
  MongoReadStore,
  ProjectionRuntime,
  SqliteEventStore,
  type Doc,
  type Filter,
  type FindOptions,
  type ReadCollection,
  type ReadStore,
} from '@analyst/platform';
import { commentRow, drawSample } from '@analyst/sampling';
import { commentsFromPool, ContentLogWriter, SeededRandom } from '@analyst/testing';
import { scoredCommentPool } from './scored-comment-pool';

const ROUNDS = Number(process.argv[2] ?? 5);
const POSTS = 100;
const PER_POST = 1000;
const TEAM = 'tm_cold';
const DIR = process.env.READ_SIDE_COLD_DIR ?? '/tmp/analyst-read-side-cold';
const COLLECTIONS = [CATALOG_TEAMS, CATALOG_POSTS, POST_ANALYSES, COMMENT_CHUNKS, COMMENT_SCORES];
/** A child of a before/after run prints its medians on a line of its own after this. */
const CHILD_MARK = 'COLD_PARTS_JSON ';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function generate(file: string): Promise<void> {
  const { pool, base, scorer } = scoredCommentPool('C');
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const events = new SqliteEventStore({ filename: partial, synchronous: 'NORMAL' });
  const log = new ContentLogWriter(events);
  const random = new SeededRandom(38);
  await log.teamCreated(TEAM);
  for (let p = 0; p < POSTS; p++) {
    const postId = `po_cold_${pad(p, 3)}`;
    const link = `https://www.youtube.com/watch?v=${postId}`;
    const comments = commentsFromPool(pool, postId, PER_POST, random, { topics: 2, messages: 1 });
    await log.postCreated(TEAM, postId, link, 'youtube');
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
    await log.fetched(TEAM, postId, 1, content);
    await log.scored(TEAM, postId, 1, content);
  }
  await events.close();
  renameSync(partial, file);
}

/** The read models as the analysis service projects them, into `store`. */
async function project(file: string, store: ReadStore): Promise<void> {
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const runtime = new ProjectionRuntime(
    store,
    [catalogTeamsProjector, catalogPostsProjector, commentChunksProjector, commentScoresProjector],
    { steps: [new PostAnalysesStep(store, events)] },
  );
  await runtime.createIndexes();
  for await (const page of events.readAll(-1)) await runtime.applyPage(page);
  await events.close();
}

/**
 * A store whose reads are timed: `busy` is the wall time during which at least one read was in
 * flight (reads run in parallel, so their sum would count the overlap twice).
 */
class TimedReadStore implements ReadStore {
  busy = 0;
  private inFlight = 0;
  private since = 0;

  constructor(private readonly inner: ReadStore) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const inner = this.inner.collection<T>(name);
    const timed = async <R>(read: () => Promise<R>): Promise<R> => {
      if (this.inFlight++ === 0) this.since = performance.now();
      try {
        return await read();
      } finally {
        if (--this.inFlight === 0) this.busy += performance.now() - this.since;
      }
    };
    return {
      ...inner,
      name: inner.name,
      find: (filter: Filter, options?: FindOptions) => timed(() => inner.find(filter, options)),
      findOne: (filter: Filter, options?: Pick<FindOptions, 'sort' | 'projection'>) =>
        timed(() => inner.findOne(filter, options)),
      count: (filter?: Filter) => timed(() => inner.count(filter)),
    };
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

  /** The busy time since the last call. */
  take(): number {
    const spent = this.busy;
    this.busy = 0;
    return spent;
  }
}

/** One cold request's parts (ms). */
interface Parts {
  catalog: number;
  catalogStore: number;
  rows: number;
  rowsStore: number;
  /** computeAnalysis, or drawSample and the page's row views. */
  compute: number;
  total: number;
  /** The process's CPU time over the request (the replica's own, whatever else the machine runs). */
  cpu: number;
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function coldSnapshot(store: TimedReadStore): Promise<Parts> {
  const cache = new ReadCache(store, 2048 * 1024 * 1024, true);
  store.take();
  const cpuStarted = cpuMs();
  const started = performance.now();
  const team = await cache.team(TEAM);
  const catalog = performance.now() - started;
  const catalogStore = store.take();
  const posts = [...team.posts].reverse().slice(0, POSTS);
  await cache.rows(team, posts);
  const rows = performance.now() - started - catalog;
  const rowsStore = store.take();
  const computed = performance.now();
  const result = computeAnalysis({
    team,
    posts,
    filter: compileFilters(null, team),
    settings: team.settings,
    include: ['wordCloud'],
  });
  const compute = performance.now() - computed;
  if (result.scope.totalComments < POSTS * PER_POST * 0.9)
    throw new Error(`the snapshot read ${result.scope.totalComments} comments`);
  const total = performance.now() - started;
  return { catalog, catalogStore, rows, rowsStore, compute, total, cpu: cpuMs() - cpuStarted };
}

async function coldSample(store: TimedReadStore): Promise<Parts> {
  const cache = new ReadCache(store, 2048 * 1024 * 1024, false);
  store.take();
  const cpuStarted = cpuMs();
  const started = performance.now();
  const team = await cache.team(TEAM);
  const catalog = performance.now() - started;
  const catalogStore = store.take();
  const posts = [...team.posts].reverse().slice(0, POSTS);
  await cache.rows(team, posts);
  const rows = performance.now() - started - catalog;
  const rowsStore = store.take();
  const drawn = performance.now();
  const version = team.settings.scoreVersion;
  const page = drawSample({
    team,
    details: team.details,
    posts,
    baseFilter: compileFilters(null, team),
    searchMatch: null,
    buckets: {},
    version,
    source: 'all',
    seed: 38,
    after: null,
    limit: 100,
  });
  const context = { version, bucketFiltered: false, analysisFiltered: false, searched: false };
  const views = page.rows.map((row, i) => commentRow(team, team.details, row, page.flags[i], context));
  const compute = performance.now() - drawn;
  if (views.length !== 100 || views.some((v) => v.body.length === 0))
    throw new Error(`the sample drew ${views.length} rows, or one without a body`);
  const total = performance.now() - started;
  return { catalog, catalogStore, rows, rowsStore, compute, total, cpu: cpuMs() - cpuStarted };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const KEYS: (keyof Parts)[] = ['catalog', 'catalogStore', 'rows', 'rowsStore', 'compute', 'total', 'cpu'];
const medians = (rounds: Parts[]): Parts =>
  Object.fromEntries(KEYS.map((k) => [k, median(rounds.map((r) => r[k]))])) as unknown as Parts;

function describe(kind: 'snapshot' | 'sample', p: Parts): string {
  const compute = kind === 'snapshot' ? 'analysis' : 'draw and views';
  return `catalog ${p.catalog.toFixed(0)} ms (store ${p.catalogStore.toFixed(0)}) + rows ${p.rows.toFixed(0)} ms (store ${p.rowsStore.toFixed(0)}, decode and build ${(p.rows - p.rowsStore).toFixed(0)}) + ${compute} ${p.compute.toFixed(0)} ms = ${p.total.toFixed(0)} ms (replica CPU ${p.cpu.toFixed(0)} ms)`;
}

/** Rounds of both cold requests on one store; their medians. */
async function measure(name: string, store: TimedReadStore): Promise<{ snapshot: Parts; sample: Parts }> {
  const snapshots: Parts[] = [];
  const samples: Parts[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    snapshots.push(await coldSnapshot(store));
    samples.push(await coldSample(store));
    console.log(
      `  ${name} #${i + 1}: snapshot ${describe('snapshot', snapshots[i])}; sample ${describe('sample', samples[i])} (load ${load()})`,
    );
  }
  const result = { snapshot: medians(snapshots), sample: medians(samples) };
  console.log(
    `RESULT ${name}, median of ${ROUNDS}: cold 100-post snapshot ${describe('snapshot', result.snapshot)}`,
  );
  console.log(
    `RESULT ${name}, median of ${ROUNDS}: cold 100-row sample ${describe('sample', result.sample)}`,
  );
  return result;
}

/** Copies the projected documents into a fresh database of the server, with the runtime's indexes. */
async function copyToServer(
  url: string,
  database: string,
  from: MemoryReadStore,
  file: string,
): Promise<MongoReadStore> {
  const store = await MongoReadStore.connect(url, database);
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const runtime = new ProjectionRuntime(
    store,
    [catalogTeamsProjector, catalogPostsProjector, commentChunksProjector, commentScoresProjector],
    { steps: [new PostAnalysesStep(store, events)] },
  );
  await runtime.createIndexes();
  await events.close();
  for (const name of COLLECTIONS)
    for (const doc of await from.collection(name).find({})) await store.collection(name).insertOne(doc);
  return store;
}

/**
 * What the stand-in cannot show, read straight with the driver: the catalog by `{teamId}` (a scan
 * of the collection on the stand-in, an index on MongoDB) against the same documents by `_id`, and
 * the chunk documents of the 100 posts raw (the server's answer and its transfer) against decoded.
 */
async function driverParts(
  url: string,
  database: string,
  posts: readonly PostEntry[],
): Promise<Record<string, number>> {
  const client = await new MongoClient(url).connect();
  try {
    const db = client.db(database);
    const timed = async (read: () => Promise<unknown>): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const started = performance.now();
        await read();
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const ids = posts.map((p) => p.id);
    const fetched = posts.flatMap((p) =>
      p.version?.source ? fetchedChunkIds(p.id, p.version.source.fetch, p.version.source.chunks) : [],
    );
    const scored = posts.flatMap((p) =>
      p.version?.source?.scores ? scoreChunkIds(p.id, p.version.source.scores) : [],
    );
    const chunks = (raw: boolean) => () =>
      Promise.all([
        db
          .collection(COMMENT_CHUNKS)
          .find({ teamId: TEAM, _id: { $in: fetched } } as Filter, { raw })
          .toArray(),
        db
          .collection(COMMENT_SCORES)
          .find({ teamId: TEAM, _id: { $in: scored } } as Filter, { raw })
          .toArray(),
      ]);
    const analysisIds = posts
      .filter((p) => p.version)
      .map((p) => postAnalysisId(p.id, p.version!.dataVersion));
    const analyses = (raw: boolean) => () =>
      db
        .collection(POST_ANALYSES)
        .find({ teamId: TEAM, _id: { $in: analysisIds } } as Filter, {
          raw,
          projection: POST_ANALYSIS_WITHOUT_DAYS,
        })
        .toArray();
    return {
      analysesRaw: await timed(analyses(true)),
      analysesDecoded: await timed(analyses(false)),
      catalogByTeam: await timed(() =>
        db.collection(CATALOG_POSTS).find({ teamId: TEAM }).sort({ seq: 1 }).toArray(),
      ),
      catalogById: await timed(() =>
        db
          .collection(CATALOG_POSTS)
          .find({ _id: { $in: ids } } as Filter)
          .toArray(),
      ),
      chunksRaw: await timed(chunks(true)),
      chunksDecoded: await timed(chunks(false)),
    };
  } finally {
    await client.close();
  }
}

interface RunResult {
  memory: { snapshot: Parts; sample: Parts };
  server: { snapshot: Parts; sample: Parts } | null;
  driver: Record<string, number> | null;
}

async function run(file: string): Promise<RunResult> {
  const memory = new MemoryReadStore();
  await project(file, memory);
  const memoryResult = await measure('in-memory store', new TimedReadStore(memory));
  const url = process.env.MONGO_URL;
  if (!url) return { memory: memoryResult, server: null, driver: null };
  const database = `read_side_cold_${process.pid}`;
  const server = await copyToServer(url, database, memory, file);
  try {
    const serverResult = await measure('stand-in over the driver', new TimedReadStore(server));
    const team = await new ReadCache(server, 2048 * 1024 * 1024, false).team(TEAM);
    const driver = await driverParts(url, database, team.posts);
    console.log(
      `RESULT the driver straight, median of ${ROUNDS}: the 100 post analyses without their days raw ${driver.analysesRaw.toFixed(0)} ms, decoded ${driver.analysesDecoded.toFixed(0)} ms; catalog posts by {teamId} ${driver.catalogByTeam.toFixed(0)} ms, by _id ${driver.catalogById.toFixed(0)} ms; the 100 posts' chunk documents raw ${driver.chunksRaw.toFixed(0)} ms, decoded ${driver.chunksDecoded.toFixed(0)} ms (decoding ${(driver.chunksDecoded - driver.chunksRaw).toFixed(0)} ms)`,
    );
    return { memory: memoryResult, server: serverResult, driver };
  } finally {
    const client = await new MongoClient(url).connect();
    await client.db(database).dropDatabase();
    await client.close();
    await server.close();
  }
}

/** Runs the bench of a checkout in a child process; its medians. */
function child(checkout: string, file: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(checkout, 'bench/read-side-cold-parts.ts'), String(ROUNDS)],
      {
        cwd: checkout,
        env: {
          ...process.env,
          SWC_NODE_PROJECT: join(checkout, 'tsconfig.json'),
          READ_SIDE_COLD_CHILD: file,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(CHILD_MARK));
      if (code !== 0 || !line) reject(new Error(`the bench in ${checkout} exited ${code}`));
      else resolve(JSON.parse(line.slice(CHILD_MARK.length)) as RunResult);
    });
  });
}

function compare(before: RunResult[], after: RunResult[]): void {
  const parts = (
    runs: RunResult[],
    store: 'memory' | 'server',
    kind: 'snapshot' | 'sample',
  ): Parts | null => {
    const all = runs.map((r) => r[store]?.[kind]).filter((p): p is Parts => !!p);
    return all.length ? medians(all) : null;
  };
  for (const store of ['memory', 'server'] as const)
    for (const kind of ['snapshot', 'sample'] as const) {
      const b = parts(before, store, kind);
      const a = parts(after, store, kind);
      if (!a || !b) continue;
      const figures = KEYS.map(
        (k) => `${k} ${b[k].toFixed(0)} -> ${a[k].toFixed(0)} ms (×${(a[k] / b[k]).toFixed(2)})`,
      ).join(', ');
      console.log(
        `BEFORE/AFTER ${store === 'memory' ? 'in-memory store' : 'stand-in'}, cold ${kind}: ${figures}`,
      );
    }
}

async function main(): Promise<void> {
  const childFile = process.env.READ_SIDE_COLD_CHILD;
  if (childFile) {
    console.log(`${CHILD_MARK}${JSON.stringify(await run(childFile))}`);
    return;
  }
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `events-${POSTS}x${PER_POST}.db`);
  if (!existsSync(file)) await generate(file);
  console.log(`load before: ${load()}`);
  const before = process.env.READ_SIDE_COLD_BEFORE;
  if (!before) {
    await run(file);
  } else {
    const runs: { before: RunResult[]; after: RunResult[] } = { before: [], after: [] };
    for (let i = 0; i < 2; i++) {
      console.log(`--- before (${before}), run ${i + 1}`);
      runs.before.push(await child(before, file));
      console.log(`--- after (this checkout), run ${i + 1}`);
      runs.after.push(await child(join(__dirname, '..'), file));
    }
    compare(runs.before, runs.after);
  }
  console.log(`load after: ${load()}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
