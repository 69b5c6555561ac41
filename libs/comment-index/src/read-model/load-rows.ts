import type { ReadStore } from '@analyst/platform';
import type { PostEntry, TeamIndex } from '../comment-index';
import {
  COMMENT_CHUNKS,
  COMMENT_SCORES,
  type CommentChunkDoc,
  type CommentScoresDoc,
} from './comment-chunks.projector';

/** Posts per read: a query names each post's version, and a hundred keeps it well under MongoDB's limits. */
const POSTS_PER_READ = 100;

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
  for (let from = 0; from < wanted.length; from += POSTS_PER_READ) {
    const batch = wanted.slice(from, from + POSTS_PER_READ);
    const versions = batch.map((p) => ({ post: p, version: p.version! }));
    const filter = {
      teamId: team.teamId,
      $or: versions.map(({ post, version }) => ({ postId: post.id, dataVersion: version.dataVersion })),
    };
    const [chunks, scores] = await Promise.all([
      store.collection<CommentChunkDoc>(COMMENT_CHUNKS).find(filter),
      store.collection<CommentScoresDoc>(COMMENT_SCORES).find(filter),
    ]);
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
      // The catalog may have moved on while this read ran: rows are for the version it named then.
      if (post.version?.dataVersion !== version.dataVersion) continue;
      team.appendVersion(post, version, fetched, scored);
    }
  }
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
