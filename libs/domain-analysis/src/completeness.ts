export type Completeness = 'full' | 'scores_and_content' | 'scores_only' | 'content_only' | 'unavailable';

/**
 * full: creator content extracted and every matched comment scored on all five dimensions;
 * scores_and_content: both sides present but some matched comments lack a dimension;
 * scores_only: scored comments, no creator topics or messages; content_only: creator content but
 * no scored comment; unavailable: neither.
 */
export function completenessOf(input: {
  comments: number;
  fullyScored: number;
  anyScored: number;
  hasContent: boolean;
}): Completeness {
  const hasScores = input.anyScored > 0;
  if (hasScores && input.hasContent)
    return input.fullyScored === input.comments ? 'full' : 'scores_and_content';
  if (hasScores) return 'scores_only';
  if (input.hasContent) return 'content_only';
  return 'unavailable';
}
