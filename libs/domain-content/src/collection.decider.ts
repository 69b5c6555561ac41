import type { Command, Decider } from '@analyst/eventsourcing';
import type { CollectionCreated, CollectionType } from '@analyst/contracts';
import { ContentError } from './content-errors';

export type CollectionEvent = CollectionCreated;

export const collectionStream = (collectionId: string): string => `collection-${collectionId}`;

export type CollectionState =
  | { status: 'absent' }
  | {
      status: 'active';
      collectionId: string;
      teamId: string;
      name: string;
      type: CollectionType;
      parentId: string | null;
    };

/** What the service knows about the parent named in `CreateCollection` (null: none on the team). */
export interface ParentCollectionFacts {
  collectionId: string;
  type: CollectionType;
}

export type CollectionCommand = Command<
  'CreateCollection',
  {
    collectionId: string;
    teamId: string;
    name: string;
    collectionType: CollectionType;
    parentId: string | null;
    parent: ParentCollectionFacts | null;
    createdVia: 'api' | 'demo';
    at: string;
  }
>;

export function decideCollection(command: CollectionCommand, state: CollectionState): CollectionEvent[] {
  const { collectionId, teamId, collectionType, parentId, parent, createdVia, at } = command.data;
  if (state.status !== 'absent')
    throw new ContentError('collection_exists', `collection ${collectionId} already exists`);
  const name = command.data.name.trim();
  // Campaigns are top level; a group sits inside a campaign of the same team.
  if (collectionType === 'campaign' && parentId !== null) {
    throw new ContentError('invalid_parent', 'a campaign cannot have a parent; use type group');
  }
  if (collectionType === 'group') {
    if (!parentId) throw new ContentError('invalid_parent', 'a group needs parentId (a campaign)');
    if (!parent || parent.collectionId !== parentId) {
      throw new ContentError('invalid_parent', `parent collection ${parentId} not found`);
    }
    if (parent.type !== 'campaign')
      throw new ContentError('invalid_parent', `parent collection ${parentId} is not a campaign`);
  }
  return [
    {
      type: 'CollectionCreated',
      data: { collectionId, teamId, name, type: collectionType, parentId, createdVia, at },
    },
  ];
}

export function evolveCollection(state: CollectionState, event: CollectionEvent): CollectionState {
  switch (event.type) {
    case 'CollectionCreated': {
      const { collectionId, teamId, name, type, parentId } = event.data;
      return { status: 'active', collectionId, teamId, name, type, parentId };
    }
    default: {
      const _never: never = event.type;
      return _never;
    }
  }
}

export const collectionDecider: Decider<CollectionCommand, CollectionEvent, CollectionState> = {
  initialState: (): CollectionState => ({ status: 'absent' }),
  decide: decideCollection,
  evolve: evolveCollection,
};
