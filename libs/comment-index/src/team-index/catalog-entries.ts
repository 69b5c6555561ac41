import type { CollectionCreated, PostCreated, PostDetails } from '@analyst/contracts';

/** What a post shows of its fetch: null until it was fetched. */
type Unfetched<T> = { [K in keyof T]: T[K] | null };

/**
 * A post's catalog fields: what the in-memory index's `PostEntry` and the stored catalog document
 * both hold, changed by the same events (folded-teams.ts folds them, catalog-posts.projector.ts stores them).
 */
export interface CatalogPostFields
  extends
    Pick<
      PostCreated['data'],
      | 'teamId'
      | 'link'
      | 'normalizedLink'
      | 'platform'
      | 'collectionIds'
      | 'tags'
      | 'addedVia'
      | 'dataVersion'
    >,
    Unfetched<PostDetails> {
  addedBy: { id: string; name: string } | null;
  isDemo: boolean;
  status: string;
  createdAt: string;
  updatedAt: string;
  lastRefreshedAt: string;
  totalComments: number;
}

/** A post as its `PostCreated` leaves it: fetching, nothing fetched yet. */
export function createdPostFields(d: PostCreated['data']): CatalogPostFields {
  return {
    teamId: d.teamId,
    link: d.link,
    normalizedLink: d.normalizedLink,
    platform: d.platform,
    collectionIds: [...d.collectionIds],
    tags: [...d.tags],
    addedVia: d.addedVia,
    // Tolerant of an event without them, as every fold of the log must be.
    addedBy: d.addedBy ?? null,
    isDemo: d.isDemo ?? false,
    status: 'fetching',
    dataVersion: d.dataVersion,
    createdAt: d.requestedAt,
    updatedAt: d.requestedAt,
    lastRefreshedAt: d.requestedAt,
    creator: null,
    title: null,
    caption: null,
    description: null,
    engagement: null,
    postedAt: null,
    postType: null,
    thumbnail: null,
    totalComments: 0,
  };
}

export interface CollectionEntry {
  id: string;
  teamId: string;
  name: string;
  type: 'campaign' | 'group';
  parentId: string | null;
  createdAt: string;
}

/** A collection as its `CollectionCreated` names it; `occurredAt` stands in for a missing `at`. */
export function collectionEntryOf(d: CollectionCreated['data'], occurredAt: string): CollectionEntry {
  return {
    id: d.collectionId,
    teamId: d.teamId,
    name: d.name,
    type: d.type,
    parentId: d.parentId,
    createdAt: d.at ?? occurredAt,
  };
}
