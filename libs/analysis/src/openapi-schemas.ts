import type { SchemaObject } from '@nestjs/swagger';
import {
  ANALYSIS_INCLUDES,
  API_POST_STATUSES,
  BUCKET_KEYS,
  DIMENSIONS,
  PLATFORMS,
  POST_TYPES,
} from '@analyst/contracts';
import { EMOTION_MIX_FIELD } from '@analyst/domain-analysis';
import { openApi } from '@analyst/platform';
import { DEFAULT_MIN_RELEVANCE } from '@analyst/comment-index';

const {
  arrayOf,
  bool,
  bucketKey,
  bucketValues,
  int,
  nullable,
  num,
  obj,
  oneOfStrings,
  perDimension,
  ref,
  score,
  str,
  timestamp,
} = openApi;
type Schema = openApi.Schema;

/**
 * Component schemas of the analysis service's routes (analyses, posts, collections): the envelopes'
 * resources with the top-level fields the view functions return (analysisView, postView, ...).
 * Nested objects the spec leaves open ("not shown") stay open objects here. AnalysisModule
 * registers them into the served document (registerOpenApiSchemas).
 */

const mix = obj(
  {
    positivePercent: num(undefined, { minimum: 0, maximum: 100 }),
    leanPositivePercent: num(undefined, { minimum: 0, maximum: 100 }),
    neutralPercent: num(undefined, { minimum: 0, maximum: 100 }),
    leanNegativePercent: num(undefined, { minimum: 0, maximum: 100 }),
    negativePercent: num(undefined, { minimum: 0, maximum: 100 }),
  },
  undefined,
  { description: 'Five-bucket percentages, each 0 to 100.' },
);

/** Extension of the spec (issue 37): the seven emotions' shares, keyed like the mixes' buckets. */
const emotionMix = obj(
  Object.fromEntries(
    Object.values(EMOTION_MIX_FIELD).map((field) => [field, num(undefined, { minimum: 0, maximum: 100 })]),
  ),
  undefined,
  {
    description:
      'Extension of the spec. Percent of the matched comments that have an emotion (English comments the scorer read) in each emotion, 0 to 100; comment counts, each rounded to 0.1 on its own (the seven add up to 100 within rounding); every share 0 when no matched comment has one.',
  },
);

// ---- Analyses ------------------------------------------------------------------------------

/**
 * Post filters as GET /posts echoes them in `meta.filters` and an analysis in `selection.posts`:
 * only the active ones, lists as arrays, links/accounts/tags normalized, dates as UTC instants.
 */
const postFiltersEcho = (
  extra: Record<string, Schema>,
  required: string[],
  description: string,
): SchemaObject =>
  obj(
    {
      ...extra,
      link: arrayOf(str(), 'Normalized post URLs.'),
      account: arrayOf(str(), 'Lower-case usernames without @.'),
      platform: arrayOf(oneOfStrings(PLATFORMS)),
      tag: arrayOf(str(), 'Lower-case, without #.'),
      posted_since: timestamp(),
      posted_until: timestamp('A bare date is echoed as the last millisecond of its UTC day.'),
      updated_since: timestamp(),
      min_score: num(undefined, { minimum: 1, maximum: 10 }),
      max_score: num(undefined, { minimum: 1, maximum: 10 }),
      ...Object.fromEntries(
        BUCKET_KEYS.flatMap((b) => [
          [`min_${b}_percent`, num(undefined, { minimum: 0, maximum: 100 })],
          [`max_${b}_percent`, num(undefined, { minimum: 0, maximum: 100 })],
        ]),
      ),
      collection_id: str(),
    },
    required,
    { additionalProperties: false, description },
  );

const statusScope = oneOfStrings(
  ['complete', 'pending', 'all'],
  'Post status scope: complete (default), pending or all.',
);

const selectionEcho = obj(
  {
    type: oneOfStrings(['collection', 'posts', 'postIds']),
    collectionId: str(),
    posts: postFiltersEcho(
      {},
      [],
      'Post filters as GET /posts echoes them (normalized; the status scope is echoed beside, as selection.status).',
    ),
    postIds: arrayOf(str()),
    status: statusScope,
  },
  ['type'],
  { description: 'Normalized echo of the request selection.' },
);

