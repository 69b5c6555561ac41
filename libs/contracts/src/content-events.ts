import type { CreatorMessage, CreatorTopic, FetchedComment, ScoredComment } from './comments';
import type { Platform, ProviderPost } from './content';

/*
 * The post events the ledger's charge cross-check reads (which version of which post a reservation
 * names, and how that version ended), with their outcome helpers. They are defined here, not in
 * @analyst/domain-content which decides them, because a domain may import only the contracts and the
 * event-sourcing core; domain-content imports them.
 */

export type AddedVia = 'dashboard' | 'api' | 'automation';
export type CreditSourceOfVersion = 'credit' | 'included';

/** How one data version of a post is fetched and paid for. */
export interface PostVersionRequest {
  dataVersion: number;
  jobId: string;
  /** Null when the version costs nothing (an included refresh). */
  reservationId: string | null;
  creditSource: CreditSourceOfVersion;
  unitCost: number;
  fullRead: boolean;
  commentLimit: number | null;
  requestedAt: string;
}

export interface PostCreated {
  type: 'PostCreated';
  data: PostVersionRequest & {
    postId: string;
    teamId: string;
    link: string;
    normalizedLink: string;
    platform: Platform;
    collectionIds: string[];
    tags: string[];
    addedVia: AddedVia;
    addedBy: { id: string; name: string };
    isDemo: boolean;
  };
}

export interface PostRefreshRequested {
  type: 'PostRefreshRequested';
  data: PostVersionRequest & { postId: string };
}

export interface PostScored {
  type: 'PostScored';
  data: {
    postId: string;
    dataVersion: number;
    jobId: string;
    reservationId: string | null;
    scorer: { name: string; version: string };
    topics: CreatorTopic[];
    messages: CreatorMessage[];
    totalComments: number;
    /**
     * How many `CommentsScored` chunks were appended with it, just before it (so the read models find
     * them by revision). Absent from events recorded before it was added.
     */
    chunks?: number;
    at: string;
  };
}
/** The version ended without scores: the source failed, could not be reached, or holds it for now. */
export interface PostFetchFailed {
  type: 'PostFetchFailed';
  data: {
    postId: string;
    dataVersion: number;
    jobId: string;
    reservationId: string | null;
    outcome: 'failed' | 'unreachable' | 'holding';
    reason: string;
    /** Holding only: when the platform's quota or rate-limit window reopens, if it said. */
    retryAt?: string | null;
    at: string;
  };
}
/**
 * A held version is fetched again once its platform's window reopens: same data version and job,
 * a fresh reservation (the hold's was refunded), or none for an included refresh.
 */
export interface PostHoldResumed {
  type: 'PostHoldResumed';
  data: { postId: string; dataVersion: number; jobId: string; reservationId: string | null; at: string };
}
export interface PostCancelled {
  type: 'PostCancelled';
  data: {
    postId: string;
    dataVersion: number;
    jobId: string;
    reservationId: string | null;
    reason: string;
    at: string;
  };
}

/** Events that end a data version; the credit and job process managers react to these. */
export type PostOutcomeEvent = PostScored | PostFetchFailed | PostCancelled;
export const POST_OUTCOME_EVENT_TYPES: readonly PostOutcomeEvent['type'][] = [
  'PostScored',
  'PostFetchFailed',
  'PostCancelled',
];

const OUTCOME_TYPES = new Set<string>(POST_OUTCOME_EVENT_TYPES);

/** Whether a record is a post version's outcome event: by its type, the data trusted as at the event boundary. */
export function isPostOutcome<R extends { type: string; data: unknown }>(
  record: R,
): record is R & PostOutcomeEvent {
  return OUTCOME_TYPES.has(record.type);
}

/**
 * The outcome event of a post version, or null for any other event. A copy of the type and data
 * only: the auditors keep outcomes, not the stored records they came in.
 */
export function asPostOutcome(event: { type: string; data: unknown }): PostOutcomeEvent | null {
  if (!isPostOutcome(event)) return null;
  switch (event.type) {
    case 'PostScored':
      return { type: event.type, data: event.data };
    case 'PostFetchFailed':
      return { type: event.type, data: event.data };
    case 'PostCancelled':
      return { type: event.type, data: event.data };
  }
}

/** Where a finished version left its post: complete, cancelled, or the fetch failure's outcome. */
export function outcomeStatus(
  event: PostOutcomeEvent,
): 'complete' | 'cancelled' | PostFetchFailed['data']['outcome'] {
  return event.type === 'PostScored'
    ? 'complete'
    : event.type === 'PostCancelled'
      ? 'cancelled'
      : event.data.outcome;
}

/** Credits of a finished version: consumed when it was scored with at least one comment, returned otherwise. */
export function versionIsCharged(event: PostOutcomeEvent): boolean {
  return event.type === 'PostScored' && event.data.totalComments > 0;
}

/**
 * What every `ContentJobOpened` event carries, whatever the job's kind (its full data is
 * domain-content's `JobRequest`): the ledger's charge cross-check reads which team a job is of.
 */
export interface ContentJobOpenedTeam {
  type: 'ContentJobOpened';
  data: { jobId: string; teamId: string };
}

/*
 * The rest of a post stream's events and the collection event: analysis and sampling project them
 * (libs/comment-index), so they are defined here, where every service's vocabulary lives.
 */

/** Collections and tags merged onto the post; only what was new is listed. */
export interface PostTagged {
  type: 'PostTagged';
  data: { postId: string; addedCollectionIds: string[]; addedTags: string[]; at: string };
}

/** A post's collections and tags after a `PostTagged`: what it had, then what was added. */
export function taggedWith(
  post: { collectionIds: string[]; tags: string[] },
  tagged: PostTagged['data'],
): { collectionIds: string[]; tags: string[] } {
  return {
    collectionIds: [...post.collectionIds, ...tagged.addedCollectionIds],
    tags: [...post.tags, ...tagged.addedTags],
  };
}
export interface PostFetched {
  type: 'PostFetched';
  data: {
    postId: string;
    dataVersion: number;
    post: ProviderPost;
    totalComments: number;
    chunks: number;
    at: string;
  };
}
export interface CommentsFetched {
  type: 'CommentsFetched';
  data: { postId: string; dataVersion: number; chunk: number; comments: FetchedComment[] };
}
export interface CommentsScored {
  type: 'CommentsScored';
  data: {
    postId: string;
    dataVersion: number;
    chunk: number;
    scorer: { name: string; version: string };
    comments: ScoredComment[];
  };
}

export type PostEvent =
  | PostCreated
  | PostTagged
  | PostRefreshRequested
  | PostFetched
  | CommentsFetched
  | CommentsScored
  | PostScored
  | PostFetchFailed
  | PostHoldResumed
  | PostCancelled;
export type PostEventType = PostEvent['type'];

export type CollectionType = 'campaign' | 'group';

export interface CollectionCreated {
  type: 'CollectionCreated';
  data: {
    collectionId: string;
    teamId: string;
    name: string;
    type: CollectionType;
    parentId: string | null;
    createdVia: 'api' | 'demo';
    at: string;
  };
}
