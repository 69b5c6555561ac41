import type { SchemaObject } from '@nestjs/swagger';
import {
  API_POST_STATUSES,
  JOB_KINDS,
  JOB_STATUSES,
  PLATFORMS,
  POST_TYPES,
  REJECT_REASONS,
  SKIP_REASONS,
} from '@analyst/contracts';
import { openApi } from '@analyst/platform';

const { arrayOf, bool, int, nullable, obj, oneOfStrings, ref, str, timestamp } = openApi;

/**
 * Component schemas of the content-job routes, with the fields renderJob returns. IngestModule
 * registers them into the served document (registerOpenApiSchemas).
 */

// ---- Content jobs -------------------------------------------------------------------------

const jobCounts = obj(
  {
    requested: int(),
    discovered: nullable(int('Account jobs only.')),
    accepted: int(),
    skipped: int(),
    rejected: int(),
    syncing: int(),
    complete: int(),
    failed: int(),
  },
  ['requested', 'accepted', 'skipped', 'rejected', 'syncing', 'complete', 'failed'],
);
const jobCredits = {
  source: oneOfStrings(['auto', 'adhoc']),
  perPost: int('1, or 5 with capture.fullRead.'),
  reserved: int(),
  settled: int(),
  refunded: int(),
};
const jobError = obj({ code: str('e.g. insufficient_credits, no_active_plan.'), message: str() });

const contentJob = obj(
  {
    id: str('Begins with cj_.'),
    kind: oneOfStrings(JOB_KINDS),
    status: oneOfStrings(JOB_STATUSES),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    completedAt: nullable(timestamp()),
    expiresAt: timestamp('30 days after creation.'),
    account: obj({ url: str(), platform: oneOfStrings(PLATFORMS) }, undefined, {
      description: 'Account jobs only.',
    }),
    dryRun: bool('Account jobs only.'),
    filters: nullable(
      obj(
        {
          since: nullable(timestamp()),
          until: timestamp('The request’s until, or the time the request was accepted.'),
          limit: int(undefined, { minimum: 1 }),
          keywords: nullable(obj({ term: str(), match: oneOfStrings(['includes', 'exact', 'excludes']) })),
          minViews: nullable(int(undefined, { minimum: 0 })),
          minLikes: nullable(int(undefined, { minimum: 0 })),
          postType: nullable(oneOfStrings(POST_TYPES)),
        },
        undefined,
        { additionalProperties: false, description: 'Account jobs only: the filters actually applied.' },
      ),
    ),
    collections: arrayOf(
      obj({
        id: str(),
        name: str(),
        type: oneOfStrings(['campaign', 'group']),
        created: bool('True when a campaign was created by name.'),
      }),
    ),
    tags: arrayOf(str(), 'Normalized.'),
    credits: obj(
      {
        ...jobCredits,
        estimated: int('Dry runs only.'),
        included: int('Refresh jobs only: refreshes inside the plan cadence.'),
      },
      ['source', 'perPost', 'reserved', 'settled', 'refunded'],
    ),
    counts: ref('ContentJobCounts'),
    accepted: arrayOf(
      obj(
        {
          link: str(),
          postId: str(),
          postStatus: oneOfStrings(API_POST_STATUSES),
          creditSource: oneOfStrings(['included', 'credit'], 'Refresh jobs only.'),
          creditCost: int('Refresh jobs only.'),
          dataVersion: int('Refresh jobs only.'),
        },
        ['link', 'postId', 'postStatus'],
      ),
    ),
    skipped: arrayOf(
      obj(
        {
          link: str(),
          reason: oneOfStrings(SKIP_REASONS),
          postId: str('Refresh jobs.'),
          nextRefreshAt: timestamp('With reason min_interval.'),
        },
        ['link', 'reason'],
      ),
    ),
    rejected: arrayOf(obj({ link: str(), reason: oneOfStrings(REJECT_REASONS) })),
    discovered: arrayOf(
      obj({
        link: str(),
        postedAt: timestamp(),
        postType: oneOfStrings(POST_TYPES),
        engagement: obj({ views: int(), likes: int() }),
      }),
      'Dry runs only.',
    ),
    minRefreshIntervalHours: int('Refresh jobs only: 12.'),
    error: obj({ code: str('e.g. insufficient_credits, no_active_plan.'), message: str() }, undefined, {
      description: 'Failed jobs only.',
    }),
    pollAfterMs: int('5000 by default.'),
  },
  [
    'id',
    'kind',
    'status',
    'createdAt',
    'updatedAt',
    'completedAt',
    'expiresAt',
    'collections',
    'tags',
    'credits',
    'counts',
    'accepted',
    'skipped',
    'rejected',
    'pollAfterMs',
  ],
  {
    description: 'A content job. Per-link outcomes are in accepted, skipped and rejected, never HTTP errors.',
  },
);

const contentJobSummary = obj(
  {
    id: str(),
    kind: oneOfStrings(JOB_KINDS),
    status: oneOfStrings(JOB_STATUSES),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    completedAt: nullable(timestamp()),
    counts: ref('ContentJobCounts'),
    credits: obj(jobCredits),
    error: jobError,
  },
  ['id', 'kind', 'status', 'createdAt', 'updatedAt', 'completedAt', 'counts', 'credits'],
  { description: 'A row of GET /content/jobs.' },
);

const contentJobMeta = obj({
  status: oneOfStrings(JOB_STATUSES),
  pollAfterMs: int(),
  replayed: bool('True when an identical earlier request’s job is returned.'),
});

/** The named schemas the content controllers reference, in the order the document lists them. */
export const INGEST_OPENAPI_SCHEMAS: Record<string, SchemaObject> = {
  ContentJobCounts: jobCounts,
  ContentJob: contentJob,
  ContentJobSummary: contentJobSummary,
  ContentJobMeta: contentJobMeta,
};