const rollupScores = obj(
  {
    scoreVersion: nullable(int('Rollup method: 1, 2 or 3.', { enum: [1, 2, 3] })),
    serviceScore: score('The overall score.'),
    sentiment: score(),
    relevance: score(),
    consensus: score(),
    content: score(),
    topic: score(),
  },
  undefined,
  { description: 'Scores from 1 to 10; null where nothing was scored.' },
);

const wordCloudItem = obj({
  text: str(),
  value: int('Matched comments that use the word or phrase.'),
  type: oneOfStrings(['word', 'phrase']),
  avgSentiment: num('Mean sentiment reading, 1 to 10.'),
  sentimentCategory: str('Sentiment bucket of avgSentiment, e.g. positive, negative.'),
  mentionPercentage: num('Percent of matched comments.'),
});

const emojiCloudItem = obj({
  emoji: str(),
  value: int('Matched comments that use the emoji.'),
  avgSentiment: num('Mean sentiment reading, 1 to 10.'),
  sentimentCategory: str('Sentiment bucket of avgSentiment, e.g. positive, negative.'),
  mentionPercentage: num('Percent of matched comments.'),
});

const creatorContent = obj(
  {
    postCount: int(),
    posts: arrayOf(
      obj({
        id: str(),
        platform: str(),
        creator: obj({ username: nullable(str()) }),
        matchedComments: int(),
      }),
      'Up to 100 post cards.',
      { maxItems: 100 },
    ),
    postsTruncated: bool(),
    topics: arrayOf(
      obj({ title: str(), description: nullable(str()), postCount: int() }),
      'Deduplicated across the selection.',
    ),
    messages: arrayOf(
      obj({ topic: str(), stance: str(), postCount: int() }),
      'Deduplicated across the selection.',
    ),
    scores: obj({ content: score(), topic: score() }),
    mix: obj({ content: ref('Mix'), topic: ref('Mix') }),
  },
  undefined,
  { description: 'The creator side: what was posted, its topics and messages, content and topic scores.' },
);

const commentAnalysis = obj(
  {
    briefSummary: { type: 'null', description: 'Reserved for generated text; null in this version.' },
    scores: ref('RollupScores'),
    mix: perDimension(ref('Mix')),
    topics: arrayOf({}, 'Reserved; empty in this version.', { maxItems: 0 }),
    outliers: arrayOf({}, 'Reserved; empty in this version.', { maxItems: 0 }),
    notableComments: arrayOf(
      obj({ postId: str(), commentId: str() }),
      'Highest-engagement, most relevant matched comments.',
    ),
    wordCloud: nullable(
      arrayOf(ref('WordCloudItem'), 'Present when requested with include: wordCloud, otherwise null.'),
    ),
    emojiCloud: nullable(
      arrayOf(emojiCloudItem, 'Present when requested with include: emojiCloud, otherwise null.'),
    ),
    emotions: {
      ...nullable(ref('EmotionMix')),
      description:
        'Extension of the spec: the emotions mix, present when requested with include: emotions, otherwise null. A post analysis always carries it (null when it was materialized before the mix existed).',
    },
    totalComments: int('Matched comments.'),
    completeness: oneOfStrings(['full', 'scores_and_content', 'scores_only', 'content_only', 'unavailable']),
  },
  undefined,
  { description: 'The audience side: how commenters responded. Comment bodies are never on an analysis.' },
);

const analysisScope = obj(
  {
    postCount: int('Posts in the selection.'),
    totalComments: int('Visible comments across the selection before filters and search.'),
    matchedComments: int('Comments that matched filters and search.'),
    matchedPosts: int('Posts carrying at least one matched comment.'),
    shareOfComments: num('matchedComments / totalComments, 0 to 1.', { minimum: 0, maximum: 1 }),
    shareOfContent: num('matchedPosts / postCount, 0 to 1.', { minimum: 0, maximum: 1 }),
  },
  undefined,
  { description: 'The numbers in content and commentAnalysis describe only the matched comments.' },
);

