import { withoutMeta, type ReadStore } from '@analyst/platform';
import { COLLECTIONS } from '../ingest.tokens';
import { collectionNameKey, type CollectionDoc } from '../projections/collections.projector';

export async function findCollection(
  store: ReadStore,
  teamId: string,
  collectionId: string,
): Promise<CollectionDoc | null> {
  const doc = await store.collection<CollectionDoc>(COLLECTIONS).findOne({ _id: collectionId });
  return doc && doc.teamId === teamId && doc.active ? withoutMeta(doc) : null;
}

/** Active collections of the team with this name, case-insensitively. */
export async function findCollectionsByName(
  store: ReadStore,
  teamId: string,
  name: string,
): Promise<CollectionDoc[]> {
  const docs = await store
    .collection<CollectionDoc>(COLLECTIONS)
    .find({ teamId, nameKey: collectionNameKey(name), active: true }, { sort: { createdAt: 1, _id: 1 } });
  return docs.map((d) => withoutMeta(d));
}

export async function findTeamCollections(store: ReadStore, teamId: string): Promise<CollectionDoc[]> {
  const docs = await store
    .collection<CollectionDoc>(COLLECTIONS)
    .find({ teamId, active: true }, { sort: { createdAt: 1, _id: 1 } });
  return docs.map((d) => withoutMeta(d));
}
