import type { CreditBalances } from '@analyst/contracts';
import type { ReadStore } from '@analyst/platform';
import { LEDGER_BALANCES } from '../ledger.tokens';
import type { LedgerBalancesDoc } from '../projections/ledger-balances.projector';

/** `credits` of `GET /team`: the team's balances, zeros for a team with no ledger yet. */
export async function readTeamCredits(store: ReadStore, teamId: string): Promise<CreditBalances> {
  const doc = await store.collection<LedgerBalancesDoc>(LEDGER_BALANCES).findOne({ _id: teamId });
  return doc ? { maps: doc.maps, adhoc: doc.adhoc, reserved: doc.reserved } : { maps: 0, adhoc: 0, reserved: 0 };
}