/** The comment filters as an analysis echoes them: only the active ones, lists as arrays, labels as bucket keys. */
const commentFiltersEcho = obj(
  {
    ...Object.fromEntries(DIMENSIONS.map((d) => [d, arrayOf(bucketKey)])),
    keywords: arrayOf(str()),
    keywordMatch: oneOfStrings(['any', 'all']),
    excludeKeywords: arrayOf(str()),
    usernames: arrayOf(str()),
    excludeUsernames: arrayOf(str()),
    ...Object.fromEntries(
      ['creator', 'replies', 'questions', 'mentions', 'emoji'].map((k) => [
        k,
        oneOfStrings(['include', 'exclude', 'only']),
      ]),
    ),
    minLikes: num(),
    since: str(),
    until: str(),
  },
  [],
  { description: 'Normalized echo of the comment filters; labels echoed as bucket keys.' },
);

const analysis = obj(
  {
    id: str('Begins with an_.'),
    kind: oneOfStrings(['snapshot', 'search']),
    status: oneOfStrings(['queued', 'running', 'ready', 'failed']),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    completedAt: nullable(timestamp()),
    expiresAt: nullable(timestamp('7 days after creation.')),
    selection: ref('AnalysisSelectionEcho'),
    filters: nullable(commentFiltersEcho),
    search: nullable(obj({ query: str(), mode: oneOfStrings(['ai', 'keyword']), minRelevance: num() })),
    include: arrayOf(oneOfStrings(ANALYSIS_INCLUDES)),
    postCount: int('Posts the selection resolved to.'),
    postIds: arrayOf(str(), 'Resolved posts, newest first.'),
    selectionTruncated: bool('True when more than 1,000 posts matched and the selection was cut.'),
    progress: obj({ phase: str(), percent: num() }, undefined, {
      description: 'Only while queued or running.',
    }),
    pollAfterMs: int('Only while queued or running.'),
    error: obj({ message: str() }, undefined, { description: 'Only when failed.' }),
    scope: nullable(ref('AnalysisScope')),
    content: nullable(ref('CreatorContent')),
    commentAnalysis: nullable(ref('CommentAnalysis')),
    comments: obj({ path: str('Relative to {base_url}, e.g. /analyses/<analysis_id>/comments.') }),
    computedAt: nullable(timestamp()),
  },
  [
    'id',
    'kind',
    'status',
    'createdAt',
    'updatedAt',
    'completedAt',
    'expiresAt',
    'selection',
    'filters',
    'search',
    'include',
    'postCount',
    'postIds',
    'selectionTruncated',
    'scope',
    'content',
    'commentAnalysis',
    'comments',
    'computedAt',
  ],
  {
    description:
      'A snapshot or search analysis. scope, content and commentAnalysis are null until the analysis is ready.',
  },
);

const analysisSummary = obj(
  {
    id: str(),
    kind: oneOfStrings(['snapshot', 'search', 'report']),
    status: oneOfStrings(['queued', 'running', 'ready', 'failed']),
    createdAt: timestamp(),
    completedAt: nullable(timestamp()),
    expiresAt: nullable(timestamp()),
    postCount: int(),
    // A report echoes its campaign as a collection selection.
    selection: ref('AnalysisSelectionEcho'),
    title: str('Reports only.'),
    summary: str('Reports only: the stored write-up.'),
    campaignId: str('Reports only.'),
    savedBy: nullable(str('Reports only.')),
    matchedComments: int('Once computed.'),
    serviceScore: score('Once computed.'),
  },
  ['id', 'kind', 'status', 'createdAt', 'completedAt', 'expiresAt', 'postCount', 'selection'],
  { description: 'A list row of GET /analyses: no result payloads.' },
);

const analysisMeta = obj(
  {
    status: oneOfStrings(['queued', 'running', 'ready', 'failed']),
    pollAfterMs: int('Only while not terminal (3000).'),
  },
  ['status'],
);

// ---- Posts and collections ----------------------------------------------------------------

