import type { Command, Decider } from '@analyst/eventsourcing';
import {
  type PostStatus,
  type CreatorMessage,
  type CreatorTopic,
  type FetchedComment,
  type Platform,
  type PostCreated,
  type PostVersionRequest,
  type PostEvent,
  type CommentsFetched,
  type CommentsScored,
  type ProviderPost,
  type ScoredComment,
} from '@analyst/contracts';
import { ContentError } from './content-errors';
import { newTags, normalizeTags } from './tags';

/** In flight: credits still reserved, hidden from the default post lists, not refreshable. */
export const IN_FLIGHT_STATUSES: readonly PostStatus[] = ['fetching', 'queued', 'processing'];

export const COMMENT_CHUNK_SIZE = 250;

export const postStream = (postId: string): string => `post-${postId}`;

export type PostState =
  | { status: 'absent' }
  | {
      status: PostStatus;
      postId: string;
      teamId: string;
      link: string;
      normalizedLink: string;
      platform: Platform;
      collectionIds: string[];
      tags: string[];
      createdAt: string;
      dataVersion: number;
      current: PostVersionRequest;
      /** When the current data was last asked for (creation or refresh): the 12-hour floor counts from here. */
      lastRefreshedAt: string;
      /** Start of the included-refresh cadence: the last free refresh, or the creation. */
      lastIncludedRefreshAt: string;
      /** Comment count of the version being processed, once fetched. */
      fetchedComments: number | null;
      /** Times the current version was held; names each resumption's reservation. */
      holds: number;
      /** While holding: when the platform said its window reopens (null: it did not say). */
      heldUntil: string | null;
      /** When the current version was last held. */
      lastHeldAt: string | null;
    };
export type ExistingPost = Exclude<PostState, { status: 'absent' }>;

export type PostCommand =
  | Command<'CreatePost', PostCreated['data']>
  | Command<'TagPost', { collectionIds: string[]; tags: string[]; at: string }>
  | Command<'RequestRefresh', Omit<PostVersionRequest, 'dataVersion'>>
  | Command<
      'RecordFetch',
      {
        dataVersion: number;
        at: string;
        result:
          | { status: 'ok'; post: ProviderPost; comments: FetchedComment[] }
          | { status: 'failed' | 'unreachable'; reason: string }
          | { status: 'holding'; reason: string; retryAt?: string };
        chunkSize?: number;
      }
    >
  | Command<
      'RecordScores',
      {
        dataVersion: number;
        at: string;
        scorer: { name: string; version: string };
        topics: CreatorTopic[];
        messages: CreatorMessage[];
        comments: ScoredComment[];
        chunkSize?: number;
      }
    >
  | Command<'CancelPost', { reason: string; at: string }>
  /** Fetch a held version again; `reservationId` funds it (null for an included refresh). */
  | Command<'ResumeHeld', { dataVersion: number; reservationId: string | null; at: string }>
  /** A held version that cannot be resumed (its credits could not be reserved again) fails. */
  | Command<'AbandonHeld', { dataVersion: number; reason: string; at: string }>;

