import { type EventStore, type ReadStore, eventsOf, withoutMeta } from '@analyst/platform';
import type {
  FetchedComment,
  ScoredComment,
  CommentsFetched,
  CommentsScored,
  PostFetched,
} from '@analyst/contracts';
import { POST_PAYLOAD_EVENT_TYPES, postStream } from '@analyst/domain-content';
import { POSTS } from '../ingest.tokens';
import type { CommentDoc } from '../projections/comment-doc';
import type { PostDoc } from '../projections/post-doc';

const isCommentsFetched = eventsOf<CommentsFetched>(['CommentsFetched']);
const isCommentsScored = eventsOf<CommentsScored>(['CommentsScored']);
const isPostFetched = eventsOf<PostFetched>(['PostFetched']);

export interface PostComments {
  post: PostDoc;
  /** The data version these comments belong to: the latest one that was scored. */
  dataVersion: number;
  comments: CommentDoc[];
}

/**
 * The scored comments of a team's post, framework-free. Null when the post is not on the team or
 * has never been scored. Comments are facts of the post's data version, stored as chunk events in
 * its stream; they are read from there rather than kept as a read model (analysis and sampling keep
 * their own columnar indexes, so a per-comment read model would only cost writes). Comments come in
 * fetch order (by `postedAt`, then id); hidden comments are included and flagged.
 */
/**
 * The post's events from its version's `PostFetched` on: the chunks of earlier versions are skipped
 * without being read (the chunks of a version follow its `PostFetched`).
 */
async function versionEvents(events: EventStore, postId: string, version: number) {
  const stream = postStream(postId);
  const { events: decisions } = await events.readStreamExcept(stream, POST_PAYLOAD_EVENT_TYPES);
  const fetched = decisions.find((e) => isPostFetched(e) && e.data.dataVersion === version);
  return fetched ? events.readStream(stream, fetched.revision) : [];
}

export async function readPostComments(
  store: ReadStore,
  events: EventStore,
  teamId: string,
  postId: string,
): Promise<PostComments | null> {
  const post = await store.collection<PostDoc>(POSTS).findOne({ _id: postId });
  if (!post || post.teamId !== teamId || post.scoredVersion === null) return null;
  const version = post.scoredVersion;
  const fetched: FetchedComment[] = [];
  const scores = new Map<string, { scored: ScoredComment; scorer: { name: string; version: string } }>();
  for (const event of await versionEvents(events, postId, version)) {
    if (isCommentsFetched(event)) {
      const data = event.data;
      if (data.dataVersion === version) fetched.push(...data.comments);
    } else if (isCommentsScored(event)) {
      const data = event.data;
      if (data.dataVersion === version)
        for (const s of data.comments) scores.set(s.commentId, { scored: s, scorer: data.scorer });
    }
  }
  const comments: CommentDoc[] = fetched.map((c) => {
    const s = scores.get(c.id);
    return {
      _id: `${postId}:${c.id}`,
      teamId,
      postId,
      dataVersion: version,
      commentId: c.id,
      parentId: c.parentId,
      isReply: c.parentId !== null,
      authorUsername: c.authorUsername,
      authorIsCreator: c.authorIsCreator,
      body: c.body,
      likes: c.likes,
      postedAt: c.postedAt,
      hidden: c.hidden,
      scores: s?.scored.scores ?? null,
      topicIndex: s?.scored.topicIndex ?? null,
      messageIndex: s?.scored.messageIndex ?? null,
      scorer: s?.scored.scorer ?? s?.scorer ?? null,
    };
  });
  comments.sort((a, b) =>
    a.postedAt === b.postedAt ? a._id.localeCompare(b._id) : a.postedAt.localeCompare(b.postedAt),
  );
  return { post: withoutMeta(post), dataVersion: version, comments };
}