const post = obj(
  {
    id: str(),
    platform: oneOfStrings(PLATFORMS),
    link: str(),
    creator: nullable(obj({ username: str(), name: str() })),
    title: nullable(str()),
    summary: nullable(str()),
    description: nullable(str()),
    tags: arrayOf(str()),
    engagement: nullable(obj({ views: int(), likes: int(), comments: int(), shares: int() })),
    totalComments: int(),
    scores: nullable(
      obj({ scoreVersion: int(undefined, { enum: [1, 2, 3] }), serviceScore: score(), sentiment: score() }),
    ),
    sentimentMix: nullable(ref('Mix')),
    postedAt: nullable(timestamp()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    lastRefreshedAt: timestamp(),
    collectionIds: arrayOf(str()),
    thumbnail: nullable(str()),
    postType: nullable(oneOfStrings(POST_TYPES)),
    status: oneOfStrings(API_POST_STATUSES, 'Processing status.'),
    dataVersion: int('Incremented by every refresh.'),
    isDemo: bool(),
    addedVia: oneOfStrings(['dashboard', 'api', 'automation']),
    addedByEmail: nullable(str('The teammate who added the post (customer data).')),
    automation: nullable(
      obj(
        {
          addedById: nullable(str('Set only when addedVia is automation.')),
          ids: arrayOf(str(), 'Every automation that added or refreshed the post.'),
          lastRefreshAt: nullable(timestamp()),
          refreshCount: int(),
        },
        undefined,
        { description: 'The automation that added or refreshed the post; null when none did.' },
      ),
    ),
  },
  undefined,
  { description: 'A post on the team.' },
);

const postAnalysis = obj(
  {
    postId: str(),
    dataVersion: nullable(int()),
    computedAt: nullable(timestamp()),
    content: ref('CreatorContent'),
    commentAnalysis: ref('CommentAnalysis'),
    comments: obj({ path: str('Relative to {base_url}, e.g. /posts/<post_id>/analysis/comments.') }),
  },
  undefined,
  {
    description:
      'The analysis materialized when the post was scored; never recomputed. Values never materialized are null or empty.',
  },
);

const collection = obj({
  id: str('Begins with col_.'),
  name: str(),
  type: oneOfStrings(['campaign', 'group']),
  parentId: nullable(str()),
  postCount: int('Posts in the collection and, for a campaign, its groups.'),
  createdAt: timestamp(),
});

const pageMeta = obj(
  {
    limit: int(),
    hasMore: bool(),
    nextCursor: nullable(str('Opaque; pass back as cursor with the same filters.')),
    filters: postFiltersEcho(
      { status: statusScope, collectionId: str('GET /collections/{id}/posts only: the collection listed.') },
      ['status'],
      'The active filters, normalized, defaults included (status).',
    ),
  },
  undefined,
);

// ---- Requests -----------------------------------------------------------------------------

const stringOrList = (description: string): SchemaObject => ({ description, oneOf: [str(), arrayOf(str())] });

/** Post filters as a JSON object (selection.posts); the same names as the GET /posts query. */
const postFilters = obj(
  {
    status: oneOfStrings(['complete', 'pending', 'all'], 'Default complete.'),
    link: stringOrList('Post URLs (any form of the URL).'),
    account: stringOrList('Creator usernames or account URLs; leading @ optional.'),
    platform: stringOrList(`One or more of ${PLATFORMS.join(', ')}.`),
    tag: stringOrList('Case-insensitive, leading # optional; matches any.'),
    posted_since: str('ISO 8601 date or timestamp.'),
    posted_until: str('ISO 8601 date or timestamp; a bare date covers the whole day.'),
    updated_since: str('ISO 8601 date or timestamp.'),
    min_score: num(undefined, { minimum: 1, maximum: 10 }),
    max_score: num(undefined, { minimum: 1, maximum: 10 }),
    ...Object.fromEntries(
      BUCKET_KEYS.flatMap((b) => [
        [
          `min_${b}_percent`,
          num(`Lower bound of the post's ${b} sentiment share, 0 to 100.`, { minimum: 0, maximum: 100 }),
        ],
        [
          `max_${b}_percent`,
          num(`Upper bound of the post's ${b} sentiment share, 0 to 100.`, { minimum: 0, maximum: 100 }),
        ],
      ]),
    ),
    collection_id: str(),
  },
  [],
  { additionalProperties: false, description: 'The post filters of GET /posts, as a JSON object.' },
);

const presence = oneOfStrings(['include', 'exclude', 'only']);
const commentFilters = obj(
  {
    ...Object.fromEntries(
      DIMENSIONS.map((d) => [
        d,
        arrayOf(
          oneOfStrings(bucketValues(d)),
          `Bucket keys${d === 'sentiment' ? '' : ' or labels'} of ${d}; a comma-separated string also works.`,
          { maxItems: 10 },
        ),
      ]),
    ),
    keywords: arrayOf(str(), undefined, { maxItems: 50 }),
    keywordMatch: oneOfStrings(['any', 'all'], 'Default any.'),
    excludeKeywords: arrayOf(str(), undefined, { maxItems: 50 }),
    usernames: arrayOf(str(), 'Leading @ optional.', { maxItems: 50 }),
    excludeUsernames: arrayOf(str(), 'Leading @ optional.', { maxItems: 50 }),
    creator: presence,
    replies: presence,
    questions: presence,
    mentions: presence,
    emoji: presence,
    minLikes: num(undefined, { minimum: 0 }),
    since: str('ISO 8601 date or timestamp.'),
    until: str('ISO 8601 date or timestamp; a bare date covers the whole day.'),
  },
  [],
  {
    additionalProperties: false,
    description:
      'Comment filters: only comments matching every active filter count. Hidden comments are always excluded.',
  },
);

const analysisRequest = obj(
  {
    selection: obj(
      {
        collectionId: str('A collection; campaign ids include nested groups.'),
        posts: ref('PostFilters'),
        postIds: arrayOf(str(), 'Explicit ids; cannot be combined with the other styles.', {
          minItems: 1,
          maxItems: 1000,
        }),
      },
      [],
      {
        additionalProperties: false,
        minProperties: 1,
        description:
          'Exactly one style: { collectionId }, { posts }, { collectionId, posts } or { postIds }. Resolves newest first and stops at 1,000 posts.',
      },
    ),
    filters: ref('CommentFilters'),
    search: obj(
      {
        query: str(undefined, { minLength: 1 }),
        mode: oneOfStrings(
          ['ai', 'keyword'],
          'ai (default) runs as a job; keyword folds the query into filters.keywords and stays synchronous.',
        ),
        minRelevance: num(
          `AI search: keep comments at or above this relevance, the chance (0..1, classes weighted equally) that the comment says what the query asks; a comment holding every query word reaches the default. Default ${DEFAULT_MIN_RELEVANCE}, the best balance of precision and recall measured; 0.5 keeps more, 0.9 fewer and surer.`,
          { minimum: 0, maximum: 1 },
        ),
      },
      ['query'],
      { additionalProperties: false },
    ),
    include: arrayOf(oneOfStrings(ANALYSIS_INCLUDES), undefined, { uniqueItems: true }),
    teamId: str('Enterprise keys only: a sub-team of the key’s enterprise.'),
  },
  ['selection'],
  { additionalProperties: false, description: 'Body of POST /analyses.' },
);

/** The named schemas the analysis controllers reference, in the order the document lists them. */
export const ANALYSIS_OPENAPI_SCHEMAS: Record<string, SchemaObject> = {
  Mix: mix,
  EmotionMix: emotionMix,
  RollupScores: rollupScores,
  WordCloudItem: wordCloudItem,
  AnalysisSelectionEcho: selectionEcho,
  AnalysisScope: analysisScope,
  CreatorContent: creatorContent,
  CommentAnalysis: commentAnalysis,
  Analysis: analysis,
  AnalysisSummary: analysisSummary,
  AnalysisMeta: analysisMeta,
  AnalysisRequest: analysisRequest,
  PostFilters: postFilters,
  CommentFilters: commentFilters,
  Post: post,
  PostAnalysis: postAnalysis,
  PostPageMeta: pageMeta,
  Collection: collection,
};
