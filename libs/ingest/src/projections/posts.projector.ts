import type { Projector } from '@analyst/platform';
import { postDetailsOf, taggedWith, versionIsCharged, type PostEvent } from '@analyst/contracts';
import { POSTS } from '../ingest.tokens';
import type { PostDoc } from './post-doc';

const TYPES = [
  'PostCreated',
  'PostTagged',
  'PostRefreshRequested',
  'PostFetched',
  'PostScored',
  'PostFetchFailed',
  'PostHoldResumed',
  'PostCancelled',
] as const;

/** The post events the posts read model folds. */
type ProjectedPostEvent = Extract<PostEvent, { type: (typeof TYPES)[number] }>;

export const postsProjector: Projector<PostDoc, ProjectedPostEvent> = {
  name: 'ingest-posts',
  collection: POSTS,
  eventTypes: TYPES,
  // Not unique: one post per (team, link) is decided by the event store's claim streams; a read model
  // that refused a second post of the log would hide a fact (logs written before the claims have some).
  // `status_updated`: the held-post sweep finds the few `holding` posts of every team without a scan.
  indexes: [
    { keys: { teamId: 1, normalizedLink: 1 }, name: 'team_link' },
    { keys: { teamId: 1, updatedAt: -1 } },
    { keys: { status: 1, updatedAt: 1 }, name: 'status_updated' },
  ],
  documentIds: (event) => [event.data.postId],
  evolve(doc, event) {
    const at = event.metadata.occurredAt;
    if (event.type === 'PostCreated') {
      const d = event.data;
      return {
        _id: d.postId,
        id: d.postId,
        teamId: d.teamId,
        platform: d.platform,
        link: d.normalizedLink,
        normalizedLink: d.normalizedLink,
        creator: null,
        title: null,
        caption: null,
        summary: null,
        description: null,
        tags: d.tags,
        engagement: null,
        totalComments: 0,
        scores: null,
        sentimentMix: null,
        postedAt: null,
        createdAt: d.requestedAt,
        updatedAt: at,
        lastRefreshedAt: d.requestedAt,
        lastIncludedRefreshAt: d.requestedAt,
        collectionIds: d.collectionIds,
        thumbnail: null,
        postType: null,
        status: 'fetching',
        dataVersion: d.dataVersion,
        scoredVersion: null,
        isDemo: d.isDemo,
        addedVia: d.addedVia,
        addedBy: d.addedBy,
        addedByEmail: null,
        automation: null,
        topics: [],
        messages: [],
        scorer: null,
        jobId: d.jobId,
        versionOutcomes: {},
      };
    }
    const post = doc as PostDoc;
    switch (event.type) {
      case 'PostTagged':
        return { ...post, ...taggedWith(post, event.data), updatedAt: at };
      case 'PostRefreshRequested': {
        const d = event.data;
        return {
          ...post,
          status: 'fetching',
          dataVersion: d.dataVersion,
          jobId: d.jobId,
          lastRefreshedAt: d.requestedAt,
          lastIncludedRefreshAt: d.creditSource === 'included' ? d.requestedAt : post.lastIncludedRefreshAt,
          updatedAt: at,
        };
      }
      case 'PostFetched': {
        return { ...post, status: 'processing', ...postDetailsOf(event.data.post), updatedAt: at };
      }
      case 'PostScored': {
        const d = event.data;
        return {
          ...post,
          status: 'complete',
          totalComments: d.totalComments,
          topics: d.topics,
          messages: d.messages,
          scorer: d.scorer,
          scoredVersion: d.dataVersion,
          versionOutcomes: {
            ...post.versionOutcomes,
            [String(d.dataVersion)]: { status: 'complete', charged: versionIsCharged(event) },
          },
          updatedAt: at,
        };
      }
      case 'PostFetchFailed':
        return {
          ...post,
          status: event.data.outcome,
          versionOutcomes: {
            ...post.versionOutcomes,
            [String(event.data.dataVersion)]: { status: event.data.outcome, charged: false },
          },
          updatedAt: at,
        };
      case 'PostHoldResumed':
        // The held version is fetched again; its held outcome stays until the new one replaces it.
        return { ...post, status: 'fetching', updatedAt: at };
      case 'PostCancelled':
        return {
          ...post,
          status: 'cancelled',
          versionOutcomes: {
            ...post.versionOutcomes,
            [String(event.data.dataVersion)]: { status: 'cancelled', charged: false },
          },
          updatedAt: at,
        };
      default:
        return post;
    }
  },
};
