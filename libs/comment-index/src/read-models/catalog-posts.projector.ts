import {
  postDetailsOf,
  taggedWith,
  type CreatorMessage,
  type CreatorTopic,
  type PostCreated,
  type PostEvent,
  type PostScored,
} from '@analyst/contracts';
import type { Doc, Projector, Recorded } from '@analyst/platform';
import { createdPostFields, type CatalogPostFields } from '../team-index/catalog-entries';

export const CATALOG_POSTS = 'analysis_posts';

/** The version analyses read, as the catalog records it; its settings are the team's at `position`. */
export interface CatalogVersion {
  dataVersion: number;
  /** The fetch its comments came from (its `PostFetched` revision; null: nothing was fetched) and its chunks. */
  fetch: number | null;
  chunks: number;
  /**
   * Its score chunks: the revision of the first and how many (appended together, just before its
   * `PostScored`). Absent when its `PostScored` predates the count, and then found by their fields.
   */
  scores?: { first: number; chunks: number };
  topics: CreatorTopic[];
  messages: CreatorMessage[];
  scoredAt: string;
  /** Log position of its `PostScored`: the team settings in force there are the version's. */
  position: number;
}

/** One post as analysis and sampling list and select it, with where its comments are. */
export interface CatalogPostDoc extends Doc, CatalogPostFields {
  /** Log position of `PostCreated`: the team's posts in this order are the index's post numbers. */
  seq: number;
  /** The fetch of the version in flight: `PostFetched`'s revision and chunk count. */
  fetched: { dataVersion: number; fetch: number; chunks: number } | null;
  version: CatalogVersion | null;
}

type CatalogEvent = Exclude<PostEvent, { type: 'CommentsFetched' | 'CommentsScored' }>;

/**
 * A post event on its catalog document: the same changes the log fold makes to a `PostEntry`
 * (`foldIntoTeams`, team-index/folded-teams.ts), so a catalog loaded from the store equals the fold. An event of a post whose
 * `PostCreated` was never seen leaves a document without a team, which no query finds (the fold
 * ignores such events).
 */
export function evolveCatalogPost(
  doc: CatalogPostDoc | null,
  event: Recorded<CatalogEvent>,
  id: string,
): CatalogPostDoc {
  if (event.type === 'PostCreated') return createdPost(doc, event, id);
  const post = doc ?? ({ _id: id, teamId: '' } as CatalogPostDoc);
  if (!post.teamId) return post;
  const at = ('at' in event.data ? event.data.at : undefined) ?? event.metadata.occurredAt;
  switch (event.type) {
    case 'PostTagged':
      return { ...post, ...taggedWith(post, event.data), updatedAt: at };
    case 'PostRefreshRequested': {
      const refreshed = event.data.requestedAt ?? at;
      return {
        ...post,
        status: 'fetching',
        dataVersion: event.data.dataVersion,
        lastRefreshedAt: refreshed,
        updatedAt: refreshed,
      };
    }
    case 'PostFetched': {
      return {
        ...post,
        status: 'processing',
        ...postDetailsOf(event.data.post),
        updatedAt: at,
        fetched: { dataVersion: event.data.dataVersion, fetch: event.revision, chunks: event.data.chunks },
      };
    }
    case 'PostScored':
      return event.data.dataVersion === post.dataVersion ? scoredPost(post, event, at) : post;
    case 'PostFetchFailed':
      return { ...post, status: event.data.outcome, fetched: null, updatedAt: at };
    case 'PostHoldResumed':
      return { ...post, status: 'fetching', updatedAt: at };
    case 'PostCancelled':
      return { ...post, status: 'cancelled', fetched: null, updatedAt: at };
    default:
      return post;
  }
}

/** The post as created (a second `PostCreated` of it changes nothing). */
function createdPost(doc: CatalogPostDoc | null, event: Recorded<PostCreated>, id: string): CatalogPostDoc {
  if (doc?.teamId) return doc;
  return { _id: id, seq: event.position, ...createdPostFields(event.data), fetched: null, version: null };
}

/** The post once its current version is scored: that version is the one analyses read. */
function scoredPost(post: CatalogPostDoc, event: Recorded<PostScored>, at: string): CatalogPostDoc {
  const fetched = post.fetched?.dataVersion === event.data.dataVersion ? post.fetched : null;
  return {
    ...post,
    status: 'complete',
    totalComments: event.data.totalComments,
    updatedAt: at,
    fetched: null,
    version: {
      dataVersion: event.data.dataVersion,
      fetch: fetched?.fetch ?? null,
      chunks: fetched?.chunks ?? 0,
      ...(event.data.chunks === undefined
        ? {}
        : { scores: { first: event.revision - event.data.chunks, chunks: event.data.chunks } }),
      topics: event.data.topics,
      messages: event.data.messages,
      scoredAt: at,
      position: event.position,
    },
  };
}

/** `analysis_posts`: the posts of every team as analysis and sampling read them. */
export const catalogPostsProjector: Projector<CatalogPostDoc, CatalogEvent> = {
  name: 'analysis-posts',
  collection: CATALOG_POSTS,
  eventTypes: [
    'PostCreated',
    'PostTagged',
    'PostRefreshRequested',
    'PostFetched',
    'PostScored',
    'PostFetchFailed',
    'PostHoldResumed',
    'PostCancelled',
  ],
  // A team's catalog in creation order (the shard key's first field is the team).
  indexes: [{ keys: { teamId: 1, seq: 1 }, name: 'team_seq' }],
  documentIds: (event) => [event.data.postId],
  evolve: evolveCatalogPost,
};
