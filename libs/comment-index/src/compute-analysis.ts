import {
  completenessOf,
  dedupeCreatorContent,
  emojiCloud,
  emotionMix,
  notableRows,
  rollup,
  selectRows,
  wordCloud,
  type AnalysisResult,
  type CompiledCommentFilter,
  type RollupSettings,
} from '@analyst/domain-analysis';
import type { PostEntry, TeamIndex } from './team-index/team-index';

export const POST_CARD_LIMIT = 100;

/** What an analysis computes; the type lives with the event that records it (AnalysisCompleted). */
export type { AnalysisResult };

export interface ComputeInput {
  team: TeamIndex;
  /** Newest first. */
  posts: readonly PostEntry[];
  filter: CompiledCommentFilter;
  settings: RollupSettings;
  include: readonly string[];
  /** AI search: keeps only candidate rows this returns true for. */
  searchMatch?: (row: number) => boolean;
}

/** Visible comment rows of the posts' scored versions. */
export function candidateRows(
  team: TeamIndex,
  posts: readonly PostEntry[],
): { rows: Uint32Array; visible: number } {
  let size = 0;
  for (const p of posts) size += p.scored?.rows.length ?? 0;
  const rows = new Uint32Array(size);
  let at = 0;
  let visible = 0;
  const hidden = team.columns.hidden;
  for (const p of posts) {
    const own = p.scored?.rows;
    if (!own) continue;
    rows.set(own, at);
    at += own.length;
    for (let i = 0; i < own.length; i++) if (hidden[own[i]] === 0) visible++;
  }
  return { rows, visible };
}

const share = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

/** The whole Analysis payload from stored comment scores: one pass to filter, one to roll up. */
export function computeAnalysis(input: ComputeInput): AnalysisResult {
  const { team, posts, filter, settings } = input;
  const { rows: candidates, visible } = candidateRows(team, posts);
  let matched = selectRows(team.columns, candidates, filter, settings.scoreVersion);
  if (input.searchMatch) matched = matched.filter((r) => input.searchMatch!(r));
  const r = rollup(team.columns, matched, settings);

  const perPost = new Map<number, number>();
  const postIndex = team.columns.postIndex;
  for (let i = 0; i < matched.length; i++) {
    const p = postIndex[matched[i]];
    perPost.set(p, (perPost.get(p) ?? 0) + 1);
  }
  const creator = dedupeCreatorContent(
    posts.map((p) => ({ topics: p.scored?.topics ?? [], messages: p.scored?.messages ?? [] })),
  );
  const hasContent = creator.topics.length > 0 || creator.messages.length > 0;
  const wantsWords = input.include.includes('wordCloud');
  const wantsEmoji = input.include.includes('emojiCloud');
  const wantsEmotions = input.include.includes('emotions');

  return {
    scope: {
      postCount: posts.length,
      totalComments: visible,
      matchedComments: matched.length,
      matchedPosts: perPost.size,
      shareOfComments: share(matched.length, visible),
      shareOfContent: share(perPost.size, posts.length),
    },
    content: {
      postCount: posts.length,
      posts: posts.slice(0, POST_CARD_LIMIT).map((p) => ({
        id: p.id,
        platform: p.platform,
        creator: { username: p.creator?.username ?? null },
        matchedComments: perPost.get(p.index) ?? 0,
      })),
      postsTruncated: posts.length > POST_CARD_LIMIT,
      topics: creator.topics,
      messages: creator.messages,
      scores: { content: r.scores.content, topic: r.scores.topic },
      mix: { content: r.mix.content, topic: r.mix.topic },
    },
    commentAnalysis: {
      briefSummary: null,
      scores: r.scores,
      mix: r.mix,
      topics: [],
      outliers: [],
      notableComments: notableRows(team.columns, matched).map((row) => ({
        postId: team.posts[postIndex[row]].id,
        commentId: team.commentIds[row],
      })),
      wordCloud: wantsWords ? wordCloud(team.columns, matched, team.vocab, settings.scoreVersion) : null,
      emojiCloud: wantsEmoji ? emojiCloud(team.columns, matched, team.vocab, settings.scoreVersion) : null,
      emotions: wantsEmotions ? emotionMix(team.columns, matched) : null,
      totalComments: matched.length,
      completeness: completenessOf({
        comments: r.comments,
        fullyScored: r.fullyScored,
        anyScored: r.anyScored,
        hasContent,
      }),
    },
  };
}
