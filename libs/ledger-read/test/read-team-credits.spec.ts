import { MemoryReadStore } from '@analyst/eventsourcing';
import {
  LEDGER_BALANCES,
  readTeamCredits,
  readTeamCreditsAt,
  type LedgerBalancesDoc,
} from '@analyst/ledger-read';

const stored: LedgerBalancesDoc = {
  _id: 'team_r',
  teamId: 'team_r',
  maps: 120,
  adhoc: 7,
  reserved: 5,
  month: '2025-03',
  allotment: 500,
  updatedAt: '2025-03-20T10:00:00.000Z',
};

async function storeWith(doc: LedgerBalancesDoc | null): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  if (doc) await store.collection<LedgerBalancesDoc>(LEDGER_BALANCES).insertOne(doc);
  return store;
}

describe('ledger read API', () => {
  it('gives zeros for a team with no ledger yet', async () => {
    const store = await storeWith(null);
    expect(await readTeamCredits(store, 'nobody')).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    expect(await readTeamCreditsAt(store, 'nobody', '2025-04-01T00:00:00Z')).toEqual({
      maps: 0,
      adhoc: 0,
      reserved: 0,
    });
  });

  it('reads the stored figures within their month', async () => {
    const store = await storeWith(stored);
    expect(await readTeamCredits(store, 'team_r')).toEqual({ maps: 120, adhoc: 7, reserved: 5 });
    expect(await readTeamCreditsAt(store, 'team_r', '2025-03-31T23:59:59Z')).toEqual({
      maps: 120,
      adhoc: 7,
      reserved: 5,
    });
  });

  it('applies the pending MAP reset once the month has turned, leaving Ad Hoc and reserved', async () => {
    const store = await storeWith(stored);
    expect(await readTeamCreditsAt(store, 'team_r', '2025-04-01T00:00:00Z')).toEqual({
      maps: 500,
      adhoc: 7,
      reserved: 5,
    });
    // The stored document itself is what the audit compares with: unchanged.
    expect(await readTeamCredits(store, 'team_r')).toEqual({ maps: 120, adhoc: 7, reserved: 5 });
  });
});
