/**
 * The AI search at scale, on the path the search job takes (`searchMatchedRows`' two steps): the
 * comments' vectors from the comment_embeddings read model (`CommentEmbeddings.vectorsFor`), then
 * `EncoderSearchModel` over all of them.
 *
 *   npm run bench -- bench/search-scale.ts
 *
 * SCALE_COMMENTS simulated comments (default 100,000) are stored as comment chunks of 250 in an
 * in-memory read store, as the projection writes them, then searched twice:
 * 1. never embedded (a log written before the encoder): every vector is computed, with progress,
 *    and kept; printed as seconds and comments per second;
 * 2. the same search again, every vector read back: seconds.
 * Also printed: what loading the encoder added to the process (ANALYST_ENCODER_THREADS threads,
 * default 2 here), and the stored vectors' bytes.
 */
import {
  CommentEmbeddings,
  COMMENT_CHUNKS,
  COMMENT_EMBEDDINGS,
  DEFAULT_MIN_RELEVANCE,
  EncoderSearchModel,
  packFetched,
  type CommentChunkDoc,
  type CommentEmbeddingsDoc,
  type SearchDocument,
} from '@analyst/comment-index';
import type { FetchedComment } from '@analyst/contracts';
import { loadLocalEncoder } from '@analyst/encoder';
import { MemoryReadStore } from '@analyst/platform';
import { simulatedBodies } from './search-bench/simulated-comments';

const COMMENTS = Number(process.env.SCALE_COMMENTS ?? 100_000);
const THREADS = Number(process.env.ANALYST_ENCODER_THREADS ?? 2);
const CHUNK = 250;
const TEAM = 'team-scale';
const QUERY = 'too expensive for what you get';
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The comments as the projection stores them: one chunk document per 250, post by post (10 chunks a post). */
async function storeChunks(store: MemoryReadStore, bodies: readonly string[]) {
  const versions: { postId: string; fetch: number; chunks: number }[] = [];
  const chunksPerPost = 10;
  for (let start = 0, chunk = 0; start < bodies.length; start += CHUNK, chunk++) {
    const post = Math.floor(chunk / chunksPerPost);
    const inPost = chunk % chunksPerPost;
    const postId = `p${post}`;
    if (inPost === 0) versions.push({ postId, fetch: 1, chunks: 0 });
    versions[versions.length - 1].chunks++;
    const comments: FetchedComment[] = bodies.slice(start, start + CHUNK).map((body, i) => ({
      id: `c${start + i}`,
      parentId: null,
      authorUsername: `user${(start + i) % 997}`,
      authorIsCreator: false,
      body,
      likes: 0,
      postedAt: '2026-03-01T00:00:00Z',
      hidden: false,
    }));
    const doc: CommentChunkDoc = {
      _id: `${postId}:${1 + 1 + inPost}`,
      teamId: TEAM,
      postId,
      dataVersion: 1,
      chunk: inPost,
      fetch: 1,
      ...packFetched(comments),
    };
    await store.collection<CommentChunkDoc>(COMMENT_CHUNKS).insertOne(doc);
  }
  return versions;
}

type Versions = Awaited<ReturnType<typeof storeChunks>>;

async function search(
  embeddings: CommentEmbeddings,
  model: EncoderSearchModel,
  versions: Versions,
  bodies: readonly string[],
) {
  let reported = 0;
  const started = process.hrtime.bigint();
  const stored = await embeddings.vectorsFor(TEAM, versions, (done, toEmbed) => {
    if (toEmbed > 0 && done / toEmbed >= reported + 0.1) {
      reported = Math.floor((done / toEmbed) * 10) / 10;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      console.log(`  embedding: ${done} of ${toEmbed} (${(done / seconds).toFixed(0)} comments/s so far)`);
    }
  });
  const docs: SearchDocument[] = bodies.map((text, i) => ({
    text,
    relevance: NaN,
    vector: stored!.vector(`p${Math.floor(i / (CHUNK * 10))}`, `c${i}`),
  }));
  const relevance = await model.relevance(QUERY, docs);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, matched: relevance.filter((r) => r > 0 && r >= DEFAULT_MIN_RELEVANCE).length };
}

async function main() {
  const bodies = simulatedBodies(COMMENTS);
  const store = new MemoryReadStore();
  const versions = await storeChunks(store, bodies);
  global.gc?.();
  const before = process.memoryUsage();
  const encoder = await loadLocalEncoder({ threads: THREADS });
  if (!encoder) throw new Error('the sentence encoder is not installed: npm run model:fetch');
  await encoder.embed(['warm up']);
  global.gc?.();
  const loaded = process.memoryUsage();
  console.log(
    `encoder loaded with ${THREADS} thread(s): rss +${MB(loaded.rss - before.rss)}, heap + buffers +${MB(loaded.heapUsed + loaded.external - before.heapUsed - before.external)}`,
  );
  const embeddings = new CommentEmbeddings(store, async () => encoder);
  const model = new EncoderSearchModel(async () => encoder);

  console.log(`\n1. "${QUERY}" over ${COMMENTS} comments never embedded:`);
  const first = await search(embeddings, model, versions, bodies);
  console.log(
    `   ${first.seconds.toFixed(1)} s, ${(COMMENTS / first.seconds).toFixed(0)} comments/s, ${first.matched} matched at ${DEFAULT_MIN_RELEVANCE}`,
  );
  const docs = await store.collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS).find({ teamId: TEAM });
  const bytes = docs.reduce((n, d) => n + (d.vectors?.byteLength ?? 0) + (d.text?.byteLength ?? 0), 0);
  console.log(
    `   kept: ${docs.length} documents, ${MB(bytes)} of vectors and ids (${(bytes / COMMENTS).toFixed(0)} bytes a comment)`,
  );

  console.log(`\n2. the same search again, every vector stored:`);
  const second = await search(embeddings, model, versions, bodies);
  console.log(`   ${second.seconds.toFixed(2)} s, ${second.matched} matched`);
  console.log(`\nrss at the end: ${MB(process.memoryUsage().rss)}`);
  await encoder.close();
}

void main();
