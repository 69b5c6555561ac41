import type { SchemaObject } from '@nestjs/swagger';
import { DIMENSIONS, EMOTIONS, SAMPLE_REASONS } from '@analyst/contracts';
import { openApi } from '@analyst/platform';

const { arrayOf, bool, bucketKey, int, nullable, obj, oneOfStrings, perDimension, score, str, timestamp } =
  openApi;

/**
 * Component schemas of the comment-sample routes, with the fields commentRow returns.
 * SamplingModule registers them into the served document (registerOpenApiSchemas).
 */

// ---- Comment samples ----------------------------------------------------------------------

const commentRow = obj(
  {
    commentId: str(),
    postId: str(),
    authorUsername: str(),
    body: str(),
    likes: int(),
    postedAt: timestamp(),
    isReply: bool(),
    topic: nullable(str('Creator topic the comment was grouped onto.')),
    message: nullable(obj({ topic: str(), stance: str() })),
    language: nullable(
      str(
        'ISO 639-1 code of the comment’s language; null when it cannot be told (short comments, emoji). A comment in a language the scorer cannot read has null sentiment, content and topic scores: it is unscored, not neutral.',
      ),
    ),
    emotion: nullable(
      oneOfStrings(
        EMOTIONS,
        'Extension of the spec: the emotion the scorer read in the comment (GoEmotions’ Ekman grouping); null for a comment it did not read as English, or one scored before emotions were (scorer 2.1.0).',
      ),
    ),
    scores: perDimension(score()),
    buckets: perDimension(nullable(bucketKey)),
    sampleReasons: arrayOf(oneOfStrings(SAMPLE_REASONS), undefined, { minItems: 1 }),
  },
  undefined,
  {
    description:
      'A sampled comment: scores 1 to 10, the mix-bar bucket per dimension, and why it is on the page.',
  },
);

const sampleMeta = obj(
  {
    analysisId: str('Analysis route.'),
    postId: str('Post route.'),
    dataVersion: int('Post route.'),
    source: oneOfStrings(['notables', 'content', 'all']),
    scoreVersion: int(undefined, { enum: [1, 2, 3] }),
    limit: int(),
    filters: obj(
      {
        ...Object.fromEntries(DIMENSIONS.map((d) => [d, arrayOf(bucketKey)])),
        emotion: arrayOf(oneOfStrings(EMOTIONS), 'Extension of the spec: the emotion filter, when given.'),
      },
      [],
      { description: 'The active bucket filters, as bucket keys, and the emotion filter.' },
    ),
    total: int(),
    offset: int(),
    hasMore: bool(),
    nextCursor: nullable(str('Opaque; pass back as cursor.')),
    groups: arrayOf(
      obj(
        {
          type: oneOfStrings(['topic', 'message']),
          postId: str('When more than one post is included.'),
          title: str('Topic groups.'),
          description: nullable(str('Topic groups.')),
          topic: str('Message groups.'),
          stance: str('Message groups.'),
          commentCount: int(),
          sampleCommentIds: arrayOf(str()),
        },
        ['type', 'commentCount', 'sampleCommentIds'],
      ),
      'Creator topics and messages with their comments.',
    ),
  },
  ['source', 'scoreVersion', 'limit', 'filters', 'total', 'offset', 'hasMore', 'nextCursor', 'groups'],
);

/** The named schemas the comment-sample controllers reference, in the order the document lists them. */
export const SAMPLING_OPENAPI_SCHEMAS: Record<string, SchemaObject> = {
  CommentRow: commentRow,
  CommentSampleMeta: sampleMeta,
};
