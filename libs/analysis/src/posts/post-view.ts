import { relativePathOf } from '@analyst/platform';
import { EMPTY_EMOTION_MIX, withEmotions } from '@analyst/domain-analysis';
import { type PostEntry, materializedOf } from '@analyst/comment-index';

/** The post record the catalog routes return. */
export function postView(post: PostEntry): Record<string, unknown> {
  const m = materializedOf(post);
  const scores = m?.analysis.commentAnalysis.scores;
  return {
    id: post.id,
    platform: post.platform,
    link: post.link,
    creator: post.creator,
    title: post.title,
    summary: post.caption,
    description: post.description,
    tags: post.tags,
    engagement: post.engagement,
    totalComments: post.totalComments,
    scores: scores
      ? { scoreVersion: scores.scoreVersion, serviceScore: scores.serviceScore, sentiment: scores.sentiment }
      : null,
    sentimentMix: m?.analysis.commentAnalysis.mix.sentiment ?? null,
    postedAt: post.postedAt,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    lastRefreshedAt: post.lastRefreshedAt,
    collectionIds: post.collectionIds,
    thumbnail: post.thumbnail,
    postType: post.postType,
    status: post.status,
    dataVersion: post.dataVersion,
    isDemo: post.isDemo,
    addedVia: post.addedVia,
    addedByEmail: post.addedBy && post.addedBy.name.includes('@') ? post.addedBy.name : null,
    automation: null,
  };
}

const EMPTY_MIX = {
  positivePercent: 0,
  leanPositivePercent: 0,
  neutralPercent: 0,
  leanNegativePercent: 0,
  negativePercent: 0,
};
const EMPTY_SCORES = {
  scoreVersion: null,
  serviceScore: null,
  sentiment: null,
  relevance: null,
  consensus: null,
  content: null,
  topic: null,
};

/**
 * GET /posts/{id}/analysis: the analysis materialized at scoring; every field present. It carries
 * every include, the emotions mix too (null in one materialized before the mix existed).
 */
/** `teamQuery`: `?teamId=…` when a parent team's key reads a sub-team's post (see teamQueryOf). */
export function postAnalysisView(post: PostEntry, teamQuery = ''): Record<string, unknown> {
  const m = materializedOf(post);
  const mix = {
    sentiment: EMPTY_MIX,
    relevance: EMPTY_MIX,
    consensus: EMPTY_MIX,
    content: EMPTY_MIX,
    topic: EMPTY_MIX,
  };
  return {
    postId: post.id,
    dataVersion: m?.dataVersion ?? null,
    computedAt: m?.scoredAt ?? null,
    content: m?.analysis.content ?? {
      postCount: 1,
      posts: [
        {
          id: post.id,
          platform: post.platform,
          creator: { username: post.creator?.username ?? null },
          matchedComments: 0,
        },
      ],
      postsTruncated: false,
      topics: [],
      messages: [],
      scores: { content: null, topic: null },
      mix: { content: EMPTY_MIX, topic: EMPTY_MIX },
    },
    commentAnalysis: m
      ? withEmotions(m.analysis.commentAnalysis)
      : {
          briefSummary: null,
          scores: EMPTY_SCORES,
          mix,
          topics: [],
          outliers: [],
          notableComments: [],
          wordCloud: [],
          emojiCloud: [],
          emotions: EMPTY_EMOTION_MIX,
          totalComments: 0,
          completeness: 'unavailable',
        },
    comments: { path: `${relativePathOf('posts', post.id, 'analysis', 'comments')}${teamQuery}` },
  };
}
