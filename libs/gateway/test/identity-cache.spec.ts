import { MemoryReadStore, type ReadStore } from '@analyst/platform';
import {
  API_KEYS_COLLECTION,
  IDENTITY_CACHE_TTL_MS,
  IdentityCache,
  TEAMS_COLLECTION,
  type ApiKeyDoc,
  type TeamDoc,
} from '@analyst/gateway';

function keyDoc(name: string): ApiKeyDoc {
  return {
    _id: 'ak_1',
    teamId: 'tm_1',
    name,
    scopes: [],
    secretHash: 'h',
    status: 'active',
    createdAt: '2026-11-25T00:00:00.000Z',
    rotatedAt: null,
    revokedAt: null,
  } as ApiKeyDoc;
}

describe('IdentityCache', () => {
  it('answers from memory until an event drops the entry, then reads the new document', async () => {
    const store = new MemoryReadStore();
    let reads = 0;
    const counting: ReadStore = {
      ...store,
      collection: (name: string) => {
        const c = store.collection(name);
        return { ...c, findOne: (...args: Parameters<typeof c.findOne>) => (reads++, c.findOne(...args)) };
      },
    } as ReadStore;
    const keys = store.collection<ApiKeyDoc>(API_KEYS_COLLECTION);
    await keys.insertOne(keyDoc('first'));
    const cache = new IdentityCache(counting);
    expect((await cache.key('ak_1'))?.name).toBe('first');
    await keys.replaceOne({ _id: 'ak_1' }, keyDoc('second'));
    expect((await cache.key('ak_1'))?.name).toBe('first');
    expect(reads).toBe(1);
    cache.forgetKey('ak_1');
    expect((await cache.key('ak_1'))?.name).toBe('second');
    expect(reads).toBe(2);
    expect(await cache.key('ak_unknown')).toBeNull();
    expect(await cache.key('ak_unknown')).toBeNull();
    expect(reads).toBe(4); // unknown ids are read each time, never kept
  });

  it('peeks without reading: a cached, fresh document, and undefined for anything only a read can tell', async () => {
    const store = new MemoryReadStore();
    await store.collection<ApiKeyDoc>(API_KEYS_COLLECTION).insertOne(keyDoc('first'));
    await store.collection<TeamDoc>(TEAMS_COLLECTION).insertOne({ _id: 'tm_1', name: 'T' } as TeamDoc);
    const cache = new IdentityCache(store);
    expect(cache.cachedKey('ak_1')).toBeUndefined();
    expect(cache.cachedTeam('tm_1')).toBeUndefined();
    await cache.key('ak_1');
    await cache.team('tm_1');
    expect(cache.cachedKey('ak_1')?.name).toBe('first');
    expect(cache.cachedTeam('tm_1')?.name).toBe('T');
    await cache.key('ak_unknown');
    expect(cache.cachedKey('ak_unknown')).toBeUndefined(); // unknown ids are never kept
    cache.forgetKey('ak_1');
    cache.forgetTeam('tm_1');
    expect(cache.cachedKey('ak_1')).toBeUndefined();
    expect(cache.cachedTeam('tm_1')).toBeUndefined();
    await cache.key('ak_1');
    const now = Date.now();
    const spy = jest.spyOn(Date, 'now').mockReturnValue(now + IDENTITY_CACHE_TTL_MS);
    try {
      expect(cache.cachedKey('ak_1')).toBeUndefined(); // past its TTL: only a read can tell
    } finally {
      spy.mockRestore();
    }
  });

  it('does not keep a read that straddles a drop (the event landed while the old document was in flight)', async () => {
    const store = new MemoryReadStore();
    const keys = store.collection<ApiKeyDoc>(API_KEYS_COLLECTION);
    await keys.insertOne(keyDoc('before rotation'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slow = true;
    const gated: ReadStore = {
      ...store,
      collection: (name: string) => {
        const c = store.collection(name);
        return {
          ...c,
          findOne: async (...args: Parameters<typeof c.findOne>) => {
            const doc = await c.findOne(...args);
            if (slow) await gate;
            return doc;
          },
        };
      },
    } as ReadStore;
    const cache = new IdentityCache(gated);
    const inFlight = cache.key('ak_1');
    await keys.replaceOne({ _id: 'ak_1' }, keyDoc('after rotation'));
    cache.forgetKey('ak_1');
    slow = false;
    release();
    expect((await inFlight)?.name).toBe('before rotation');
    expect((await cache.key('ak_1'))?.name).toBe('after rotation');
  });
});

describe('IdentityCache sub-team lists', () => {
  it('keeps an Enterprise team’s sub-teams until any team event drops them', async () => {
    const store = new MemoryReadStore();
    const teams = store.collection<TeamDoc>(TEAMS_COLLECTION);
    const team = (id: string, createdAt: string) =>
      ({ _id: id, name: id, plan: 'pro', parentTeamId: 'tm_parent', createdAt }) as unknown as TeamDoc;
    await teams.insertOne(team('tm_a', '2026-11-25T00:00:01.000Z'));
    const cache = new IdentityCache(store);
    expect((await cache.subTeams('tm_parent')).map((t) => t._id)).toEqual(['tm_a']);
    await teams.insertOne(team('tm_b', '2026-11-25T00:00:02.000Z'));
    expect((await cache.subTeams('tm_parent')).map((t) => t._id)).toEqual(['tm_a']);
    cache.forgetTeam('tm_b');
    expect((await cache.subTeams('tm_parent')).map((t) => t._id)).toEqual(['tm_a', 'tm_b']);
  });
});
