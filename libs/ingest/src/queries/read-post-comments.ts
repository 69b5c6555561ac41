import type { ReadStore } from '@analyst/platform';
import { withoutMeta } from '@analyst/platform';
import type { ScoredComment } from '@analyst/contracts';
import { COMMENTS, POSTS } from '../ingest.tokens';
import type { CommentChunkDoc, CommentDoc } from '../projections/comment-doc';
import type { PostDoc } from '../projections/post-doc';

export interface PostComments {
  post: PostDoc;
  /** The data version these comments belong to: the latest one that was scored. */
  dataVersion: number;
  comments: CommentDoc[];
}

/**
 * The scored comments of a team's post, framework-free, for the analysis and sampling services.
 * Null when the post is not on the team or has never been scored. Comments come in fetch order
 * (by `postedAt`, then id); hidden comments are included and flagged, callers exclude them.
 */
export async function readPostComments(store: ReadStore, teamId: string, postId: string): Promise<PostComments | null> {
  const post = await store.collection<PostDoc>(POSTS).findOne({ _id: postId });
  if (!post || post.teamId !== teamId || post.scoredVersion === null) return null;
  const chunks = await store.collection<CommentChunkDoc>(COMMENTS).find({ postId, dataVersion: post.scoredVersion });
  const scores = new Map<string, ScoredComment>();
  for (const chunk of chunks) for (const s of chunk.scored ?? []) scores.set(s.commentId, s);
  const comments: CommentDoc[] = chunks.flatMap((chunk) =>
    (chunk.fetched ?? []).map((c) => {
      const s = scores.get(c.id);
      return {
        _id: `${postId}:${c.id}`,
        teamId: chunk.teamId,
        postId,
        dataVersion: chunk.dataVersion,
        commentId: c.id,
        parentId: c.parentId,
        isReply: c.parentId !== null,
        authorUsername: c.authorUsername,
        authorIsCreator: c.authorIsCreator,
        body: c.body,
        likes: c.likes,
        postedAt: c.postedAt,
        hidden: c.hidden,
        scores: s?.scores ?? null,
        topicIndex: s?.topicIndex ?? null,
        messageIndex: s?.messageIndex ?? null,
        scorer: s?.scorer ?? null,
      };
    }),
  );
  comments.sort((a, b) => (a.postedAt === b.postedAt ? a._id.localeCompare(b._id) : a.postedAt.localeCompare(b.postedAt)));
  return { post: withoutMeta(post), dataVersion: post.scoredVersion, comments };
}
