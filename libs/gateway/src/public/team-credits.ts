import type { CreditBalances } from '@analyst/contracts';
import { readTeamCreditsAt } from '@analyst/ledger-read';
import type { ReadStore } from '@analyst/platform';

/**
 * `credits` of `GET /team`, from the ledger's balances read model (zeros before the ledger has seen
 * the team), as of `at`: in a new UTC month the MAPs are that month's allotment even before the
 * reset has been written.
 */
export function readCredits(store: ReadStore, teamId: string, at: Date): Promise<CreditBalances> {
  return readTeamCreditsAt(store, teamId, at);
}
