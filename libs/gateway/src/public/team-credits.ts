import type { CreditBalances } from '@analyst/contracts';
import type { ReadStore } from '@analyst/platform';

/**
 * The ledger's balances read model (`ledger_balances`, owned by the ledger service), read the way
 * its `readTeamCredits` does. Kept local so the gateway does not load the ledger module; null when
 * no ledger runs in this process.
 */
const LEDGER_BALANCES = 'ledger_balances';

export async function readCredits(store: ReadStore, teamId: string): Promise<CreditBalances | null> {
  const collections = await store.listCollections();
  if (!collections.includes(LEDGER_BALANCES)) return null;
  const doc = await store.collection(LEDGER_BALANCES).findOne({ _id: teamId });
  if (!doc) return { maps: 0, adhoc: 0, reserved: 0 };
  return { maps: Number(doc.maps ?? 0), adhoc: Number(doc.adhoc ?? 0), reserved: Number(doc.reserved ?? 0) };
}
