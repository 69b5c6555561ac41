import type { Filter, ReadStore } from '@analyst/platform';
import type { PostEntry, ScoredVersionInfo, TeamIndex } from '../team-index/team-index';
import {
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  type CommentChunkDoc,
  type CommentScoresDoc,
  fetchedChunkIds,
  scoreChunkIds,
} from '../read-models/comment-chunks.projector';
import { binaryBytes } from '../read-models/packed-columns';

/**
 * Posts per read. A query names each post's chunks (four of 250 comments for 1,000), so its answer
 * is about 6 MB at 25 posts: the first rows are decoded while the store still answers the next
 * reads, where one read of 100 posts left the replica idle until all 24 MB had come.
 */
export const POSTS_PER_READ = 25;
/** Reads in flight at once: the store answers these while the replica decodes the batch before. */
export const READS_IN_FLIGHT = 3;

/** Posts of the list whose scored version is not (or no longer) the one in the team's rows. */
export function postsWithoutRows(posts: readonly PostEntry[]): PostEntry[] {
  return posts.filter((p) => p.version !== null && p.scored?.dataVersion !== p.version.dataVersion);
}

/**
 * Appends to the team's columns the rows of these posts' scored versions, read from the comment
 * chunk read models (fetched chunks of the fetch that counts, and the version's scores). A version
 * whose stored chunks are fewer than its fetch recorded is an incomplete read model: that fails
 * loudly rather than answering with comments missing.
 */
export async function loadRows(
  store: ReadStore,
  team: TeamIndex,
  posts: readonly PostEntry[],
): Promise<void> {
  const wanted = postsWithoutRows(posts);
  const batches: VersionToLoad[][] = [];
  for (let from = 0; from < wanted.length; from += POSTS_PER_READ)
    batches.push(wanted.slice(from, from + POSTS_PER_READ).map((p) => ({ post: p, version: p.version! })));
  // Later batches are read while this one is decoded: the store's answers and the decoding overlap.
  const reads: Promise<ChunkDocs>[] = [];
  const read = (b: number): void => {
    if (b >= batches.length) return;
    reads[b] = readBatch(store, team.teamId, batches[b]);
    // Never left unhandled while an earlier batch is decoded; awaited (and thrown) in its turn.
    reads[b].catch(() => undefined);
  };
  for (let b = 0; b < READS_IN_FLIGHT; b++) read(b);
  for (let b = 0; b < batches.length; b++) {
    const current = await reads[b];
    delete reads[b];
    read(b + READS_IN_FLIGHT);
    appendBatch(team, batches[b], current);
  }
}

type ChunkDocs = { chunks: CommentChunkDoc[]; scores: CommentScoresDoc[] };

async function readBatch(
  store: ReadStore,
  teamId: string,
  versions: readonly VersionToLoad[],
): Promise<ChunkDocs> {
  const [chunks, scores] = await Promise.all([
    store.collection<CommentChunkDoc>(COMMENT_CHUNKS).find(chunkQuery(teamId, versions, fetchedIds)),
    store.collection<CommentScoresDoc>(COMMENT_SCORES).find(chunkQuery(teamId, versions, scoreIds)),
  ]);
  return { chunks, scores };
}

function appendBatch(
  team: TeamIndex,
  versions: readonly VersionToLoad[],
  { chunks, scores }: ChunkDocs,
): void {
  // Room for the whole batch at once, rather than the columns doubling as its versions come.
  let rows = 0;
  let tokens = 0;
  for (const c of chunks) {
    rows += c.count;
    tokens += binaryBytes(c.tokens).byteLength >>> 2;
  }
  team.reserve(rows, tokens);
  const key = (postId: string, dataVersion: number): string => `${postId}\u0000${dataVersion}`;
  const fetchedBy = groupBy(chunks, (c) => key(c.postId, c.dataVersion));
  const scoredBy = groupBy(scores, (c) => key(c.postId, c.dataVersion));
  for (const { post, version } of versions) {
    const k = key(post.id, version.dataVersion);
    const source = version.source;
    const fetched = source
      ? (fetchedBy.get(k) ?? []).filter((c) => c.fetch === source.fetch).sort((a, b) => a.chunk - b.chunk)
      : [];
    const expected = source?.chunks ?? 0;
    if (fetched.length !== expected)
      throw new Error(
        `the comment read model of post ${post.id} version ${version.dataVersion} holds ${fetched.length} of its ${expected} chunks`,
      );
    const scored = (scoredBy.get(k) ?? []).sort((a, b) => a.chunk - b.chunk);
    if (source?.scores && scored.length !== source.scores.chunks)
      throw new Error(
        `the comment read model of post ${post.id} version ${version.dataVersion} holds ${scored.length} of its ${source.scores.chunks} score chunks`,
      );
    // The catalog may have moved on while this read ran: rows are for the version it named then.
    if (post.version?.dataVersion !== version.dataVersion) continue;
    team.appendVersion(post, version, fetched, scored);
  }
}

type VersionToLoad = { post: PostEntry; version: ScoredVersionInfo };

/** The `_id`s of a version's fetched chunks. */
function fetchedIds({ post, version }: VersionToLoad): string[] {
  const source = version.source;
  return source ? fetchedChunkIds(post.id, source.fetch, source.chunks) : [];
}

/** The `_id`s of a version's score chunks, or null when its `PostScored` did not count them. */
function scoreIds({ post, version }: VersionToLoad): string[] | null {
  const scores = version.source?.scores;
  return scores ? scoreChunkIds(post.id, scores) : null;
}

/**
 * The team's chunk documents of these versions: by `_id` where the catalog knows the revisions (a
 * lookup on every store), by post and data version for versions recorded before it did.
 */
function chunkQuery(
  teamId: string,
  versions: readonly VersionToLoad[],
  idsOf: (v: VersionToLoad) => string[] | null,
): Filter {
  const ids: string[] = [];
  const byFields: { postId: string; dataVersion: number }[] = [];
  for (const v of versions) {
    const known = idsOf(v);
    if (known) ids.push(...known);
    else byFields.push({ postId: v.post.id, dataVersion: v.version.dataVersion });
  }
  if (byFields.length === 0) return { teamId, _id: { $in: ids } };
  if (ids.length === 0) return { teamId, $or: byFields };
  return { teamId, $or: [{ _id: { $in: ids } }, ...byFields] };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
