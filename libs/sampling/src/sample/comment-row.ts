import {
  type BucketKey,
  type CommentScores,
  type Dimension,
  type Emotion,
  type SampleReason,
  type ScoreVersion,
} from '@analyst/contracts';
import { commentBuckets, emotionOfCode, sentimentReadingAt } from '@analyst/domain-analysis';
import type { TeamIndex, RowDetails } from '@analyst/comment-index';
import { HIGH_ENGAGEMENT, HIGH_RELEVANCE, MESSAGE_MATCH, TOPIC_MATCH } from './draw-sample';

// Why a comment is on the page: the vocabulary lives in contracts (the OpenAPI document lists it too).
export { SAMPLE_REASONS, type SampleReason } from '@analyst/contracts';

export interface CommentRowView {
  commentId: string;
  postId: string;
  authorUsername: string;
  body: string;
  likes: number;
  postedAt: string;
  isReply: boolean;
  topic: string | null;
  message: { topic: string; stance: string } | null;
  /** ISO 639-1 code, or null when it cannot be told (or the comment was scored before languages were). */
  language: string | null;
  /** Extension of the spec: the emotion the scorer read; null for a comment not read (not English, or scored before emotions). */
  emotion: Emotion | null;
  scores: Record<Dimension, number | null>;
  buckets: Record<Dimension, BucketKey | null>;
  sampleReasons: SampleReason[];
}

/** What applies to every row of a request (the query and the analysis), for `sampleReasons`. */
export interface RowContext {
  version: ScoreVersion;
  bucketFiltered: boolean;
  analysisFiltered: boolean;
  searched: boolean;
}

const nullIfNaN = (v: number): number | null => (v === v ? v : null);

/** Why the comment is on the page: the draw's flags for it, then what applies to the whole request. */
function sampleReasons(flags: number, context: RowContext): SampleReason[] {
  const reasons: SampleReason[] = [];
  if (flags & HIGH_ENGAGEMENT) reasons.push('high_engagement');
  if (flags & HIGH_RELEVANCE) reasons.push('high_relevance');
  if (flags & TOPIC_MATCH) reasons.push('topic_match');
  if (flags & MESSAGE_MATCH) reasons.push('message_match');
  if (context.bucketFiltered) reasons.push('bucket_filter');
  if (context.analysisFiltered) reasons.push('analysis_filter');
  if (context.searched) reasons.push('search_match');
  if (reasons.length === 0) reasons.push('random_sample');
  return reasons;
}

/**
 * One sampled comment. `scores.sentiment` is the sentiment reading of the score version (v2 and v3:
 * the 50/50 average of content and topic), the value its sentiment bucket is taken from; `buckets`
 * come from `commentBuckets`, the rule every mix uses.
 */
export function commentRow(
  team: TeamIndex,
  details: RowDetails,
  row: number,
  flags: number,
  context: RowContext,
): CommentRowView {
  const c = team.columns;
  const post = team.posts[c.postIndex[row]];
  const stored: CommentScores = {
    sentiment: nullIfNaN(c.sentiment[row]),
    content: nullIfNaN(c.content[row]),
    topic: nullIfNaN(c.topic[row]),
    relevance: nullIfNaN(c.relevance[row]),
    consensus: nullIfNaN(c.consensus[row]),
  };
  const scores = { ...stored, sentiment: nullIfNaN(sentimentReadingAt(c, row, context.version)) };
  const topicAt = details.topicIndex[row];
  const messageAt = details.messageIndex[row];
  const topic = topicAt >= 0 ? post.scored?.topics[topicAt] : undefined;
  const message = messageAt >= 0 ? post.scored?.messages[messageAt] : undefined;
  return {
    commentId: team.commentIds[row],
    postId: post.id,
    authorUsername: details.authors[row] ?? '',
    body: details.body(row) ?? '',
    likes: c.likes[row],
    postedAt: details.postedAtOf(row) ?? new Date(c.postedAt[row] * 1000).toISOString(),
    isReply: c.isReply[row] === 1,
    topic: topic ? topic.title : null,
    message: message ? { topic: message.topic, stance: message.stance } : null,
    language: details.languages[row] ?? null,
    emotion: emotionOfCode(c.emotion[row]),
    scores,
    buckets: commentBuckets(stored, context.version),
    sampleReasons: sampleReasons(flags, context),
  };
}
