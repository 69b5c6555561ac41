/**
 * A cold team load on a replica without any server (issue 27): one team of 1,000 posts × 1,000
 * comments is written as ingest writes it (ContentLogWriter over the simulated provider's comments
 * scored by the product's scorer), projected by the real projectors (and the post-analyses step)
 * into an in-memory read store, then loaded several times by a fresh ReadCache as
 * bench/read-side-cold.ts does: the catalog, the rows of the 1,000 posts (and of the newest 100),
 * and the analysis a snapshot computes. The in-memory store's own answer to the same chunk queries
 * (match and copy: what MongoDB's indexed read replaces) is timed separately, so the replica's
 * decoding and row building is what rows less store is; and the 1,000 posts are loaded again with the
 * chunk documents read beforehand (the store answering at once, leaving no garbage), so rows is the
 * decoding and building alone.
 *
 *   npm run bench -- --expose-gc bench/read-side-decode.ts [posts] [commentsPerPost] [rounds]
 *   (--expose-gc: a full GC before each round and before each of the store's timed reads)
 *   READ_SIDE_DECODE_PROFILE=/tmp/decode.cpuprofile npm run bench -- bench/read-side-decode.ts
 *   (a CPU profile of the timed rounds only, without the set-up, for Chrome DevTools or a summary)
 *
 * The log is kept in READ_SIDE_DECODE_DIR (default /tmp/analyst-read-side-decode) and reused by the
 * next run of the same size; projecting it takes most of the set-up.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { BSON } from 'bson';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  CATALOG_POSTS,
  CATALOG_TEAMS,
  catalogPostsProjector,
  catalogTeamsProjector,
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  fetchedChunkIds,
  POST_ANALYSIS_WITHOUT_DAYS,
  scoreChunkIds,
  commentChunksProjector,
  commentScoresProjector,
  compileFilters,
  computeAnalysis,
  POST_ANALYSES,
  PostAnalysesStep,
  postAnalysisId,
  ReadCache,
  type PostEntry,
} from '@analyst/comment-index';
import {
  MemoryReadStore,
  ProjectionRuntime,
  projectDocument,
  SqliteEventStore,
  type Doc,
  type Filter,
  type FindOptions,
  type Projection,
  type ReadCollection,
  type ReadStore,
} from '@analyst/platform';
import { commentsFromPool, ContentLogWriter, SeededRandom } from '@analyst/testing';
import { scoredCommentPool } from './scored-comment-pool';

const POSTS = Number(process.argv[2] ?? 1000);
const PER_POST = Number(process.argv[3] ?? 1000);
const ROUNDS = Number(process.argv[4] ?? 5);
const TEAM = 'tm_decode';
const DIR = process.env.READ_SIDE_DECODE_DIR ?? '/tmp/analyst-read-side-decode';
/** Every collection a cold team load reads. */
const COLLECTIONS = [CATALOG_TEAMS, CATALOG_POSTS, POST_ANALYSES, COMMENT_CHUNKS, COMMENT_SCORES];
/** Posts per store read, as loadRows reads them. */
const POSTS_PER_READ = 100;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The log: one team, every post fetched and scored once, as ingest writes it. */
async function generate(file: string): Promise<void> {
  const started = Date.now();
  const { pool, base, scorer } = scoredCommentPool('D');
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const events = new SqliteEventStore({ filename: partial, synchronous: 'NORMAL' });
  const log = new ContentLogWriter(events);
  const random = new SeededRandom(27);
  await log.teamCreated(TEAM);
  for (let p = 0; p < POSTS; p++) {
    const postId = `po_decode_${pad(p, 4)}`;
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
  console.log(
    `log written: ${POSTS} posts × ${PER_POST} comments in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

/** The read models as the analysis service projects them, in an in-memory store. */
async function project(file: string): Promise<MemoryReadStore> {
  const started = Date.now();
  const events = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const store = new MemoryReadStore();
  const runtime = new ProjectionRuntime(
    store,
    [catalogTeamsProjector, catalogPostsProjector, commentChunksProjector, commentScoresProjector],
    { steps: [new PostAnalysesStep(store, events)] },
  );
  await runtime.createIndexes();
  for await (const page of events.readAll(-1)) await runtime.applyPage(page);
  await events.close();
  console.log(`projected into memory in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return store;
}

/**
 * A read store that keeps every document as BSON bytes (off the JS heap) and decodes the documents
 * a query finds, as the MongoDB driver does with a server's answer: a replica's heap then holds
 * what the replica holds, not the whole store's documents, so what the collector costs is what a
 * replica on MongoDB pays. Answers only the queries ReadCache makes (looked up by key, not
 * matched document by document).
 */
class BsonReadStore implements ReadStore {
  private readonly byId = new Map<string, Map<string, Buffer>>();
  private readonly byTeam = new Map<string, Map<string, Buffer[]>>();
  private readonly byVersion = new Map<string, Map<string, Buffer[]>>();
  private readonly teamOf = new WeakMap<Buffer, string>();
  /**
   * Documents as a projection leaves them, by projection and original bytes: MongoDB projects on the
   * server, so a replica decodes only what it asked for. Made beforehand (`prepare`): the server's
   * work, not the replica's.
   */
  private readonly projected = new Map<string, WeakMap<Buffer, Buffer>>();

  static async copy(from: ReadStore, names: readonly string[]): Promise<BsonReadStore> {
    const store = new BsonReadStore();
    for (const name of names) {
      const byId = new Map<string, Buffer>();
      const byTeam = new Map<string, Buffer[]>();
      const byVersion = new Map<string, Buffer[]>();
      for (const doc of await from.collection(name).find({})) {
        const bytes = Buffer.from(BSON.serialize(doc));
        byId.set(doc._id, bytes);
        const { teamId, postId, dataVersion } = doc as {
          teamId?: string;
          postId?: string;
          dataVersion?: number;
        };
        if (teamId !== undefined) {
          push(byTeam, teamId, bytes);
          store.teamOf.set(bytes, teamId);
        }
        if (postId !== undefined && dataVersion !== undefined)
          push(byVersion, versionKey(postId, dataVersion), bytes);
      }
      store.byId.set(name, byId);
      store.byTeam.set(name, byTeam);
      store.byVersion.set(name, byVersion);
    }
    return store;
  }

  /** Projects every document of the collection for this projection, ahead of the timed reads. */
  prepare(name: string, projection: Projection): void {
    const out = new WeakMap<Buffer, Buffer>();
    for (const bytes of this.byId.get(name)?.values() ?? [])
      out.set(
        bytes,
        Buffer.from(BSON.serialize(projectDocument(BSON.deserialize(bytes) as Doc, projection))),
      );
    this.projected.set(projectionKey(name, projection), out);
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const find = async (filter: Filter, options?: FindOptions): Promise<T[]> => {
      const keys = Object.keys(filter).sort().join();
      const ids = (filter._id as { $in?: string[] } | undefined)?.$in;
      const ofTeam = (list: Buffer[]): Buffer[] => list.filter((b) => this.teamOf.get(b) === filter.teamId);
      let matched: Buffer[];
      if (keys === '_id' && typeof filter._id === 'string')
        matched = this.byId.get(name)?.has(filter._id) ? [this.byId.get(name)!.get(filter._id)!] : [];
      else if (keys === '_id,teamId' && typeof filter._id === 'string')
        matched = ofTeam(this.byId.get(name)?.has(filter._id) ? [this.byId.get(name)!.get(filter._id)!] : []);
      else if (keys === 'teamId') matched = this.byTeam.get(name)?.get(filter.teamId as string) ?? [];
      else if (keys === '_id,teamId' && ids)
        matched = ofTeam(ids.flatMap((id) => this.byId.get(name)?.get(id) ?? []));
      else if (keys === '$or,teamId')
        matched = ofTeam(
          (filter.$or as { postId: string; dataVersion: number }[]).flatMap(
            (v) => this.byVersion.get(name)?.get(versionKey(v.postId, v.dataVersion)) ?? [],
          ),
        );
      else throw new Error(`the BSON bench store does not answer ${JSON.stringify(filter)} on ${name}`);
      if (options?.projection) {
        const projected = this.projected.get(projectionKey(name, options.projection));
        if (!projected)
          throw new Error(`prepare ${name} for ${JSON.stringify(options.projection)} before reading it`);
        matched = matched.map((b) => projected.get(b)!);
      }
      const found = matched.map((bytes) => BSON.deserialize(bytes) as T);
      const sort = options?.sort as Record<string, 1 | -1> | undefined;
      if (sort) {
        const [[field, direction]] = Object.entries(sort);
        const at = (d: T): number => (d as unknown as Record<string, number>)[field];
        found.sort((x, y) => direction * (at(x) - at(y)));
      }
      return found;
    };
    const refuse = (): never => {
      throw new Error('the BSON bench store is read-only');
    };
    return {
      name,
      find,
      findOne: async (filter, options) => (await find(filter, options))[0] ?? null,
      count: async (filter = {}) => (await find(filter)).length,
      insertOne: refuse,
      updateOne: refuse,
      updateMany: refuse,
      replaceOne: refuse,
      deleteMany: refuse,
      createIndex: async () => undefined,
      drop: refuse,
    };
  }

  async listCollections(): Promise<string[]> {
    return [...this.byId.keys()];
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}

const versionKey = (postId: string, dataVersion: number): string => `${postId}\u0000${dataVersion}`;
const projectionKey = (name: string, projection: Projection): string =>
  `${name}\u0000${JSON.stringify(projection)}`;

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

/** What the store takes to answer loadRows' chunk queries for these posts (match and copy). */
async function storeFind(store: ReadStore, posts: readonly PostEntry[]): Promise<number> {
  const started = performance.now();
  for (let from = 0; from < posts.length; from += POSTS_PER_READ) {
    // As loadRows names them: every chunk by its _id (postId:revision), from the catalog's version.
    const batch = posts.slice(from, from + POSTS_PER_READ);
    const sourceOf = (p: PostEntry) => p.version?.source;
    const fetched = batch.flatMap((p) => {
      const s = sourceOf(p);
      return s ? fetchedChunkIds(p.id, s.fetch, s.chunks) : [];
    });
    const scored = batch.flatMap((p) => {
      const scores = sourceOf(p)?.scores;
      return scores ? scoreChunkIds(p.id, scores) : [];
    });
    await Promise.all([
      store.collection(COMMENT_CHUNKS).find({ teamId: TEAM, _id: { $in: fetched } }),
      store.collection(COMMENT_SCORES).find({ teamId: TEAM, _id: { $in: scored } }),
    ]);
  }
  return performance.now() - started;
}

/** What the in-memory store takes to answer the catalog's reads (posts, team, materialized analyses). */
async function storeCatalogFind(store: ReadStore, posts: readonly PostEntry[]): Promise<number> {
  const started = performance.now();
  await store.collection(CATALOG_POSTS).find({ teamId: TEAM }, { sort: { seq: 1 } });
  await store.collection(CATALOG_TEAMS).findOne({ _id: TEAM });
  const ids = posts.filter((p) => p.version).map((p) => postAnalysisId(p.id, p.version!.dataVersion));
  await store
    .collection(POST_ANALYSES)
    .find({ teamId: TEAM, _id: { $in: ids } }, { projection: POST_ANALYSIS_WITHOUT_DAYS });
  return performance.now() - started;
}

interface Round {
  catalog: number;
  rows: number;
  analysis: number;
  total: number;
  /** CPU time of the process (every thread: the collector's helpers too) for rows and in all. */
  rowsCpu: number;
  totalCpu: number;
  /** The store's own reads: the catalog's, and the chunk documents of the rows. */
  storeCatalog: number;
  store: number;
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function coldRound(store: ReadStore, posts: number): Promise<Round & { comments: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const cache = new ReadCache(store, 2048 * 1024 * 1024);
  const cpuStarted = cpuMs();
  const started = performance.now();
  const team = await cache.team(TEAM);
  const catalog = performance.now() - started;
  const selected = [...team.posts].reverse().slice(0, posts);
  const rowsCpuStarted = cpuMs();
  await cache.rows(team, selected);
  const rows = performance.now() - started - catalog;
  const rowsCpu = cpuMs() - rowsCpuStarted;
  const computeStarted = performance.now();
  const result = computeAnalysis({
    team,
    posts: selected,
    filter: compileFilters(null, team),
    settings: team.settings,
    include: ['wordCloud'],
  });
  const analysis = performance.now() - computeStarted;
  const totalCpu = cpuMs() - cpuStarted;
  if (!cache.stats().teams) throw new Error('the cache kept nothing');
  gc?.();
  const storeMs = await storeFind(store, selected);
  gc?.();
  const storeCatalog = await storeCatalogFind(store, team.posts);
  return {
    catalog,
    rows,
    analysis,
    total: catalog + rows + analysis,
    rowsCpu,
    totalCpu,
    storeCatalog,
    store: storeMs,
    comments: result.scope.totalComments,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = (xs: number[]): string =>
  `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

/** Rounds of each set, and their medians. */
async function runSets(from: ReadStore, sets: readonly [string, number][]): Promise<void> {
  for (const [name, posts] of sets) {
    const rounds: Round[] = [];
    let comments = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const round = await coldRound(from, posts);
      comments = round.comments;
      rounds.push(round);
      console.log(
        `  cold ${name} #${i + 1}: catalog ${round.catalog.toFixed(0)} ms + rows ${round.rows.toFixed(0)} ms + analysis ${round.analysis.toFixed(0)} ms = ${round.total.toFixed(0)} ms (CPU: rows ${round.rowsCpu.toFixed(0)} ms, total ${round.totalCpu.toFixed(0)} ms); the store's own reads: catalog ${round.storeCatalog.toFixed(0)} ms, chunks ${round.store.toFixed(0)} ms (load ${load()})`,
      );
    }
    const of = (key: keyof Round): number[] => rounds.map((r) => r[key]);
    const decode = rounds.map((r) => r.rows - r.store);
    console.log(
      `RESULT ${name} (${comments.toLocaleString()} visible comments), median (range) of ${ROUNDS}: catalog ${summary(of('catalog'))}; rows ${summary(of('rows'))}; analysis ${summary(of('analysis'))}; total ${summary(of('total'))}; CPU: rows ${summary(of('rowsCpu'))}, total ${summary(of('totalCpu'))}; the store's own reads: catalog ${summary(of('storeCatalog'))}, chunks ${summary(of('store'))}; rows less the store's chunk reads (decode and build) ${summary(decode)}`,
    );
  }
}

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `events-${POSTS}x${PER_POST}.db`);
  if (!existsSync(file)) await generate(file);
  let memory: MemoryReadStore | null = await project(file);
  console.log(`load before the rounds: ${load()}`);
  const profile = process.env.READ_SIDE_DECODE_PROFILE;
  const session = profile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  await runSets(memory, [
    [`${POSTS} posts, in-memory store`, POSTS],
    [`${Math.min(100, POSTS)} posts, in-memory store`, Math.min(100, POSTS)],
  ]);
  const copyStarted = Date.now();
  const bson = await BsonReadStore.copy(memory, COLLECTIONS);
  bson.prepare(POST_ANALYSES, POST_ANALYSIS_WITHOUT_DAYS);
  memory = null; // off the heap from here: only its BSON bytes are kept
  console.log(`copied the documents as BSON in ${((Date.now() - copyStarted) / 1000).toFixed(0)} s`);
  await runSets(bson, [
    [`${POSTS} posts, store as BSON`, POSTS],
    [`${Math.min(100, POSTS)} posts, store as BSON`, Math.min(100, POSTS)],
  ]);
  if (session && profile) {
    const { profile: taken } = await session.post('Profiler.stop');
    writeFileSync(profile, JSON.stringify(taken));
    session.disconnect();
    console.log(`CPU profile of the rounds written to ${profile}`);
  }
  console.log(`load after: ${load()}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
