import type { ReadStore } from '@analyst/platform';
import { withoutMeta } from '@analyst/platform';
import { COMMENTS, POSTS } from '../ingest.tokens';
import type { CommentDoc } from '../projections/comment-doc';
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
  const docs = await store.collection<CommentDoc>(COMMENTS).find({ postId, dataVersion: post.scoredVersion }, { sort: { postedAt: 1, _id: 1 } });
  return { post: withoutMeta(post), dataVersion: post.scoredVersion, comments: docs.map((d) => withoutMeta(d)) };
}
