import type { CommentScores } from '@analyst/contracts';

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
