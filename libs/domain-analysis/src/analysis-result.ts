import type { Dimension } from '@analyst/contracts';
import type { EmojiCloudItem, WordCloudItem } from './clouds';
import type { Completeness } from './completeness';
import type { EmotionMix } from './emotion-mix';
import type { MessageSummary, TopicSummary } from './creator-content';
import type { Mix } from './mix';
import type { RollupScores } from './rollup';

/**
 * What an analysis computes over its selection (computeAnalysis in comment-index), as
 * `AnalysisCompleted` records it: the scope of the match, the creator side and the audience side.
 */
export interface AnalysisResult {
  scope: {
    postCount: number;
    totalComments: number;
    matchedComments: number;
    matchedPosts: number;
    shareOfComments: number;
    shareOfContent: number;
  };
  content: {
    postCount: number;
    posts: { id: string; platform: string; creator: { username: string | null }; matchedComments: number }[];
    postsTruncated: boolean;
    topics: TopicSummary[];
    messages: MessageSummary[];
    scores: { content: number | null; topic: number | null };
    mix: { content: Mix; topic: Mix };
  };
  commentAnalysis: {
    briefSummary: null;
    scores: RollupScores;
    mix: Record<Dimension, Mix>;
    topics: [];
    outliers: [];
    notableComments: { postId: string; commentId: string }[];
    wordCloud: WordCloudItem[] | null;
    emojiCloud: EmojiCloudItem[] | null;
    /** Present when requested with `include: emotions`, else null; absent from results recorded before it. */
    emotions?: EmotionMix | null;
    totalComments: number;
    completeness: Completeness;
  };
}

/**
 * The audience side with `emotions` always present. A result (or materialized post analysis)
 * recorded before the emotions mix existed has none and is never recomputed; nothing could ask for
 * the mix then, so it reads null, as a mix not requested does.
 */
export function withEmotions(
  commentAnalysis: AnalysisResult['commentAnalysis'],
): AnalysisResult['commentAnalysis'] & { emotions: EmotionMix | null } {
  return { ...commentAnalysis, emotions: commentAnalysis.emotions ?? null };
}
