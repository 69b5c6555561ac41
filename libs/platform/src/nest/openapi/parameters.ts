import { applyDecorators } from '@nestjs/common';
import { ApiQuery, type SchemaObject } from '@nestjs/swagger';
import { BUCKET_KEYS, DIMENSIONS, EMOTIONS, PLATFORMS } from '@analyst/contracts';
import { arrayOf, bucketValues, int, num, oneOfStrings, str } from './schema-helpers';

/**
 * What the date filters accept (parseCalendarInstant): a date the calendar has (month lengths and
 * leap years spelled out, so 2026-02-30 does not match), optionally a time with a zone.
 */
export const ISO_DATE_OR_INSTANT =
  '^(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])|\\d{4}-(0[13-9]|1[0-2])-(29|30)|\\d{4}-(0[13578]|1[02])-31|(\\d{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)-02-29)([T ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?$';

/** An optional query parameter. */
function query(name: string, description: string, schema: SchemaObject): MethodDecorator & ClassDecorator {
  return ApiQuery({ name, required: false, description, schema });
}

/** A parameter that takes a list: comma-separated or repeated (`?platform=x,tiktok` or `?platform=x&platform=tiktok`). */
function listQuery(
  name: string,
  description: string,
  items: SchemaObject = str(),
): MethodDecorator & ClassDecorator {
  return ApiQuery({
    name,
    required: false,
    description: `${description} Comma-separated or repeated.`,
    schema: arrayOf(items),
    style: 'form',
    explode: true,
  });
}

export function ApiLimitQuery(defaultLimit: number): MethodDecorator {
  return query(
    'limit',
    `Page size, 1 to 100 (default ${defaultLimit}).`,
    int(undefined, { minimum: 1, maximum: 100, default: defaultLimit }),
  );
}

export function ApiCursorQuery(): MethodDecorator {
  return query(
    'cursor',
    'Opaque cursor from meta.nextCursor; pass it back unchanged with the same filters.',
    str(),
  );
}

/** The paging and post filters of GET /posts and GET /collections/{collectionId}/posts. */
export function ApiPostFilterQueries(): MethodDecorator {
  return applyDecorators(
    ApiLimitQuery(25),
    ApiCursorQuery(),
    query(
      'status',
      'Post status scope: complete (default), pending (fetching, queued, processing) or all.',
      oneOfStrings(['complete', 'pending', 'all']),
    ),
    listQuery('link', 'Post URLs; any form of a URL finds its post.'),
    listQuery('account', 'Creator usernames or account URLs; leading @ optional.'),
    listQuery('platform', 'Platforms.', oneOfStrings(PLATFORMS)),
    listQuery('tag', 'Tags, case-insensitive, leading # optional; a post matches any.'),
    query(
      'posted_since',
      'Posted at or after: ISO 8601 date or timestamp.',
      str(undefined, { pattern: ISO_DATE_OR_INSTANT }),
    ),
    query(
      'posted_until',
      'Posted at or before: ISO 8601 date or timestamp (a bare date covers the whole UTC day).',
      str(undefined, { pattern: ISO_DATE_OR_INSTANT }),
    ),
    query(
      'updated_since',
      'Updated at or after (incremental reads): ISO 8601 date or timestamp.',
      str(undefined, { pattern: ISO_DATE_OR_INSTANT }),
    ),
    query('min_score', 'Lowest overall score, 1 to 10.', num(undefined, { minimum: 1, maximum: 10 })),
    query('max_score', 'Highest overall score, 1 to 10.', num(undefined, { minimum: 1, maximum: 10 })),
    ...BUCKET_KEYS.flatMap((b) => [
      query(
        `min_${b}_percent`,
        `Lowest share of ${b} in the post's sentiment mix, 0 to 100.`,
        num(undefined, { minimum: 0, maximum: 100 }),
      ),
      query(
        `max_${b}_percent`,
        `Highest share of ${b} in the post's sentiment mix, 0 to 100.`,
        num(undefined, { minimum: 0, maximum: 100 }),
      ),
    ]),
    query('collection_id', 'Only posts in this collection (a campaign includes its groups).', str()),
  );
}

/** The query of both comment-sample routes. */
export function ApiCommentSampleQueries(): MethodDecorator {
  return applyDecorators(
    ApiCursorQuery(),
    ApiLimitQuery(25),
    query(
      'source',
      'notables (engagement and relevance), content (grouped onto creator topics and messages) or all (the union; default).',
      { ...oneOfStrings(['notables', 'content', 'all']), default: 'all' },
    ),
    ...DIMENSIONS.map((d) =>
      listQuery(
        d,
        `Only comments in these ${d} buckets (bucket keys${d === 'sentiment' ? '' : ' or the dimension’s labels'}); values of one parameter combine with OR, parameters with AND.`,
        oneOfStrings(bucketValues(d)),
      ),
    ),
    listQuery(
      'emotion',
      'Extension of the spec: only comments the scorer read as one of these emotions; comments without one (not English, or scored before emotions) are left out. Values combine with OR, and with the bucket parameters with AND. An unknown name is 400 invalid_filter.',
      oneOfStrings(EMOTIONS),
    ),
  );
}
