import type { CommentScores } from '@analyst/contracts';

/**
 * One comment of a post (`_id` = `<postId>:<commentId>`), as fetched and scored for the post's
 * `dataVersion`. A refresh overwrites each comment with the newer version; comments gone from the
 * source keep their older `dataVersion`, so readers filter on the post's current version.
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
