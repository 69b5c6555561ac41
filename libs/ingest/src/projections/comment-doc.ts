import type { CommentScores, FetchedComment, ScoredComment } from '@analyst/contracts';

/**
 * One comment of a post as `readPostComments` returns it: fetched and scored for the post's
 * `dataVersion`.
 */
export interface CommentDoc {
  _id: string;
  teamId: string;
  postId: string;
  dataVersion: number;
  commentId: string;
  parentId: string | null;
  isReply: boolean;
  authorUsername: string;
  authorIsCreator: boolean;
  body: string;
  likes: number;
  postedAt: string;
  hidden: boolean;
  /** Null until the comment's version is scored. */
  scores: CommentScores | null;
  topicIndex: number | null;
  messageIndex: number | null;
  scorer: { name: string; version: string } | null;
  [key: string]: unknown;
}

/**
 * What the `comments` collection stores: one document per `CommentsFetched` or `CommentsScored`
 * chunk (a few hundred comments), keyed `<postId>:<dataVersion>:<f|s>:<chunk>`. One write per event
 * instead of one per comment keeps projection cheap on MongoDB (and FerretDB, which only pushes
 * `_id` lookups down), and a refresh's new version never overwrites the old one's documents.
 */
export interface CommentChunkDoc {
  _id: string;
  teamId: string;
  postId: string;
  dataVersion: number;
  chunk: number;
  kind: 'fetched' | 'scored';
  fetched?: FetchedComment[];
  scored?: ScoredComment[];
  scorer?: { name: string; version: string };
  [key: string]: unknown;
}
