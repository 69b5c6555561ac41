/**
 * A cold team load without the store's own cost (issue 20): the documents of teams projected by
 * bench/read-side-scale.ts are copied once from the read store into an in-memory store, then a fresh
 * ReadCache loads each team from there, and a 100-post snapshot (and a 1,000-post one) is
 * computed as the analysis service does. What is left is the replica's work on a cold team (query
 * matching in memory, decoding the packed columns, building the rows, the rollup), the figure a
 * replica adds to the store's indexed reads. On the local stack's FerretDB each of those reads is a
 * scan of the whole collection (about 100 s per team with 3.5M comments); MongoDB reads them through
 * the `{teamId, postId, dataVersion}` index.
 *
 *   deploy/local/with-stack.sh npm run bench -- bench/read-side-cold.ts [database]
 * (database: the one bench/read-side-scale.ts projected, default read_side_bench_3558000)
 */
import { loadavg } from 'node:os';
import {
  CATALOG_POSTS,
  CATALOG_TEAMS,
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  compileFilters,
  computeAnalysis,
  POST_ANALYSES,
  ReadCache,
} from '@analyst/comment-index';
import { MemoryReadStore, MongoReadStore, type Doc } from '@analyst/platform';

const DATABASE = process.argv[2] ?? 'read_side_bench_3558000';
const TEAMS = ['tm_mid_00', 'tm_mid_01', 'tm_mid_02', 'tm_big'];
const COLLECTIONS = [CATALOG_TEAMS, CATALOG_POSTS, POST_ANALYSES, COMMENT_CHUNKS, COMMENT_SCORES];

async function main(): Promise<void> {
  if (!process.env.MONGO_URL) throw new Error('run through deploy/local/with-stack.sh (needs MONGO_URL)');
  const source = await MongoReadStore.connect(process.env.MONGO_URL, DATABASE);
  const memory = new MemoryReadStore();
  const copyStarted = Date.now();
  for (const name of COLLECTIONS) {
    const docs = await source
      .collection<Doc>(name)
      .find(name === CATALOG_TEAMS ? { _id: { $in: TEAMS } } : { teamId: { $in: TEAMS } });
    for (const doc of docs) await memory.collection(name).insertOne(doc);
    console.log(`  copied ${docs.length} ${name} documents`);
  }
  await source.close();
  console.log(
    `copied the documents of ${TEAMS.join(', ')} in ${((Date.now() - copyStarted) / 1000).toFixed(0)} s (the store's scans)`,
  );

  // What the in-memory store itself takes to answer a team's chunk queries (match and copy): the part
  // of a cold load that MongoDB's indexed read and BSON decoding replace.
  for (const teamId of TEAMS) {
    const started = performance.now();
    const chunks = await memory.collection(COMMENT_CHUNKS).find({ teamId });
    const scores = await memory.collection(COMMENT_SCORES).find({ teamId });
    console.log(
      `${teamId}: the in-memory store answers its ${chunks.length + scores.length} chunk documents in ${(performance.now() - started).toFixed(0)} ms`,
    );
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  for (const teamId of TEAMS) {
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const cache = new ReadCache(memory, 2048 * 1024 * 1024);
    const posts = teamId === 'tm_big' ? 1000 : 100;
    const started = performance.now();
    const team = await cache.team(teamId);
    const catalogMs = performance.now() - started;
    const selected = [...team.posts].reverse().slice(0, posts);
    await cache.rows(team, selected);
    const rowsMs = performance.now() - started - catalogMs;
    const computeStarted = performance.now();
    const result = computeAnalysis({
      team,
      posts: selected,
      filter: compileFilters(null, team),
      settings: team.settings,
      include: ['wordCloud'],
    });
    const computeMs = performance.now() - computeStarted;
    gc?.();
    const held = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;
    const estimate = cache.stats().bytes;
    console.log(
      `${teamId}: cold ${posts} posts (${result.scope.totalComments.toLocaleString()} visible comments): catalog ${catalogMs.toFixed(0)} ms + rows ${rowsMs.toFixed(0)} ms + analysis ${computeMs.toFixed(0)} ms = ${(catalogMs + rowsMs + computeMs).toFixed(0)} ms; cache estimate ${(estimate / 1048576).toFixed(0)} MB (${(estimate / result.scope.totalComments).toFixed(0)} B a comment)` +
        (gc
          ? `, heap held after a full GC ${(held / 1048576).toFixed(0)} MB (${(held / result.scope.totalComments).toFixed(0)} B a comment, ×${(held / estimate).toFixed(2)} the estimate)`
          : ' (run with --expose-gc for the heap it holds)'),
    );
    if (!cache.stats().teams) throw new Error('the cache kept nothing');
  }
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
