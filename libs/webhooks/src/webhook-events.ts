import type { PostScored } from '@analyst/contracts';
import type { AnalysisEvent } from '@analyst/domain-analysis';
import { contentJobStream, type ContentJobEvent } from '@analyst/domain-content';
import type { RecordedEvent } from '@analyst/eventsourcing';
import type { WebhookEndpointPinged } from './endpoint/webhook-endpoint-events';

/**
 * The facts pushed to webhooks and the event stream, each one event of the log: a content job's
 * end, an analysis's end, and a post's data version complete (after an add or a refresh).
 */
export const WEBHOOK_EVENT_TYPES = [
  'content_job.completed',
  'content_job.partial',
  'content_job.failed',
  'analysis.ready',
  'analysis.failed',
  'post.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * `POST /webhooks/{id}/ping` becomes this event, delivered to that one endpoint whatever it
 * subscribed to. Not one of the types an endpoint subscribes to, and not on `GET /events`.
 */
export const WEBHOOK_PING_TYPE = 'webhook.ping';
/** Every type a delivery can carry: the subscribable ones and the ping. */
export type WebhookDeliveryType = WebhookEventType | typeof WEBHOOK_PING_TYPE;

export interface ContentJobSummary {
  object: 'content_job';
  id: string;
  status: 'completed' | 'partial' | 'failed';
  /** On failed jobs: the code and message GET /content/jobs/{jobId} carries. */
  error: { code: string; message: string } | null;
  completedAt: string;
  /** Relative to `{base_url}`, as the spec's `comments.path`. */
  path: string;
}
export interface AnalysisSummary {
  object: 'analysis';
  id: string;
  status: 'ready' | 'failed';
  /** Counts of the scope, on ready analyses; null on failed ones. */
  postCount: number | null;
  totalComments: number | null;
  matchedComments: number | null;
  error: { message: string } | null;
  completedAt: string;
  path: string;
}
export interface PostVersionSummary {
  object: 'post';
  id: string;
  status: 'complete';
  dataVersion: number;
  /** `added` for a post's first version, `refreshed` for a later one. */
  reason: 'added' | 'refreshed';
  totalComments: number;
  /** The content job that asked for this version. */
  jobId: string;
  updatedAt: string;
  /** The post's analysis, materialized when this version was scored. */
  path: string;
}

export interface WebhookEndpointSummary {
  object: 'webhook_endpoint';
  id: string;
  path: string;
}

interface WebhookEventOf<T extends WebhookDeliveryType, D> {
  id: string;
  type: T;
  createdAt: string;
  teamId: string;
  data: D;
}
export type WebhookEvent =
  | WebhookEventOf<'content_job.completed' | 'content_job.partial' | 'content_job.failed', ContentJobSummary>
  | WebhookEventOf<'analysis.ready' | 'analysis.failed', AnalysisSummary>
  | WebhookEventOf<'post.updated', PostVersionSummary>
  | WebhookEventOf<typeof WEBHOOK_PING_TYPE, WebhookEndpointSummary>;

/** A webhook event of one of the subscribable types: what `GET /events` carries (never a ping). */
export type SubscribableWebhookEvent = Exclude<WebhookEvent, { type: typeof WEBHOOK_PING_TYPE }>;

/** Whether an event is one a team's endpoints subscribe to and the event stream carries (not a ping). */
export function isSubscribableWebhookEvent(event: WebhookEvent): event is SubscribableWebhookEvent {
  return event.type !== WEBHOOK_PING_TYPE;
}

/** The log events that become webhook events; every other event maps to none. */
type SourceEvent =
  | Extract<ContentJobEvent, { type: 'JobSettled' | 'ContentJobFailed' }>
  | Extract<AnalysisEvent, { type: 'AnalysisCompleted' | 'AnalysisFailed' }>
  | PostScored
  | WebhookEndpointPinged;
type SourceEventType = SourceEvent['type'];
const SOURCE_TYPE_MAP: { [K in SourceEventType]: true } = {
  JobSettled: true,
  ContentJobFailed: true,
  AnalysisCompleted: true,
  AnalysisFailed: true,
  PostScored: true,
  WebhookEndpointPinged: true,
};
/** Every log event type that can become a webhook event: a log follower may read only these. */
export const WEBHOOK_SOURCE_EVENT_TYPES = Object.keys(SOURCE_TYPE_MAP) as SourceEventType[];

const LOG_EVENT_ID_PREFIX = 'ev_';
/**
 * One log event is at most one webhook event, so the log event's own id names it: the same fact
 * read again (a replay, another replica, a rebuilt follower) gets the same `evt_` id.
 */
export function webhookEventId(logEventId: string): string {
  const bare = logEventId.startsWith(LOG_EVENT_ID_PREFIX)
    ? logEventId.slice(LOG_EVENT_ID_PREFIX.length)
    : logEventId;
  return `evt_${bare}`;
}

const CONTENT_JOB_STREAM_PREFIX = contentJobStream('');

function isSourceEvent(event: RecordedEvent): event is RecordedEvent & SourceEvent {
  return Object.prototype.hasOwnProperty.call(SOURCE_TYPE_MAP, event.type);
}

function contentJobSummary(
  streamId: string,
  event: Extract<SourceEvent, { type: 'JobSettled' | 'ContentJobFailed' }>,
): ContentJobSummary {
  const id = streamId.slice(CONTENT_JOB_STREAM_PREFIX.length);
  const status = event.type === 'ContentJobFailed' ? 'failed' : event.data.status;
  return {
    object: 'content_job',
    id,
    status,
    error: event.data.error ? { code: event.data.error.code, message: event.data.error.message } : null,
    completedAt: event.data.at,
    path: `/content/jobs/${id}`,
  };
}

function analysisSummary(
  event: Extract<SourceEvent, { type: 'AnalysisCompleted' | 'AnalysisFailed' }>,
): AnalysisSummary {
  const id = event.data.analysisId;
  const common = { object: 'analysis' as const, id, completedAt: event.data.at, path: `/analyses/${id}` };
  if (event.type === 'AnalysisFailed')
    return {
      ...common,
      status: 'failed',
      postCount: null,
      totalComments: null,
      matchedComments: null,
      error: { message: event.data.message },
    };
  const { scope } = event.data.result;
  return {
    ...common,
    status: 'ready',
    postCount: scope.postCount,
    totalComments: scope.totalComments,
    matchedComments: scope.matchedComments,
    error: null,
  };
}

function postVersionSummary(event: PostScored): PostVersionSummary {
  const d = event.data;
  return {
    object: 'post',
    id: d.postId,
    status: 'complete',
    dataVersion: d.dataVersion,
    reason: d.dataVersion === 1 ? 'added' : 'refreshed',
    totalComments: d.totalComments,
    jobId: d.jobId,
    updatedAt: d.at,
    path: `/posts/${d.postId}/analysis`,
  };
}

/**
 * The webhook event a recorded log event stands for, or null: events of other kinds, a content
 * job event outside a job stream, and events without a team (nobody to deliver to). A ping
 * (`WebhookEndpointPinged`) is `webhook.ping`, for its one endpoint. Pure: the
 * same recorded event always gives the same webhook event. Summaries carry ids, statuses and
 * counts, never comment bodies (the spec's rule 2 holds for pushes too).
 */
export function toWebhookEvent(event: RecordedEvent): WebhookEvent | null {
  if (!isSourceEvent(event)) return null;
  // A ping belongs to its endpoint's team, whoever asked for it (an Enterprise key for a sub-team).
  const teamId = event.type === 'WebhookEndpointPinged' ? event.data.teamId : event.metadata.teamId;
  if (!teamId) return null;
  const base = { id: webhookEventId(event.id), createdAt: event.metadata.occurredAt, teamId };
  switch (event.type) {
    case 'JobSettled':
    case 'ContentJobFailed': {
      if (!event.streamId.startsWith(CONTENT_JOB_STREAM_PREFIX)) return null;
      const data = contentJobSummary(event.streamId, event);
      return { ...base, type: `content_job.${data.status}`, data };
    }
    case 'AnalysisCompleted':
    case 'AnalysisFailed': {
      const data = analysisSummary(event);
      return { ...base, type: `analysis.${data.status}`, data };
    }
    case 'PostScored':
      return { ...base, type: 'post.updated', data: postVersionSummary(event) };
    case 'WebhookEndpointPinged': {
      const id = event.data.endpointId;
      return {
        ...base,
        type: WEBHOOK_PING_TYPE,
        data: { object: 'webhook_endpoint', id, path: `/webhooks/${id}` },
      };
    }
    default: {
      const _never: never = event;
      return _never;
    }
  }
}
