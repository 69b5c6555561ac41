import { collectionDecider, type CollectionCommand, type CollectionEvent } from '@analyst/domain-content';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

const given = (events: CollectionEvent[]) => DeciderSpecification.for(collectionDecider).given(events);
const AT = '2026-03-10T12:00:00.000Z';
const base: CollectionCommand = {
  type: 'CreateCollection',
  data: {
    collectionId: 'col_1',
    teamId: 'tm_1',
    name: ' Launch ',
    collectionType: 'campaign',
    parentId: null,
    parent: null,
    createdVia: 'api',
    at: AT,
  },
};

describe('collection decider', () => {
  it('creates a campaign with a trimmed name', () => {
    given([])
      .when(base)
      .then([
        {
          type: 'CollectionCreated',
          data: {
            collectionId: 'col_1',
            teamId: 'tm_1',
            name: 'Launch',
            type: 'campaign',
            parentId: null,
            createdVia: 'api',
            at: AT,
          },
        },
      ]);
  });
  it('creates a group inside a campaign', () => {
    const events = given([])
      .when({
        ...base,
        data: {
          ...base.data,
          collectionType: 'group',
          parentId: 'col_0',
          parent: { collectionId: 'col_0', type: 'campaign' },
        },
      })
      .events();
    expect(events[0].data).toMatchObject({ type: 'group', parentId: 'col_0' });
  });
  it.each([
    [{ collectionType: 'group' as const, parentId: null }, 'invalid_parent'],
    [{ collectionType: 'group' as const, parentId: 'col_0', parent: null }, 'invalid_parent'],
    [
      {
        collectionType: 'group' as const,
        parentId: 'col_0',
        parent: { collectionId: 'col_0', type: 'group' as const },
      },
      'invalid_parent',
    ],
    [{ parentId: 'col_0' }, 'invalid_parent'],
  ])('refuses %j', (patch, code) => {
    given([])
      .when({ ...base, data: { ...base.data, ...patch } })
      .thenFails(code);
  });
  it('refuses to create the same collection twice', () => {
    given(given([]).when(base).events()).when(base).thenFails('collection_exists');
  });
});
