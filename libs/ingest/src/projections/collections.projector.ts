import type { Projector } from '@analyst/platform';
import type { CollectionCreated, CollectionType, PostCreated, PostTagged } from '@analyst/contracts';
import { COLLECTIONS } from '../ingest.tokens';

/** A collection (`_id` = collection id). `postCount` counts the posts joined to it directly. */
export interface CollectionDoc {
  _id: string;
  id: string;
  teamId: string;
  name: string;
  nameKey: string;
  type: CollectionType;
  parentId: string | null;
  postCount: number;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

export const collectionNameKey = (name: string): string => name.trim().toLowerCase();

export const collectionsProjector: Projector<CollectionDoc, CollectionCreated | PostCreated | PostTagged> = {
  name: 'ingest-collections',
  collection: COLLECTIONS,
  eventTypes: ['CollectionCreated', 'PostCreated', 'PostTagged'],
  // Lookup by name, and the team's list in creation order.
  indexes: [{ keys: { teamId: 1, nameKey: 1 } }, { keys: { teamId: 1, createdAt: 1 } }],
  documentIds(event) {
    if (event.type === 'CollectionCreated') return [event.data.collectionId];
    if (event.type === 'PostCreated') return event.data.collectionIds;
    return event.data.addedCollectionIds;
  },
  evolve(doc, event, id) {
    const at = event.metadata.occurredAt;
    if (event.type === 'CollectionCreated') {
      const d = event.data;
      return {
        _id: id,
        id,
        teamId: d.teamId,
        name: d.name,
        nameKey: collectionNameKey(d.name),
        type: d.type,
        parentId: d.parentId,
        postCount: doc?.postCount ?? 0,
        active: true,
        createdAt: d.at,
        updatedAt: at,
      };
    }
    if (!doc) throw new Error(`post joined collection ${id} before it was created`);
    return { ...doc, postCount: doc.postCount + 1, updatedAt: at };
  },
};