function requireExisting(state: PostState): ExistingPost {
  if (state.status === 'absent') throw new ContentError('post_not_found', 'post not found');
  return state;
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * The version an event is about and the reservation funding it, which the ledger settles or
 * refunds: the current one unless the event names another (a resumption's) or none.
 */
function fundedVersion(post: ExistingPost, reservationId = post.current.reservationId) {
  return { postId: post.postId, dataVersion: post.dataVersion, jobId: post.current.jobId, reservationId };
}

type PostCommandOf<T extends PostCommand['type']> = Extract<PostCommand, { type: T }>;

function createPost(command: PostCommandOf<'CreatePost'>, state: PostState): PostEvent[] {
  if (state.status !== 'absent')
    throw new ContentError('post_exists', `post ${command.data.postId} already exists`);
  return [
    {
      type: 'PostCreated',
      data: { ...command.data, tags: normalizeTags(command.data.tags), dataVersion: 1 },
    },
  ];
}

function tagPost(command: PostCommandOf<'TagPost'>, state: PostState): PostEvent[] {
  const post = requireExisting(state);
  const addedCollectionIds = [...new Set(command.data.collectionIds)].filter(
    (id) => !post.collectionIds.includes(id),
  );
  const addedTags = newTags(post.tags, command.data.tags);
  if (addedCollectionIds.length === 0 && addedTags.length === 0) return [];
  return [
    { type: 'PostTagged', data: { postId: post.postId, addedCollectionIds, addedTags, at: command.data.at } },
  ];
}

function requestRefresh(command: PostCommandOf<'RequestRefresh'>, state: PostState): PostEvent[] {
  const post = requireExisting(state);
  // A held version still belongs to its job, which waits for it: it is resumed, not replaced.
  if (IN_FLIGHT_STATUSES.includes(post.status) || post.status === 'holding')
    throw new ContentError('post_in_flight', `post ${post.postId} is still processing`);
  return [
    {
      type: 'PostRefreshRequested',
      data: { ...command.data, postId: post.postId, dataVersion: post.dataVersion + 1 },
    },
  ];
}

function recordFetch(command: PostCommandOf<'RecordFetch'>, state: PostState): PostEvent[] {
  // A redelivered or stale fetch finds the version already past `fetching`: nothing to record.
  if (state.status !== 'fetching' || state.dataVersion !== command.data.dataVersion) return [];
  const { result } = command.data;
  if (result.status !== 'ok') {
    return [
      {
        type: 'PostFetchFailed',
        data: {
          ...fundedVersion(state),
          outcome: result.status,
          reason: result.reason,
          ...(result.status === 'holding' ? { retryAt: result.retryAt ?? null } : {}),
          at: command.data.at,
        },
      },
    ];
  }
  const chunks = chunked(result.comments, command.data.chunkSize ?? COMMENT_CHUNK_SIZE);
  return [
    {
      type: 'PostFetched',
      data: {
        postId: state.postId,
        dataVersion: state.dataVersion,
        post: result.post,
        totalComments: result.comments.length,
        chunks: chunks.length,
        at: command.data.at,
      },
    },
    ...chunks.map((comments, chunk): CommentsFetched => ({
      type: 'CommentsFetched',
      data: { postId: state.postId, dataVersion: state.dataVersion, chunk, comments },
    })),
  ];
}

function recordScores(command: PostCommandOf<'RecordScores'>, state: PostState): PostEvent[] {
  if (state.status !== 'processing' || state.dataVersion !== command.data.dataVersion) return [];
  const chunks = chunked(command.data.comments, command.data.chunkSize ?? COMMENT_CHUNK_SIZE);
  return [
    ...chunks.map((comments, chunk): CommentsScored => ({
      type: 'CommentsScored',
      data: {
        postId: state.postId,
        dataVersion: state.dataVersion,
        chunk,
        scorer: command.data.scorer,
        comments,
      },
    })),
    {
      type: 'PostScored',
      data: {
        ...fundedVersion(state),
        scorer: command.data.scorer,
        topics: command.data.topics,
        messages: command.data.messages,
        totalComments: state.fetchedComments ?? command.data.comments.length,
        chunks: chunks.length,
        at: command.data.at,
      },
    },
  ];
}

function resumeHeld(command: PostCommandOf<'ResumeHeld'>, state: PostState): PostEvent[] {
  // Another replica resumed (or abandoned) it first, or the hold is of an older version: nothing to do.
  if (state.status !== 'holding' || state.dataVersion !== command.data.dataVersion) return [];
  return [
    {
      type: 'PostHoldResumed',
      data: { ...fundedVersion(state, command.data.reservationId), at: command.data.at },
    },
  ];
}

function abandonHeld(command: PostCommandOf<'AbandonHeld'>, state: PostState): PostEvent[] {
  if (state.status !== 'holding' || state.dataVersion !== command.data.dataVersion) return [];
  return [
    {
      type: 'PostFetchFailed',
      // The hold's reservation was refunded when it was held: this outcome holds no credits.
      data: {
        ...fundedVersion(state, null),
        outcome: 'failed',
        reason: command.data.reason,
        at: command.data.at,
      },
    },
  ];
}

function cancelPost(command: PostCommandOf<'CancelPost'>, state: PostState): PostEvent[] {
  const post = requireExisting(state);
  if (!IN_FLIGHT_STATUSES.includes(post.status)) return [];
  return [
    {
      type: 'PostCancelled',
      data: {
        ...fundedVersion(post),
        reason: command.data.reason,
        at: command.data.at,
      },
    },
  ];
}

export function decidePost(command: PostCommand, state: PostState): PostEvent[] {
  switch (command.type) {
    case 'CreatePost':
      return createPost(command, state);
    case 'TagPost':
      return tagPost(command, state);
    case 'RequestRefresh':
      return requestRefresh(command, state);
    case 'RecordFetch':
      return recordFetch(command, state);
    case 'RecordScores':
      return recordScores(command, state);
    case 'ResumeHeld':
      return resumeHeld(command, state);
    case 'AbandonHeld':
      return abandonHeld(command, state);
    case 'CancelPost':
      return cancelPost(command, state);
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

/**
 * The comment payloads of a data version, which no decision of the post reads: `evolvePost`
 * returns the state unchanged for them (below), so PostCommands folds the stream without them
 * (SkippingStateSource) and a command costs the same however many comments the post has.
 */
export const POST_PAYLOAD_EVENT_TYPES = [
  'CommentsFetched',
  'CommentsScored',
] as const satisfies readonly PostEvent['type'][];

export function evolvePost(state: PostState, event: PostEvent): PostState {
  switch (event.type) {
    case 'PostCreated': {
      const d = event.data;
      const { postId, teamId, link, normalizedLink, platform, collectionIds, tags } = d;
      return {
        status: 'fetching',
        postId,
        teamId,
        link,
        normalizedLink,
        platform,
        collectionIds,
        tags,
        createdAt: d.requestedAt,
        dataVersion: d.dataVersion,
        current: versionRequest(d),
        lastRefreshedAt: d.requestedAt,
        lastIncludedRefreshAt: d.requestedAt,
        fetchedComments: null,
        holds: 0,
        heldUntil: null,
        lastHeldAt: null,
      };
    }
    case 'PostTagged': {
      const post = requireExisting(state);
      return {
        ...post,
        collectionIds: [...post.collectionIds, ...event.data.addedCollectionIds],
        tags: [...post.tags, ...event.data.addedTags],
      };
    }
    case 'PostRefreshRequested': {
      const post = requireExisting(state);
      const d = event.data;
      return {
        ...post,
        status: 'fetching',
        dataVersion: d.dataVersion,
        current: versionRequest(d),
        lastRefreshedAt: d.requestedAt,
        lastIncludedRefreshAt: d.creditSource === 'included' ? d.requestedAt : post.lastIncludedRefreshAt,
        fetchedComments: null,
        holds: 0,
        heldUntil: null,
        lastHeldAt: null,
      };
    }
    case 'PostFetched':
      return { ...requireExisting(state), status: 'processing', fetchedComments: event.data.totalComments };
    // POST_PAYLOAD_EVENT_TYPES: change these two cases and that list together.
    case 'CommentsFetched':
    case 'CommentsScored':
      return state;
    case 'PostScored':
      return { ...requireExisting(state), status: 'complete' };
    case 'PostFetchFailed': {
      const post = requireExisting(state);
      if (event.data.outcome !== 'holding') return { ...post, status: event.data.outcome, heldUntil: null };
      return {
        ...post,
        status: 'holding',
        holds: post.holds + 1,
        heldUntil: event.data.retryAt ?? null,
        lastHeldAt: event.data.at,
      };
    }
    case 'PostHoldResumed': {
      const post = requireExisting(state);
      return {
        ...post,
        status: 'fetching',
        current: { ...post.current, reservationId: event.data.reservationId },
        fetchedComments: null,
        heldUntil: null,
      };
    }
    case 'PostCancelled':
      return { ...requireExisting(state), status: 'cancelled' };
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

function versionRequest(d: PostVersionRequest): PostVersionRequest {
  const { dataVersion, jobId, reservationId, creditSource, unitCost, fullRead, commentLimit, requestedAt } =
    d;
  return { dataVersion, jobId, reservationId, creditSource, unitCost, fullRead, commentLimit, requestedAt };
}

export const postDecider: Decider<PostCommand, PostEvent, PostState> = {
  initialState: (): PostState => ({ status: 'absent' }),
  decide: decidePost,
  evolve: evolvePost,
};
