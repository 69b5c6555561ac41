import type { Dimension } from './buckets';
import type { Emotion } from './emotions';

/** Per-comment scores on the 1-10 scale; null where the scorer could not score that dimension. */
export type CommentScores = Record<Dimension, number | null>;

/** A fetched comment as the provider returns it and `CommentsFetched` stores it. */
export interface FetchedComment {
  id: string;
  parentId: string | null;
  authorUsername: string;
  authorIsCreator: boolean;
  body: string;
  likes: number;
  postedAt: string;
  hidden: boolean;
}

/** A scored comment as `CommentsScored` stores it and the comments read model keeps it. */
export interface ScoredComment {
  commentId: string;
  scores: CommentScores;
  /** Index into the post's creator topics / messages this comment engages with, when any. */
  topicIndex: number | null;
  messageIndex: number | null;
  /** ISO 639-1 code of the comment's language; null when it cannot be told; absent before scorer 1.1. */
  language?: string | null;
  /**
   * The emotion the scorer reads in an English comment; null for a comment it does not read as
   * English (another language, no words); absent before scorer 2.1.0 (read as null).
   */
  emotion?: Emotion | null;
  scorer: { name: string; version: string };
}

/** What the creator side of a post is about, extracted when it is scored. */
export interface CreatorTopic {
  title: string;
  description: string | null;
}
export interface CreatorMessage {
  topic: string;
  stance: string;
}

/** Why a comment is on a sample page (`sampleReasons`); every row has at least one. */
export const SAMPLE_REASONS = [
  'high_engagement',
  'high_relevance',
  'topic_match',
  'message_match',
  'bucket_filter',
  'analysis_filter',
  'search_match',
  'random_sample',
] as const;
export type SampleReason = (typeof SAMPLE_REASONS)[number];
